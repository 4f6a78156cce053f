/**
 * A journal's NDJSON file: opened for appending (and reading back when it is a regular file),
 * repaired when an earlier run was killed while it wrote, and read back from its tail.
 */
import { closeSync, fstatSync, ftruncateSync, openSync, readSync, statSync } from 'node:fs';
import type { ExchangeRecord } from './record.js';

/**
 * Opens an NDJSON journal file for appending, and for reading back when it is a regular file
 * ('a+'). A pipe, a FIFO, a terminal or a write-only file is opened for appending only ('a'),
 * and the journal keeps its recent records in memory: read-write would make this process a
 * reader of its own pipe, and a write would block instead of failing once the reader goes.
 */
export function openNdjson(
  file: string,
  onRepair?: (bytes: number) => void,
): { fd: number; readable: boolean; size: number } {
  const appendOnly = { fd: -1, readable: false, size: 0 };
  let existing: ReturnType<typeof statSync> | undefined;
  try {
    existing = statSync(file);
  } catch {
    existing = undefined; // created below, a regular file
  }
  if (existing && !existing.isFile()) return { ...appendOnly, fd: openSync(file, 'a') };
  let fd: number;
  try {
    fd = openSync(file, 'a+');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EACCES') throw error;
    return { ...appendOnly, fd: openSync(file, 'a') };
  }
  const stat = fstatSync(fd);
  if (stat.isFile()) {
    // a file written in the last second may be another process's write in progress (both
    // append: the kernel keeps whole writes apart), not a killed run's cut line
    const size =
      Date.now() - stat.mtimeMs < WRITER_QUIET_MS ? stat.size : wholeLinesEnd(fd, stat.size);
    if (size < stat.size) {
      ftruncateSync(fd, size);
      onRepair?.(stat.size - size);
    }
    return { fd, readable: true, size };
  }
  closeSync(fd); // replaced by something else between the stat and the open
  return { ...appendOnly, fd: openSync(file, 'a') };
}

/** How long a record file must have been left alone before a cut last line is dropped. */
const WRITER_QUIET_MS = 1000;

/**
 * Where the file's last whole line ends. A process killed (SIGKILL) while it wrote a batch
 * can leave the last line cut: Linux stops a write to a regular file between pages when the
 * writer is killed. Appending after such a line would glue the next record onto it, so the
 * cut part is dropped first (it was never a record).
 */
function wholeLinesEnd(fd: number, size: number): number {
  const piece = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0;) {
    const start = Math.max(0, end - piece.length);
    const read = readSync(fd, piece, 0, end - start, start);
    const newline = piece.subarray(0, read).lastIndexOf(0x0a);
    if (end === size && newline === read - 1) return size;
    if (newline >= 0) return start + newline + 1;
    end = start;
  }
  return 0;
}

/** Which records `readTail` gives back. */
export interface TailQuery {
  /** the byte where this journal's part of the file starts */
  from: number;
  /** at most this many, the newest */
  keep: number;
  /** only those after this seq */
  since: number;
  /** the journal's highest seq in the file */
  newest: number;
  /** the journal's run id */
  run: string;
}

/** `readTail` on a closed journal's file (opened for the read); nothing if it is gone. */
export function readTailOf(file: string, query: TailQuery): ExchangeRecord[] {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    return readTail(fd, query);
  } catch {
    return [];
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * The last `keep` records after seq `since` of an NDJSON journal file, from byte `from` on,
 * read backwards in 64 KiB pieces and parsed
 * line by line from the end: a poll for what is new reads only that, and no more than one
 * line is held as bytes at a time. Only this journal's records count: exchanges with its
 * `run` id and descending seqs from `newest`; other lines (another writer's output or
 * records) are skipped, and a seq that is missing (a torn write) skips only itself.
 */
export function readTail(fd: number, query: TailQuery): ExchangeRecord[] {
  const { from, keep, since, newest, run } = query;
  const records: ExchangeRecord[] = [];
  if (keep <= 0 || newest <= since) return records;
  /** the highest seq still wanted, going back */
  let wanted = newest;
  /** true: stop reading */
  const take = (line: Buffer): boolean => {
    if (line.length === 0) return false;
    let record: ExchangeRecord;
    try {
      record = JSON.parse(line.toString('utf8')) as ExchangeRecord;
    } catch {
      return false; // not a whole record
    }
    if (record === null || record.type !== 'exchange' || record.run !== run) return false;
    if (typeof record.seq !== 'number' || record.seq > wanted) return false;
    if (record.seq <= since) return true;
    records.push(record);
    wanted = record.seq - 1;
    return wanted <= since || records.length >= keep;
  };
  let end = fstatSync(fd).size;
  /** the bytes after the last newline seen so far: the start of a line in an earlier piece */
  let carry: Buffer[] = [];
  let stopped = false;
  while (end > from && !stopped) {
    const start = Math.max(from, end - 65_536);
    const piece = Buffer.allocUnsafe(end - start);
    const read = readSync(fd, piece, 0, piece.length, start);
    let lineEnd = read;
    for (let i = read - 1; i >= 0 && !stopped; i--) {
      if (piece[i] !== 0x0a) continue;
      const tail = piece.subarray(i + 1, lineEnd);
      const line = carry.length > 0 ? Buffer.concat([tail, ...carry]) : tail;
      carry = [];
      stopped = take(line);
      lineEnd = i;
    }
    if (!stopped) carry.unshift(piece.subarray(0, lineEnd));
    end = start;
  }
  if (!stopped && carry.length > 0) take(Buffer.concat(carry)); // the first line, at `from`
  return records.reverse();
}
