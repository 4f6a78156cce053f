/**
 * A recording the integrator made (`listen --record`), read as the platform saw it, beside the
 * platform's recording of the same conversation: `record diff` reads both sides of each
 * exchange as one, whatever the integrator answered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { diffObservations } from '../../src/conversation/record/diff.js';
import { observeRecordings } from '../../src/conversation/record/observe.js';
import type { Fault } from '../../src/faults/fault.js';
import type { ListenerOptions } from '../../src/roles/integrator/index.js';
import { closeRecordedSession, recordSession } from '../helpers/record-session.js';

let dir: string;
const file = (name: string) => join(dir, name);
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-peer-view-'));
});
afterEach(closeRecordedSession);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The platform's and listen's recordings of one session, observed. */
async function bothSides(name: string, listener: Partial<ListenerOptions>, sequence: Fault[] = []) {
  const [platformFile, listenFile] = [
    file(`${name}-platform.ndjson`),
    file(`${name}-listen.ndjson`),
  ];
  await recordSession(platformFile, listenFile, sequence, listener);
  await closeRecordedSession();
  return {
    platform: await observeRecordings([platformFile]),
    listen: await observeRecordings([listenFile]),
  };
}

describe('a peer recording read as the platform saw it', () => {
  it('a delivery the integrator refused before reading it is the one the platform sent', async () => {
    // spec 4.2: the agent message goes to POST {integrator_url}/<channel_public_id>; this
    // integrator serves another channel, so it answers each attempt 404 before judging it
    const { platform, listen } = await bothSides('wrong-channel', { channel: 'other' });
    const sent = listen.kinds['channel.agent.text'];
    expect(sent?.direction).toBe('out');
    expect(sent?.statuses).toEqual(platform.kinds['channel.agent.text']?.statuses);
    expect(Object.keys(listen.kinds).sort()).toEqual([
      'channel.agent.text',
      'channel.agent.typing',
    ]);
    expect(diffObservations(platform, listen).differences).toEqual([]);
  });
});
