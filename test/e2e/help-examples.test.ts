/**
 * The first examples a newcomer copies are the top-level --help's: the ones that need no
 * running peer must pass in a fresh clone (a newcomer's pass found `validate
 * fixtures/payloads` exiting 1 on the bundled invalid samples).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

/** Commands that start a server or reach a peer: not run here. */
const SERVING = /^(platform|listen|bot-sim|hook-target|widget|proxy|chat)\b/;

describe('svc-cli --help examples', () => {
  it('each one that needs no peer exits 0 from the repository', async () => {
    const help = await runCli(['--help']);
    const examples = [...help.stdout.matchAll(/^\s+\$ svc-cli (.+)$/gm)].map((m) => m[1]!);
    const offline = examples.filter((line) => !SERVING.test(line));
    expect(offline.length).toBeGreaterThanOrEqual(2);
    for (const line of offline) {
      const run = await runCli(line.split(/\s+/));
      expect(run.code, `svc-cli ${line}\n${run.stdout.slice(-400)}${run.stderr}`).toBe(0);
    }
  });
});
