import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

export interface CliServer {
  child: ChildProcess;
  /** the first stdout line, `{"type":"listening",...}` */
  listening: Record<string, unknown> & { url: string };
  stderr: () => string;
  /** SIGINT, then the exit code */
  stop(): Promise<number | null>;
}

/**
 * Spawns the built CLI with a serving command and waits for its `listening` line; `env` is
 * added to this process's environment.
 */
export async function startCliServer(
  args: string[],
  options: { env?: Record<string, string> } = {},
): Promise<CliServer> {
  const child = spawn(process.execPath, ['bin/svc-cli.js', ...args], {
    cwd: root,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    void exited.then((code) => fail(new Error(`svc-cli exited ${code}: ${stderr}`)));
  });
  return {
    child,
    listening: JSON.parse(first) as CliServer['listening'],
    stderr: () => stderr,
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

/** The demo page of `svc-cli widget` on a free port, pointed at the simulator at `platformUrl`. */
export const startDemoWidget = (platformUrl: string): Promise<CliServer> =>
  startCliServer(['widget', '--port', '0', '--json', '--platform-url', platformUrl]);

/**
 * What `command` (already running) comes to, with the server of `args` started after it and
 * stopped once it is done: a peer a script starts in the background beside a `--wait` command.
 * @example const done = await startedAfter(runCli([...'--wait', '60s']), ['hook-target', ...]);
 */
export async function startedAfter<T>(command: Promise<T>, args: string[]): Promise<T> {
  const server = await startCliServer(args);
  try {
    return await command;
  } finally {
    await server.stop();
  }
}
