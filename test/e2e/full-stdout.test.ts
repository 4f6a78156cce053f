/**
 * stdout (or stderr) on a device that refuses every write (`/dev/full`: ENOSPC, as a full
 * disk): one line on stderr and exit 5 with SVC_E_DISK, never Node's stack trace of an
 * unhandled 'error' event.
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { bin, repoRoot } from '../helpers/run-cli.js';

const full = existsSync('/dev/full');

/** Runs the built CLI with stdout (or stderr) opened on /dev/full; collects the other one. */
function runOnFull(
  args: string[],
  onFull: 'stdout' | 'stderr' | 'both',
): Promise<{ code: number | null; out: string }> {
  const fd = openSync('/dev/full', 'w');
  const stdio: ['ignore', number | 'pipe', number | 'pipe'] =
    onFull === 'stdout'
      ? ['ignore', fd, 'pipe']
      : onFull === 'stderr'
        ? ['ignore', 'pipe', fd]
        : ['ignore', fd, fd];
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '' },
    stdio,
  });
  closeSync(fd);
  let out = '';
  const other = onFull === 'stdout' ? child.stderr : child.stdout;
  other?.setEncoding('utf8').on('data', (d: string) => (out += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe.skipIf(!full)('an output the machine refuses (/dev/full)', () => {
  it.each([
    ['--help'],
    ['--version'],
    ['schema', '--list'],
    ['validate', 'fixtures/payloads/channel'],
  ])('svc-cli %s > /dev/full exits 5 with one line naming SVC_E_DISK', async (...args) => {
    const run = await runOnFull(args, 'stdout');
    expect(run.code).toBe(5);
    expect(run.out).not.toMatch(/\n\s+at |Unhandled 'error' event|node:internal/);
    expect(run.out.trimEnd().split('\n')).toHaveLength(1);
    expect(run.out).toMatch(/^error \[SVC_E_DISK\] Could not write to stdout.*\(ENOSPC\)/);
  });

  it('with --json, says it as one NDJSON error object on stderr', async () => {
    const run = await runOnFull(['validate', '--json', 'fixtures/payloads/channel'], 'stdout');
    expect(run.code).toBe(5);
    const lines = run.out.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      type: 'error',
      code: 'SVC_E_DISK',
      category: 'system',
    });
  });

  it('a stderr that refuses writes ends in exit 5 too, stdout still whole', async () => {
    const run = await runOnFull(['no-such-command'], 'stderr');
    expect(run.code).toBe(5);
    expect(run.out).toBe('');
    const both = await runOnFull(['--help'], 'both');
    expect(both.code).toBe(5);
  });
});
