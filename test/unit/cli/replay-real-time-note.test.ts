/**
 * A replay against a real peer runs on the real clock: after a slow one at scale 1, replay says
 * that --time-scale makes it faster (a newcomer waited 155 s for a redelivery fixture).
 */
import { describe, expect, it } from 'vitest';
import { realTimeNote } from '../../../src/cli/commands/replay-run.js';

const integrator = { integratorUrl: 'http://127.0.0.1:9000' };

describe('replay: the real-time note', () => {
  it('names the seconds and --time-scale 0.1 after a slow run against a real peer', () => {
    const note = realTimeNote(integrator, undefined, 155.4);
    expect(note).toContain('this replay took 155 s');
    expect(note).toContain('--time-scale 0.1');
    expect(realTimeNote({ botUrl: 'http://127.0.0.1:8080' }, undefined, 21)).toContain('21 s');
    expect(realTimeNote({ hookUrl: 'http://127.0.0.1:8080/h' }, undefined, 21)).toBeDefined();
  });

  it('says nothing of a quick run, a scaled run, or one with no real peer', () => {
    expect(realTimeNote(integrator, undefined, 20)).toBeUndefined();
    expect(realTimeNote(integrator, 1, 155)).toBeUndefined();
    expect(realTimeNote(integrator, 0.1, 155)).toBeUndefined();
    expect(realTimeNote({}, undefined, 155)).toBeUndefined();
  });
});
