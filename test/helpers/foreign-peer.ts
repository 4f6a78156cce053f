/**
 * Starts a foreign peer (test/peers/: Python Flask or standard library, PHP under `php -S`, plain Node) as its own
 * process on a free port, waits for its ready line, and stops it. These peers are written
 * the way third parties write them, not with svc-cli's code, so a loop tested against them
 * cannot agree with svc-cli by construction.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port.js';

const PEERS = resolve(import.meta.dirname, '../peers');

function runs(command: string, args: string[]): boolean {
  const out = spawnSync(command, args, { stdio: 'ignore', timeout: 20_000 });
  return out.status === 0;
}

/** python3 with Flask (Debian: python3-flask) is here. */
export const hasFlask = runs('python3', ['-c', 'import flask, sqlite3']);
/** python3 with its standard library's sqlite3 is here (Debian: python3). */
export const hasPython = runs('python3', ['-c', 'import sqlite3, http.server']);
/** php-cli is here (`php -S`). */
export const hasPhp = runs('php', ['-r', 'exit(0);']);
/** One line for a skipped suite: what is missing and how to get it. */
export const NO_FLASK = 'python3 with Flask is not installed (apt-get install python3-flask)';
export const NO_PYTHON = 'python3 is not installed (apt-get install python3)';
export const NO_PHP = 'php-cli is not installed (apt-get install php-cli)';

export type ForeignPeerKind =
  'flask-hooks' | 'flask-bot' | 'php-hooks' | 'node-slow-hooks' | 'python-integrator';

export interface ForeignPeerOptions {
  kind: ForeignPeerKind;
  /** PEER_MODE (see each peer's header) */
  mode?: string;
  /** where the peer keeps its state (a directory); default a new temporary one */
  stateDir?: string;
  /** the port; default a free one (php -S cannot take port 0) */
  port?: number;
  /** flask-bot: the platform it posts its answers to */
  platformUrl?: string;
  env?: Record<string, string>;
}

export interface ForeignPeer {
  /** where the platform reaches it: .../hooks for receivers, .../agent-messages for the integrator, the base URL for the bot */
  url: string;
  port: number;
  stateDir: string;
  /** everything it printed */
  output(): string;
  /** stops it (SIGTERM, then SIGKILL) and waits for the exit */
  stop(): Promise<void>;
}

const READY = /ready on http|Development Server \(http:\/\/[^)]+\) started/;

function commandOf(
  options: ForeignPeerOptions,
  port: number,
  stateDir: string,
): { command: string; args: string[] } {
  switch (options.kind) {
    case 'flask-hooks':
      return {
        command: 'python3',
        args: [
          join(PEERS, 'flask_hooks.py'),
          '--port',
          String(port),
          '--db',
          join(stateDir, 'hooks.sqlite'),
        ],
      };
    case 'flask-bot':
      return {
        command: 'python3',
        args: [
          join(PEERS, 'flask_bot.py'),
          '--port',
          String(port),
          '--db',
          join(stateDir, 'bot.sqlite'),
          '--platform-url',
          options.platformUrl ?? 'http://127.0.0.1:9',
        ],
      };
    case 'python-integrator':
      return {
        command: 'python3',
        args: [
          join(PEERS, 'integrator.py'),
          '--port',
          String(port),
          '--db',
          join(stateDir, 'integrator.sqlite'),
        ],
      };
    case 'php-hooks':
      return { command: 'php', args: ['-S', `127.0.0.1:${port}`, join(PEERS, 'receiver.php')] };
    case 'node-slow-hooks':
      return {
        command: process.execPath,
        args: [join(PEERS, 'slow-hooks.mjs'), '--port', String(port)],
      };
    default:
      throw new Error(`unknown peer ${String(options.kind)}`);
  }
}

/**
 * Starts a peer and resolves once it printed its ready line (it is listening then).
 * @example const peer = await startForeignPeer({ kind: 'flask-hooks' }); ... await peer.stop();
 */
export async function startForeignPeer(options: ForeignPeerOptions): Promise<ForeignPeer> {
  const port = options.port ?? (await freePort());
  let stateDir = options.stateDir;
  if (stateDir === undefined) {
    stateDir = mkdtempSync(join(tmpdir(), `svc-peer-${options.kind}-`));
    made.add(stateDir);
  }
  const { command, args } = commandOf(options, port, stateDir);
  const child: ChildProcess = spawn(command, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PYTHONUNBUFFERED: '1',
      PEER_STATE: options.kind === 'node-slow-hooks' ? join(stateDir, 'hooks.json') : stateDir,
      ...(options.mode ? { PEER_MODE: options.mode } : {}),
      ...options.env,
    },
  });
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((ready, fail) => {
    const hear = (chunk: Buffer): void => {
      output += chunk.toString();
      if (READY.test(output)) ready();
    };
    child.stdout?.on('data', hear);
    child.stderr?.on('data', hear);
    child.once('exit', (code) =>
      fail(new Error(`${options.kind} exited (${String(code)}) before it was ready:\n${output}`)),
    );
  });
  const path =
    options.kind === 'flask-bot'
      ? ''
      : options.kind === 'python-integrator'
        ? '/agent-messages'
        : '/hooks';
  return {
    url: `http://127.0.0.1:${port}${path}`,
    port,
    stateDir,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(killer);
      }
    },
  };
}

/** the temporary state directories made here, removed by `removeForeignState` */
const made = new Set<string>();

/** Removes the temporary state directories the peers were given (call in afterAll). */
export function removeForeignState(): void {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
}
