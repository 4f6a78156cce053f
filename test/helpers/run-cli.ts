import { spawn } from 'node:child_process';
import path from 'node:path';

export const repoRoot = path.resolve(import.meta.dirname, '../..');
export const bin = path.join(repoRoot, 'bin/svc-cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the built CLI (npm test builds first) and collects its output. */
export function runCli(
  args: string[],
  options: { cwd?: string; input?: string; nodeArgs?: string[]; env?: Record<string, string> } = {},
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), bin, ...args], {
      cwd: options.cwd ?? repoRoot,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    // a command that exits before it reads stdin (a missing file, exit 2 at once) closes the
    // pipe: the write then fails with EPIPE, which is no failure of the command under test
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.input ?? '');
  });
}
