import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { createListener } from '../../src/roles/integrator/index.js';
import { spawnCli } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('svc-cli replay --platform-url', () => {
  it('replays a bundled conversation against a spawned `svc-cli platform`', async () => {
    // scale 0.5: the integrator in this busy test process has 1.5 s of wall to answer each
    // 3 s attempt; at 0.1 (300 ms) a run beside a CPU hog saw attempt 1 time out, and the
    // fixture's "attempts": 1 failed
    const listener = await createListener({ clock: createClock({ timeScale: 0.5 }) });
    closers.push(() => listener.close(10));
    const platform = spawnCli([
      '--json',
      '--time-scale',
      '0.5',
      'platform',
      '--port',
      '0',
      '--no-console',
      '--integrator-url',
      listener.url,
    ]);
    const listening = await platform.next((l) => l.type === 'listening');
    const run = await runCli([
      '--time-scale',
      '0.5',
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--platform-url',
      String(listening.url),
    ]);
    expect(run.stdout).toContain('✓ text both ways');
    expect(run.stdout).toMatch(
      /- 4\. expect integrator .*\n\s+skipped: with --platform-url the simulator talks to its own integrator/,
    );
    expect(run.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    expect(run.stderr).not.toContain('--time-scale');
    // the same simulator at 0.5 replayed at 1: said once, before the run
    const mismatched = await runCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--platform-url',
      String(listening.url),
    ]);
    expect(mismatched.stderr).toContain(
      `warning: the simulator at ${String(listening.url)} runs at --time-scale 0.5, this replay at 1`,
    );
    expect(mismatched.stderr.match(/warning: the simulator/g)).toHaveLength(1);
    expect(run.code).toBe(0);
    platform.child.kill('SIGINT');
    expect(await platform.exit).toBe(130);
  });

  it('exits 2 with --platform-url and --integrator-url together', async () => {
    const run = await runCli([
      'replay',
      '--platform-url',
      'http://127.0.0.1:1',
      '--integrator-url',
      'http://127.0.0.1:2',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--platform-url replaces the embedded platform');
  });
});
