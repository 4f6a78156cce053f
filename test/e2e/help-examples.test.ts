/**
 * The first things a newcomer meets (found by a newcomer's pass on a fresh clone): the
 * top-level --help's examples, of which those that need no running peer must pass from the
 * repository (`validate fixtures/payloads` exited 1 on the bundled invalid samples), and the
 * error of a command typed without its argument, which must list the choices.
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

describe('svc-cli --help at 80 columns', () => {
  it('has no line wider than 80: the exit codes broke at "failed" in an 80-column terminal', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    const wide = help.stdout.split('\n').filter((line) => line.length > 80);
    expect(wide).toEqual([]);
    expect(help.stdout).toMatch(/5 the machine\s+failed under the run/);
  });
});

describe('a URL typed without its scheme', () => {
  it('is shown back with http:// in front (exit 2)', async () => {
    const run = await runCli([
      'send-text',
      'hi',
      '--channel-url',
      '127.0.0.1:8800/dev-only-secret-1234/shop',
      '--sender-id',
      'c-1',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'must start with http:// or https://, e.g. "http://127.0.0.1:8800/dev-only-secret-1234/shop"',
    );
  });
});

describe('a missing argument that has choices', () => {
  it('lists them, in text and in --json (exit 2)', async () => {
    const text = await runCli(['conform']);
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(
      "missing required argument 'suite': one of integrator, hooks, platform, bot",
    );
    const json = await runCli(['--json', 'proxy']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout.trim())).toMatchObject({
      type: 'error',
      code: 'SVC_E_USAGE',
      message: "missing required argument 'interface': one of channel, bot, hooks",
    });
  });
});
