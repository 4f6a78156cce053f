import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { repoRoot } from './run-cli.js';

/** util-linux `script` runs a command on a pseudo-terminal: its stdin is the terminal's keyboard. */
export const scriptBin = ['/usr/bin/script', '/bin/script'].find((p) => existsSync(p));

export interface PtySession {
  /** types a line, Enter included */
  type(line: string): void;
  /** types keys as they are (no Enter): `\x03` is Ctrl-C */
  write(keys: string): void;
  /** resolves with the whole screen output once it matches (no sleeps: it waits for output) */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>;
  output(): string;
  close(): Promise<void>;
}

/**
 * Runs a shell command line on a pseudo-terminal with `script` (no native module needed).
 * @example const pty = startPty('node bin/svc-cli.js platform'); await pty.waitFor(/listening/);
 */
export function startPty(command: string): PtySession {
  const child: ChildProcessWithoutNullStreams = spawn(
    scriptBin as string,
    // a terminal of a known size, as a person's is
    ['-qfec', `stty cols 160 rows 40; ${command}`, '/dev/null'],
    // a person's terminal, even when the suite runs in CI (CI turns progress off)
    {
      cwd: repoRoot,
      env: { ...process.env, NO_COLOR: '1', TERM: 'xterm', COLUMNS: '160', CI: '' },
    },
  );
  let output = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const wake of waiters) wake();
  });
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return {
    type: (line) => child.stdin.write(`${line}\r`),
    write: (keys) => child.stdin.write(keys),
    output: () => output,
    waitFor(pattern, timeoutMs = 15_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!pattern.test(output)) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(output);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no ${String(pattern)} on the terminal; it shows:\n${output}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}
