/**
 * The process around the program (program.ts): signals, the context of the real streams, the
 * exit code. The ONLY place that calls process.exit. bin/svc-cli.js runs `main` from the
 * start-up bundle of this module (dist/cli/main.bundle.cjs, src/cli/boot.ts).
 */
import type { CliContext } from './context.js';
import { EXIT_CODES, type SvcError } from '../errors.js';
import { readFileLimitNow } from '../io/file-limit.js';
import { isOutputFault, outputFault } from './output-fault.js';
import { runCli, wantsJson } from './program.js';
import { printErrorLine } from './render/errors.js';
import { releaseTerminal } from './terminal.js';

export { createProgram, runCli } from './program.js';

/** Runs svc-cli for `argv` in this process and exits with its code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  // the message about too many open files names the limit: read while a file can be opened
  readFileLimitNow();
  const controller = new AbortController();
  let signalled: number | undefined;
  let stdinOpened = false;
  /** Every exit leaves the terminal's modes as this process found them (terminal.ts). */
  const exit = (code: number): never => {
    releaseTerminal(stdinOpened ? process.stdin : undefined);
    return process.exit(code);
  };
  const onSignal = (code: number) => () => {
    if (signalled !== undefined) exit(code); // second Ctrl-C: leave now
    signalled = code;
    controller.abort(new Error(code === EXIT_CODES.sigint ? 'SIGINT' : 'SIGTERM'));
  };
  process.on('SIGINT', onSignal(EXIT_CODES.sigint));
  process.on('SIGTERM', onSignal(EXIT_CODES.sigterm));
  watchLauncher(process.env, () => {
    if (signalled === undefined) onSignal(EXIT_CODES.sigterm)();
  });
  const ctx: CliContext = {
    stdout: process.stdout,
    stderr: process.stderr,
    // on first use: process.stdin opens a stream (3-4 ms) no --help or validate reads
    get stdin() {
      stdinOpened = true;
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
    signal: controller.signal,
    interrupt: onSignal(EXIT_CODES.sigint),
    exitCode: 0,
  };
  // `svc-cli replay | head -1` closes stdout early: the command prints nothing more there
  // (no EPIPE stack trace) but runs to its end, so its journal, report and JUnit file are
  // whole and its exit code is the run's (a failing replay is still 1 under `set -o pipefail`).
  // An output the machine refused (`> /dev/full`, a full disk) is the same but for the end:
  // one line on stderr at once (when stdout failed) and exit 5, SVC_E_DISK.
  let fault: SvcError | undefined;
  const onOutputError =
    (stream: 'stdout' | 'stderr') =>
    (error: NodeJS.ErrnoException): void => {
      if (!isOutputFault(error) || fault !== undefined) return;
      fault = outputFault(stream, error);
      if (stream === 'stdout') printErrorLine(ctx, fault, { json: wantsJson(argv) });
    };
  process.stdout.on('error', onOutputError('stdout'));
  process.stderr.on('error', onOutputError('stderr'));
  const code = await runCli(argv, ctx);
  const finalCode = signalled === undefined ? code : (ctx.verdictAfterSignal ?? signalled);
  // after the 'error' events of the last writes (emitted on later ticks)
  const leave = (): void => {
    setImmediate(() => exit(fault === undefined ? finalCode : EXIT_CODES.system));
  };
  // Let stdout drain before exiting (pipes are async); a closed one has nothing to drain.
  if (process.stdout.destroyed) leave();
  else process.stdout.write('', leave);
}

/** How often a command started by `npx` looks whether npx is still there (ms). */
const LAUNCHER_POLL_MS = 500;

/**
 * `npx svc-cli listen &` then `kill %1` in a script: the signal goes to npm, which exits (143)
 * without passing it on (npm 11), and the command kept serving with no parent, holding its
 * port for the next block. Under `npm exec` (npx), a launcher that is gone is taken as the
 * SIGTERM it most likely got: the command stops as it does on one, record flushed. Nothing is
 * watched otherwise (a shell or a supervisor that exits leaves a daemon it meant to leave).
 */
export function watchLauncher(
  env: NodeJS.ProcessEnv,
  onGone: () => void,
  ppid: () => number = () => process.ppid,
  pollMs = LAUNCHER_POLL_MS,
): (() => void) | undefined {
  if (env.npm_command !== 'exec') return undefined;
  const launcher = ppid();
  if (launcher <= 1) return undefined;
  const timer = setInterval(() => {
    if (ppid() === launcher) return;
    clearInterval(timer);
    onGone();
  }, pollMs);
  timer.unref(); // never what keeps a finished command alive
  return () => clearInterval(timer);
}

// `node dist/cli/main.js ...` runs it too (bin/svc-cli.js calls main itself)
if (process.argv[1] !== undefined && /[\\/]cli[\\/]main\.js$/.test(process.argv[1])) void main();
