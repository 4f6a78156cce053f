import type { Writable, Readable } from 'node:stream';

/**
 * What a command gets besides its own flags: the process's streams and environment,
 * injected so e2e-free tests can run a command in-process.
 */
export interface CliContext {
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  stdin: Readable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Aborted on SIGINT / SIGTERM; serving commands close when it fires. */
  signal: AbortSignal;
  /**
   * What a Ctrl-C does when the terminal cannot send it as a signal (readline's raw mode, the
   * agent console's prompt line): the same as SIGINT. Absent in tests run in process.
   */
  interrupt?: () => void;
  /** The arguments after the binary, as run (an HTML report names its command line). */
  argv?: readonly string[];
  /** The exit code the process ends with (main.ts is the only place that exits). */
  exitCode: number;
  /**
   * a verdict that wins over the signal's 130/143: `proxy --fail-on-violation` is stopped by a
   * signal and still exits 1 when it saw a violation
   */
  verdictAfterSignal?: number;
}
