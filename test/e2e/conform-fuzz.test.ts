import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { spawn } from 'node:child_process';
import { bin, runCli } from '../helpers/run-cli.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.close(0);
  server = undefined;
});

describe('svc-cli conform --fuzz', () => {
  it('Ctrl-C on a --fuzz-time run prints the figures of the cases finished so far (exit 130)', async () => {
    let seen = 0;
    let onTwenty: () => void = () => undefined;
    const twenty = new Promise<void>((resolve) => (onTwenty = resolve));
    server = await startServer({
      handler(req, res) {
        req.resume();
        req.on('end', () => {
          if (++seen === 20) onTwenty();
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"result":"ok"}');
        });
      },
    });
    const child = spawn(
      process.execPath,
      [
        bin,
        'conform',
        'hooks',
        '--url',
        `${server.url}/hooks`,
        '--fuzz-time',
        '60s',
        '--seed',
        '3',
      ],
      { cwd: mkdtempSync(join(tmpdir(), 'svc-fuzz-int-')), env: { ...process.env, NO_COLOR: '1' } },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const code = new Promise<number | null>((resolve) => child.on('close', resolve));
    await twenty; // twenty requests answered: some cases have finished
    child.kill('SIGINT');
    expect(await code).toBe(130);
    const figures =
      /interrupted: (\d+) generated cases? finished: (\d+) passed, 0 failed \(seed 3; --fuzz \1 --seed 3 runs them again\)/.exec(
        stderr,
      );
    expect(figures, stderr).not.toBeNull();
    expect(Number(figures?.[1])).toBeGreaterThan(0);
    expect(figures?.[2]).toBe(figures?.[1]);
  });

  it('finds a receiver that crashes on astral characters, prints the seed and path, and writes a request hook-fire replays', async () => {
    server = await startServer({
      handler(req, res) {
        let text = '';
        req.on('data', (c: Buffer) => (text += c.toString()));
        req.on('end', () => {
          const astral = /[\u{10000}-\u{10FFFF}]/u.test(text);
          res.writeHead(astral ? 500 : 200, { 'content-type': 'application/json' });
          res.end(astral ? '{"error":"crashed"}' : '{"result":"ok"}');
        });
      },
    });
    const cwd = mkdtempSync(join(tmpdir(), 'svc-fuzz-e2e-'));
    const url = `${server.url}/hooks`;
    const run = await runCli(['conform', 'hooks', '--url', url, '--fuzz', '300', '--seed', '7'], {
      cwd,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/✗ fuzz: survives: no 5xx, no reset, no hang/);
    expect(run.stdout).toMatch(/--fuzz \d+ --seed 7 --fuzz-path \d+(:\d+)*/);
    // run again at the printed path: the summary counts the cases that replay sent, not 300
    const path = /--fuzz 300 --seed 7 --fuzz-path (\d+(?::\d+)*)/.exec(run.stdout)![1]!;
    const rerun = await runCli(
      ['conform', 'hooks', '--url', url, '--fuzz', '300', '--seed', '7', '--fuzz-path', path],
      { cwd },
    );
    expect(rerun.code).toBe(1);
    const sent =
      /fuzz: (\d+) generated cases? sent \(--fuzz-path, within a run of 300\), seed 7/.exec(
        rerun.stdout,
      );
    expect(sent, rerun.stdout).not.toBeNull();
    expect(Number(sent![1])).toBeLessThan(300);
    const command = /svc-cli (hook-fire --from \S+ --url \S+)/.exec(run.stdout)?.[1];
    expect(command).toBeDefined();
    const again = await runCli(command!.split(' '), { cwd });
    expect(again.code).toBe(1); // the receiver answers the written request with HTTP 500 again
    expect(again.stdout + again.stderr).toMatch(/500/);
  });

  it('refuses --seed without --fuzz and --fuzz on a suite it does not apply to (exit 2)', async () => {
    const seedOnly = await runCli([
      'conform',
      'hooks',
      '--url',
      'http://127.0.0.1:1/h',
      '--seed',
      '3',
    ]);
    expect(seedOnly.code).toBe(2);
    expect(seedOnly.stderr).toMatch(/no --fuzz is given/);
    const platform = await runCli([
      'conform',
      'platform',
      '--channel-url',
      'http://127.0.0.1:1/abc/def',
      '--fuzz',
      '10',
    ]);
    expect(platform.code).toBe(2);
    expect(platform.stderr).toMatch(
      /which conform platform does not read \(fuzzing generates what the platform sends/,
    );
    // the bot's fuzz sends one generated customer message a case: no sequences
    const bot = await runCli([
      ...['conform', 'bot', '--url', 'http://127.0.0.1:1', '--token', 't', '--fuzz', '5'],
      '--fuzz-stateful',
    ]);
    expect(bot.code).toBe(2);
    expect(bot.stderr).toContain(
      'Could not run conform bot: --fuzz-stateful is a flag of conform hooks and conform integrator, which conform bot does not read.',
    );
    const hooks = ['conform', 'hooks', '--url', 'http://127.0.0.1:1/h', '--fuzz', '5'];
    const garbage = await runCli([...hooks, '--seed', '1', '--fuzz-path', 'garbage']);
    expect(garbage.code).toBe(2);
    expect(garbage.stderr).toContain('Could not use --fuzz-path "garbage"');
    const unseeded = await runCli([...hooks, '--fuzz-path', '1:2']);
    expect(unseeded.code).toBe(2);
    expect(unseeded.stderr).toContain('Could not use --fuzz-path without --seed');
  });
});
