import {
  closeSync,
  existsSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { errorText } from '../errors.js';
import { createFlushScheduler } from '../io/flush-scheduler.js';
import { joinInChunks } from '../io/join-in-chunks.js';
import { toHar } from './har.js';
import { createRecentLines } from './recent-ring.js';
import {
  failureOf,
  syncFile,
  writeWhole,
  type RecordingFailure,
  type RecordingStatus,
  type RecordSync,
} from './recording.js';

import type { ExchangeInput, ExchangeRecord } from './record.js';

export type { ExchangeInput, ExchangeRecord } from './record.js';
export type { RecordingFailure, RecordingStatus, RecordSync } from './recording.js';

export interface JournalOptions {
  /** append NDJSON here (or HAR 1.2 when the name ends in .har) */
  file?: string;
  /**
   * how many recent records `entries()` gives, for the control API and reports (default
   * 1,000, the control API's page size). Without a file they are kept in memory; with an
   * NDJSON file (`--record`) they are read back from its tail, which holds every record.
   */
  keep?: number;
  /** applied to every string before it is stored (secret redaction) */
  redact?: Redactor;
  /**
   * keep Authorization / Cookie headers and token fields (access_token, client_secret) as
   * sent; by default they are stored as `***` (`--show-secrets`)
   */
  showSecrets?: boolean;
  /**
   * rotate the NDJSON file once it holds this many bytes: it is renamed `<file>.1`
   * (an older `.1` becomes `.2`, and so on; none is deleted) and a new file is started, at a
   * batch boundary, so every record is whole in exactly one file. Absent: never rotate.
   */
  maxBytes?: number;
  /**
   * when a record reaches the file (`--record-sync`): `batched` (default) on the next
   * event-loop turn; `write` and `fsync` on every `flush()`, which the owner calls before it
   * sends the answers of a turn (`fsync` also syncs the file to the device then)
   */
  sync?: RecordSync;
  /**
   * called once when a write to the file fails (a full disk, a quota, an I/O error, a
   * read-only file system): the journal has cut the file back to its last whole line and
   * stopped writing it; records are still counted and the recent ones kept in memory
   */
  onStop?: (status: RecordingStatus) => void;
  /**
   * called once at open when the file ended in a cut line (an earlier run was killed while
   * it wrote) and that part, `bytes` long, was dropped so that new records start on a line
   */
  onRepair?: (bytes: number) => void;
}

export interface Journal {
  /**
   * Stores an exchange; returns its seq. Redaction, the in-memory copy and the NDJSON line
   * are made when the journal settles (with the next write, or on `entries()` / `flush()`).
   */
  record(input: ExchangeInput): number;
  /** Recent records, oldest first (at most `keep`); with `since`, only those after that seq. */
  entries(since?: number): readonly ExchangeRecord[];
  /** How many records were stored in all. */
  readonly count: number;
  /** The state of the file: recording, stopped by a failed write (and why), or off. */
  readonly recording: RecordingStatus;
  /** Writes what is buffered. Synchronous, so it is safe in exit handlers. */
  flush(): void;
  close(): void;
}

/** This process's random part of every run id; a counter tells its journals apart. */
let runPrefix: string | undefined;
let runCount = 0;

/** A run id unique across processes (random) and within one (counted): 12+ hex digits. */
function nextRunId(): string {
  runPrefix ??= randomBytes(4).toString('hex');
  runCount++;
  return `${runPrefix}${runCount.toString(16).padStart(4, '0')}`;
}

/**
 * The exchange recorder. NDJSON lines are written whole with writeSync on the next
 * event-loop turn (at most every 10 ms under load: a syscall per 48 Ki characters of a batch,
 * not per request; join-in-chunks.ts) and on exit, so Ctrl-C or a crash loses nothing that
 * was answered. A SIGKILL in the middle of a write can cut the last line (the kernel stops a
 * write between pages when the writer is killed); readers skip it, and the next run that
 * appends to the file drops it first. `record()` only stamps and queues the
 * exchange: redacting, storing and serialising it happen in that batch, after the turn's
 * responses went out (a simulator under load answers first and writes its journal while the
 * clients read their answers).
 * @example const journal = createJournal({ file: 'session.ndjson' });
 */
export function createJournal(options: JournalOptions = {}): Journal {
  const keep = Math.max(0, Math.floor(options.keep ?? 1_000)) || 0;
  const run = nextRunId();
  const redact = options.showSecrets ? options.redact : withKnownSecrets(options.redact);
  const isHar = options.file?.toLowerCase().endsWith('.har') ?? false;
  const allForHar: ExchangeRecord[] = [];
  const opened = options.file && !isHar ? openNdjson(options.file, options.onRepair) : undefined;
  let fd = opened?.fd;
  /** the file is the store of `entries()` (a regular file we can read back) */
  const fileIsStore = opened?.readable ?? false;
  /** where this journal's lines start in the file (it may hold earlier sessions) */
  let fileStart = opened?.size ?? 0;
  /** bytes in the file now, for rotation */
  let fileSize = opened?.size ?? 0;
  /** how many times this journal rotated its file */
  let rotations = 0;
  const maxBytes =
    options.maxBytes !== undefined && options.maxBytes > 0 && fileIsStoreOf(opened)
      ? options.maxBytes
      : undefined;
  /**
   * The recent records in memory — only without an NDJSON file. With one, the file is the
   * store and `entries()` reads its tail back: records kept in memory for a second under load
   * outlive the young generation (promoted at ~30 MB/s at 19k req/s, the scavenger's and the
   * marker's work), and with 1 MiB bodies 1,000 of them would be a gigabyte. Without a file,
   * they are kept as text in a ring of bytes off the JS heap (recent-ring.ts), for the same
   * reason.
   */
  const recent = keep > 0 ? createRecentLines(keep) : undefined;
  let pending: string[] = [];
  /** recorded, not yet redacted, kept or serialised */
  let unsettled: ExchangeRecord[] = [];
  let count = 0;
  let harDirty = false;
  let closed = false;
  /** the count at close: the file holds the records up to it */
  let closedAt = 0;
  const sync: RecordSync = options.sync ?? 'batched';
  /** records whole in the file (NDJSON: one line each, in seq order; HAR: the last rewrite) */
  let written = 0;
  /** why the file is no longer written */
  let failure: RecordingFailure | undefined;
  /** closed, or stopped by a failed write: new records are kept in memory, not in the file */
  const detached = (): boolean => closed || failure !== undefined;

  // HAR is rewritten whole on each flush, so it is batched more coarsely than NDJSON.
  const scheduler = createFlushScheduler(() => flush(), { minIntervalMs: isHar ? 250 : 10 });
  /** Redacts, keeps and serialises what was recorded since the last time. */
  const settle = (): void => {
    if (unsettled.length === 0) return;
    const batch = unsettled;
    unsettled = [];
    // kept in memory (no file store, or after close): as JSON text
    const keepsText = keep > 0 && !(fileIsStore && !detached());
    for (const record of batch) {
      let stored: ExchangeRecord;
      let text: string | undefined;
      try {
        stored = redact ? redactRecord(record, redact) : record;
        // HAR serialises later, whole: a record it could not serialise is caught here
        if (fd !== undefined || isHar || keepsText) text = JSON.stringify(stored);
      } catch (error) {
        // a record that cannot be redacted or serialised (a caller passed a non-string):
        // recorded as that failure, and the rest of the batch is kept
        stored = unrecordable(record, run, error);
        text = JSON.stringify(stored);
      }
      if (text !== undefined && fd !== undefined) pending.push(`${text}\n`);
      if (fileIsStore && !detached()) continue;
      recent?.add(stored.seq, text ?? JSON.stringify(stored));
      if (isHar && !detached()) {
        allForHar.push(stored);
        harDirty = true;
      }
    }
  };
  const flush = (): void => {
    scheduler.cancel();
    settle();
    if (fd !== undefined && pending.length > 0) {
      const lines = pending;
      pending = [];
      const target = fd;
      try {
        joinInChunks(lines, (text, lineCount) => {
          fileSize += writeWhole(target, text);
          written += lineCount;
        });
        if (sync === 'fsync') syncFile(target);
        if (maxBytes !== undefined && options.file && fileSize >= maxBytes) rotate(options.file);
      } catch (error) {
        stop(error);
      }
    }
    if (isHar && harDirty && options.file && !failure) {
      harDirty = false;
      // rewritten whole under another name, then renamed: the file is always a whole HAR
      const tmp = `${options.file}.tmp`;
      try {
        writeFileSync(tmp, JSON.stringify(toHar(allForHar), null, 2));
        renameSync(tmp, options.file);
        written = allForHar.length;
      } catch (error) {
        rmSync(tmp, { force: true });
        stop(error);
      }
    }
  };
  /**
   * A write failed: the file is cut back to its last whole line (a line written in part is
   * not a record), closed, and no longer written. Serving goes on; the owner hears it once.
   */
  const stop = (error: unknown): void => {
    failure = failureOf(error);
    pending = [];
    if (fd !== undefined) {
      // best effort: a file system that fails every call (EIO) may refuse these too
      try {
        if (fileIsStore) ftruncateSync(fd, fileSize);
      } catch {
        // the torn line stays; readers skip a line that does not parse
      }
      try {
        closeSync(fd);
      } catch {
        // already unusable
      }
      fd = undefined;
    }
    // entries() reads the file up to here, then what is kept in memory
    closedAt = written;
    allForHar.length = 0;
    options.onStop?.(status());
  };
  const status = (): RecordingStatus => {
    const file = options.file;
    if (file === undefined) return { state: 'off', sync, written: 0, notWritten: 0 };
    if (!failure) return { state: 'recording', file, sync, written, notWritten: 0 };
    return { state: 'stopped', file, sync, written, notWritten: count - written, failure };
  };
  /** `<file>` becomes `<file>.1` (older ones move up one number) and a new file starts. */
  const rotate = (file: string): void => {
    if (fd === undefined) return;
    closeSync(fd);
    fd = undefined;
    let top = 1;
    while (existsSync(`${file}.${top}`)) top++;
    for (let n = top; n > 1; n--) renameSync(`${file}.${n - 1}`, `${file}.${n}`);
    renameSync(file, `${file}.1`);
    fd = openSync(file, 'a+');
    fileStart = 0;
    fileSize = 0;
    rotations++;
  };
  const onExit = (): void => {
    try {
      flush();
    } catch {
      // the target is gone (a pipe whose reader left): nothing more can be written, and the
      // other exit handlers (queued responses) must still run
    }
  };
  if (options.file) process.on('exit', onExit);

  return {
    record(input) {
      count++;
      unsettled.push({ type: 'exchange', seq: count, run, at: input.at ?? isoNow(), ...input });
      scheduler.request();
      return count;
    },
    entries: (since = 0) => {
      if (fileIsStore && fd !== undefined) {
        flush();
        let records = readTail(fd, { from: fileStart, keep, since, newest: count, run });
        // the rest of the recent records are in the files rotated last (.1, then .2 ...)
        for (let n = 1; n <= rotations && records.length < keep && options.file; n++) {
          const newest = (records[0]?.seq ?? count + 1) - 1;
          if (newest <= since) break;
          const query = { from: 0, keep: keep - records.length, since, newest, run };
          records = [...readTailOf(`${options.file}.${n}`, query), ...records];
        }
        return records;
      }
      settle();
      let last = recent?.read(keep, since) ?? [];
      if (fileIsStore && options.file && recent && recent.size < keep) {
        // closed: what the file holds, then what was recorded after close (in memory)
        const query = { from: fileStart, keep, since, newest: closedAt, run };
        const fromFile = readTailOf(options.file, query);
        last = [...fromFile, ...last].slice(-keep);
      }
      return last;
    },
    get count() {
      return count;
    },
    get recording() {
      return status();
    },
    flush,
    close() {
      if (closed) return;
      flush();
      closed = true;
      process.off('exit', onExit);
      closedAt = count;
      if (fd !== undefined) {
        closeSync(fd);
        fd = undefined;
      }
    },
  };
}

/**
 * Opens an NDJSON journal file for appending, and for reading back when it is a regular file
 * ('a+'). A pipe, a FIFO, a terminal or a write-only file is opened for appending only ('a'),
 * and the journal keeps its recent records in memory: read-write would make this process a
 * reader of its own pipe, and a write would block instead of failing once the reader goes.
 */
function openNdjson(
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

function fileIsStoreOf(opened: { readable: boolean } | undefined): boolean {
  return opened?.readable ?? false;
}

/** A record that could not be redacted or serialised, as the failure to record it. */
function unrecordable(record: ExchangeRecord, run: string, error: unknown): ExchangeRecord {
  const known = <T extends string>(value: unknown, fallback: T): T =>
    typeof value === 'string' ? (value as T) : fallback;
  return {
    type: 'exchange',
    seq: record.seq,
    run,
    at: known(record.at, ''),
    protocolMs: Number(record.protocolMs) || 0,
    iface: known(record.iface, 'control'),
    direction: known(record.direction, 'in'),
    request: { method: known(record.request?.method, '?'), url: '<not recordable>' },
    failure: {
      reason: 'unrecordable',
      message: `the journal could not record this exchange: ${errorText(error)}`,
    },
  };
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
function readTailOf(file: string, query: TailQuery): ExchangeRecord[] {
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

let isoMs = Number.NaN;
let isoText = '';
/** The wall time as ISO 8601, formatted once per millisecond (thousands of records a second). */
function isoNow(): string {
  const ms = Date.now();
  if (ms !== isoMs) {
    isoMs = ms;
    isoText = new Date(ms).toISOString();
  }
  return isoText;
}

/**
 * Masks secrets in one string of a record. `where` is `body` for a request or response body:
 * there a secret is masked only as a path segment of a URL (after a `/`), since the secrets a
 * journal hides by value (the channel's random string, a bot token) travel in paths (spec
 * 4.1, 4.3), while a body's own values may equal one by chance (a bot whose token is its
 * name would otherwise lose every `"id":"<name>"`).
 */
export type Redactor = (text: string, where?: 'body') => string;

/**
 * Replaces every occurrence of the given secrets by `***` (in a body, those in a URL path);
 * the identity when there are none.
 * @example createRedactor(['t0k3n'])('/bot/t0k3n') // '/bot/***'
 */
export function createRedactor(secrets: Iterable<string>): Redactor {
  const list = [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
  if (list.length === 0) return (text) => text;
  const alternatives = list.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  const anywhere = new RegExp(alternatives, 'g');
  const inPath = new RegExp(`(?<=/)(?:${alternatives})`, 'g');
  // the last string that held a secret, and its masked form, per place: the same channel or
  // bot URL comes in request after request, and a string compare beats the regex replace
  const last = { text: '', masked: '', body: { text: '', masked: '' } };
  // includes() first: most strings hold no secret, and a plain search beats the regex scan
  return (text, where) => {
    for (const secret of list) {
      if (!text.includes(secret)) continue;
      const seen = where === 'body' ? last.body : last;
      if (text !== seen.text) {
        seen.masked = text.replace(where === 'body' ? inPath : anywhere, '***');
        seen.text = text;
      }
      return seen.masked;
    }
    return text;
  };
}

const SECRET_FIELDS =
  /("(?:access_token|refresh_token|client_secret)"\s*:\s*")(?:[^"\\]|\\.)*"|((?:^|&)(?:access_token|refresh_token|client_secret)=)[^&]*/g;

/** Adds the secrets every journal hides (token fields of JSON and form bodies) to a redactor. */
function withKnownSecrets(redact: Redactor | undefined): Redactor {
  return (text, where) => {
    const masked =
      text.includes('token') || text.includes('secret')
        ? text.replace(SECRET_FIELDS, (_m, json?: string, form?: string) =>
            json === undefined ? `${form ?? ''}***` : `${json}***"`,
          )
        : text;
    return redact ? redact(masked, where) : masked;
  };
}

const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * Applies a redactor to the strings of a record that can carry secrets (URLs, headers,
 * bodies). The record is the journal's own (made by `record()`); the request, response and
 * header objects are the caller's, so they are copied, and only when something changes.
 */
function redactRecord(record: ExchangeRecord, redact: Redactor): ExchangeRecord {
  const { request, response } = record;
  const url = redact(request.url);
  const headers = request.headers && redactHeaders(request.headers, redact);
  const body = request.body === undefined ? undefined : redact(request.body, 'body');
  if (url !== request.url || headers !== request.headers || body !== request.body) {
    const copy: ExchangeRecord['request'] = { ...request, url };
    if (headers) copy.headers = headers;
    if (body !== undefined) copy.body = body;
    record.request = copy;
  }
  if (response) {
    const responseHeaders = response.headers && redactHeaders(response.headers, redact);
    const responseBody = response.body === undefined ? undefined : redact(response.body, 'body');
    if (responseHeaders !== response.headers || responseBody !== response.body) {
      const copy = { ...response };
      if (responseHeaders) copy.headers = responseHeaders;
      if (responseBody !== undefined) copy.body = responseBody;
      record.response = copy;
    }
  }
  return record;
}

/**
 * Header values through the redactor; credentials headers keep only their scheme. The same
 * object when nothing changes.
 */
function redactHeaders(
  headers: Record<string, string>,
  redact: (text: string) => string,
): Record<string, string> {
  let out: Record<string, string> | undefined;
  for (const key in headers) {
    const value = headers[key] as string;
    const masked = SECRET_HEADERS.has(key)
      ? value.replace(/^(\S+\s+)?.+$/, '$1***')
      : redact(value);
    if (masked !== value) {
      out ??= { ...headers };
      out[key] = masked;
    }
  }
  return out ?? headers;
}
