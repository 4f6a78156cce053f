/**
 * The process's limit on open files (`ulimit -n`), read once at start: when the limit is hit,
 * opening /proc/self/limits would fail too, and the message about the limit must still name it.
 */
import { readFileSync } from 'node:fs';

/** The soft limit on open files, or undefined where /proc does not tell it (not Linux). */
export interface FileLimit {
  soft: number | undefined;
  hard: number | undefined;
}

/**
 * Kept on globalThis: the start-up bundle (which reads it) and the ES module bodies (the
 * servers, which use it) each hold a copy of this module (scripts/bundle-commands.mjs).
 */
const KEY = Symbol.for('svc-cli.fileLimit');
const store = globalThis as { [KEY]?: FileLimit };

/** Parses `Max open files  1024  1048576  files` of /proc/<pid>/limits. */
export function parseFileLimit(text: string): FileLimit {
  const match = /^Max open files\s+(\S+)\s+(\S+)/m.exec(text);
  const value = (raw: string | undefined): number | undefined =>
    raw === undefined || !/^\d+$/.test(raw) ? undefined : Number(raw);
  return { soft: value(match?.[1]), hard: value(match?.[2]) };
}

/**
 * Reads the limit now (one small synchronous read, ~20 µs) and keeps it for `fileLimit()`.
 * @example readFileLimitNow(); // at start
 */
export function readFileLimitNow(): FileLimit {
  try {
    store[KEY] = parseFileLimit(readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    store[KEY] = { soft: undefined, hard: undefined };
  }
  return store[KEY];
}

/** The limit read at start (undefined fields when it was not read or not known). */
export function fileLimit(): FileLimit {
  return store[KEY] ?? { soft: undefined, hard: undefined };
}

/** Whether a thrown error is the file limit: the process's (EMFILE) or the system's (ENFILE). */
export function isFileLimitError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'EMFILE' || code === 'ENFILE';
}

/**
 * One sentence naming the limit and how to raise it.
 * @example describeFileLimit({ soft: 60, hard: 1048576 }, 'EMFILE')
 */
export function describeFileLimit(limit: FileLimit, code: string): string {
  if (code === 'ENFILE')
    return 'the system ran out of file descriptors (ENFILE): raise fs.file-max (sysctl) or close other programs';
  const now = limit.soft === undefined ? 'the limit' : `the limit, ulimit -n, is ${limit.soft}`;
  const to =
    limit.hard !== undefined && limit.soft !== undefined && limit.hard > limit.soft
      ? Math.min(limit.hard, Math.max(4096, limit.soft * 4))
      : 4096;
  return `too many open files (EMFILE: ${now}); raise it before starting svc-cli, e.g. ulimit -n ${to}`;
}
