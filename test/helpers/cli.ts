import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

export const BIN = fileURLToPath(new URL('../../bin/svc-cli.js', import.meta.url));

export type Json = Record<string, unknown>;

/** A spawned svc-cli whose NDJSON stdout is read as it comes. */
export interface CliRun {
  child: ChildProcessWithoutNullStreams;
  lines: Json[];
  /** Resolves with the first NDJSON object on stdout (past or future) that matches. */
  next(match: (o: Json) => boolean): Promise<Json>;
  stderr(): string;
  exit: Promise<number | null>;
}

const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/**
 * Spawns the built CLI (npm test builds first) with colours off; killed after each test.
 * @example const p = spawnCli(['--json', 'platform', '--port', '0']); const l = await p.next((o) => o.type === 'listening');
 */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
  });
  children.push(child);
  const lines: Json[] = [];
  const waiters: Array<{ match: (o: Json) => boolean; resolve: (o: Json) => void }> = [];
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    let obj: Json;
    try {
      obj = JSON.parse(line) as Json;
    } catch {
      obj = { type: 'text', line };
    }
    lines.push(obj);
    for (const w of waiters.splice(0)) {
      if (w.match(obj)) w.resolve(obj);
      else waiters.push(w);
    }
  });
  return {
    child,
    lines,
    stderr: () => err,
    exit: once(child, 'exit').then(([code]) => code as number | null),
    next: (match) => {
      const found = lines.find(match);
      return found
        ? Promise.resolve(found)
        : new Promise((resolve) => waiters.push({ match, resolve }));
    },
  };
}
