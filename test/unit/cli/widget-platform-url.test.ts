import { describe, expect, it } from 'vitest';
import { simulatorBase } from '../../../src/cli/commands/widget-run.js';
import { runCli } from '../../../src/cli/main.js';
import { createTestContext } from '../../helpers/cli-context.js';

describe('widget --platform-url as a user pastes it (newcomer pass)', () => {
  it.each([
    // the console's address, as the platform banner prints it
    ['http://127.0.0.1:8800/_sim/console/', 'http://127.0.0.1:8800'],
    ['http://127.0.0.1:8800/_sim', 'http://127.0.0.1:8800'],
    ['https://sim.test/base/_sim/events', 'https://sim.test/base'],
    ['http://127.0.0.1:8800/', 'http://127.0.0.1:8800'],
    ['http://127.0.0.1:8800', 'http://127.0.0.1:8800'],
  ])('%s is the simulator at %s', (pasted, base) => {
    expect(simulatorBase(pasted)).toBe(base);
  });
});

describe('widget --platform-url with a flag of the simulator it would start', () => {
  it.each([
    [
      ['--agents', 'offline'],
      'Start that simulator with it (svc-cli platform --web --agents offline)',
    ],
    [
      ['--platform-port', '8801', '--record', 'session.ndjson'],
      'Start that simulator with them (svc-cli platform --web --port 8801 --record session.ndjson)',
    ],
  ])('%j: the hint names only the flags given, as platform spells them', async (flags, hint) => {
    const t = createTestContext({ cwd: process.cwd() });
    const argv = ['widget', '--platform-url', 'http://127.0.0.1:9', ...flags];
    expect(await runCli(argv, t.ctx)).toBe(2);
    expect(t.stderr()).toContain(hint);
  });
});

describe('widget with one port for the page and the simulator', () => {
  it('is refused as such, not as a port another program holds', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runCli(['widget', '--port', '8080', '--platform-port', '8080'], t.ctx)).toBe(2);
    expect(t.stderr()).toContain(
      'Could not use --port 8080 and --platform-port 8080: the demo page and the simulator started here need a port each.',
    );
    expect(t.stderr()).not.toContain('another program');
  });
});
