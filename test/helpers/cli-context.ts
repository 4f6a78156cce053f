import { PassThrough } from 'node:stream';
import type { CliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/main.js';

export interface TestContext {
  ctx: CliContext;
  stdin: PassThrough & { isTTY?: boolean };
  stdout: () => string;
  stderr: () => string;
  abort: (reason?: string) => void;
  /** resolves once stdout contains `text` (prompts, banners) */
  waitForOutput: (text: string | RegExp) => Promise<void>;
}

/** A CliContext over in-memory streams, for running commands in-process. */
export function createTestContext(
  options: { cwd: string; env?: NodeJS.ProcessEnv; tty?: boolean } = { cwd: process.cwd() },
): TestContext {
  const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
  const stdout = new PassThrough() as PassThrough & { isTTY?: boolean };
  const stderr = new PassThrough() as PassThrough & { isTTY?: boolean };
  // Like process.stdout, the streams outlive whoever pipes into them (inquirer ends its
  // MuteStream after each prompt, and a pipe would end ours).
  stdout.end = () => stdout;
  stderr.end = () => stderr;
  if (options.tty) {
    stdin.isTTY = true;
    stdout.isTTY = true;
  }
  let out = '';
  let err = '';
  const waiters: { test: string | RegExp; resolve: () => void }[] = [];
  const matches = (test: string | RegExp) =>
    typeof test === 'string' ? out.includes(test) : test.test(out);
  stdout.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of waiters.splice(0)) {
      if (matches(w.test)) w.resolve();
      else waiters.push(w);
    }
  });
  stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const controller = new AbortController();
  const ctx: CliContext = {
    stdin,
    stdout,
    stderr,
    env: { NO_COLOR: '1', ...options.env },
    cwd: options.cwd,
    signal: controller.signal,
    exitCode: 0,
  };
  return {
    ctx,
    stdin,
    stdout: () => out,
    stderr: () => err,
    abort: (reason = 'SIGINT') => controller.abort(new Error(reason)),
    waitForOutput: (test) =>
      matches(test) ? Promise.resolve() : new Promise((resolve) => waiters.push({ test, resolve })),
  };
}

/** Runs argv in-process; resolves to the exit code. */
export function runInProcess(test: TestContext, argv: string[]): Promise<number> {
  return runCli(argv, test.ctx);
}
