import {
  closeSync,
  existsSync,
  ftruncateSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { errorText } from '../errors.js';
import { createFlushScheduler } from '../io/flush-scheduler.js';
import { isSpecialFile } from '../io/write-whole.js';
import { toHar } from './har.js';
import { openNdjson, readTail, readTailOf, type TailQuery } from './journal-file.js';
import { createLineBatch, type LineBatch } from './line-batch.js';
import { createRecentLines } from './recent-ring.js';
import { createExchangeRedactor, withKnownSecrets, type Redactor } from './redact.js';
import {
  failureOf,
  syncFile,
  type RecordingFailure,
  type RecordingStatus,
  type RecordSync,
} from './recording.js';

import type { ExchangeInput, ExchangeRecord } from './record.js';

export type { ExchangeInput, ExchangeRecord } from './record.js';
export type { RecordingFailure, RecordingStatus, RecordSync } from './recording.js';
export { createRedactor, type Redactor } from './redact.js';

export interface JournalOptions {
  /** append NDJSON here (or HAR 1.2 when the name ends in .har) */
  file?: string;
  /**
   * the run id its records carry (default a new one, `newRunId()`): a caller that names runs
   * before they record (replay's report, for a conversation a signal cuts short) gives it
   */
  run?: string;
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
   * are made when the journal settles (at the end of the turn, or on `entries()` / `flush()`);
   * the exchange must not change after it is recorded.
   */
  record(input: ExchangeInput): number;
  /** Recent records, oldest first (at most `keep`); with `since`, only those after that seq. */
  entries(since?: number): readonly ExchangeRecord[];
  /** How many records were stored in all. */
  readonly count: number;
  /** The run id written in every record (`options.run`, else a new one). */
  readonly run: string;
  /** The state of the file: recording, stopped by a failed write (and why), or off. */
  readonly recording: RecordingStatus;
  /** Writes what is buffered. Synchronous, so it is safe in exit handlers. */
  flush(): void;
  close(): void;
}

/** This process's random part of every run id; a counter tells its journals apart. */
let runPrefix: string | undefined;
let runCount = 0;

/**
 * A run id unique across processes (random) and within one (counted): 12+ hex digits.
 * @example createJournal({ file, run: newRunId() })
 */
export function newRunId(): string {
  runPrefix ??= randomBytes(4).toString('hex');
  runCount++;
  return `${runPrefix}${runCount.toString(16).padStart(4, '0')}`;
}

/**
 * The exchange recorder. NDJSON lines are written whole with writeSync on the next
 * event-loop turn (at most every 10 ms under load: a syscall per 64 KiB of a batch, not per
 * request; line-batch.ts) and on exit, so Ctrl-C or a crash loses nothing that was answered.
 * A SIGKILL in the middle of a write can cut the last line (the kernel stops a write between
 * pages when the writer is killed); readers skip it, and the next run that appends to the
 * file drops it first. `record()` only stamps and queues the exchange: redacting, storing and
 * serialising it happen at the end of its turn, after the turn's responses went out (a
 * simulator under load answers first and journals while the clients read their answers).
 * @example const journal = createJournal({ file: 'session.ndjson' });
 */
export function createJournal(options: JournalOptions = {}): Journal {
  const keep = Math.max(0, Math.floor(options.keep ?? 1_000)) || 0;
  const run = options.run ?? newRunId();
  const file = createRecordFile(options, (status) => options.onStop?.(status));
  const encode = createEncoder(run, options);
  /**
   * The recent records in memory — only without an NDJSON file. With one, the file is the
   * store and `entries()` reads its tail back: records kept in memory for a second under load
   * outlive the young generation (promoted at ~30 MB/s at 19k req/s, the scavenger's and the
   * marker's work), and with 1 MiB bodies 1,000 of them would be a gigabyte. Without a file,
   * they are kept as text in a ring of bytes off the JS heap (recent-ring.ts), for the same
   * reason.
   */
  const recent = keep > 0 ? createRecentLines(keep) : undefined;
  /** recorded, not yet redacted, kept or serialised: the exchanges and their wall times */
  let inputs: ExchangeInput[] = [];
  let ats: string[] = [];
  let count = 0;
  let closed = false;
  /** closed, or stopped by a failed write: new records are kept in memory, not in the file */
  const detached = (): boolean => closed || file.failure !== undefined;

  // HAR is rewritten whole on each flush, so it is batched more coarsely than NDJSON.
  const scheduler = createFlushScheduler(() => flush(), { minIntervalMs: file.isHar ? 250 : 10 });
  /** Redacts, keeps and serialises what was recorded since the last time. */
  const settle = (): void => {
    if (inputs.length === 0) return;
    const [batch, times] = [inputs, ats];
    inputs = [];
    ats = [];
    // kept in memory (no file store, or after close): as JSON text
    const inFile = file.isStore && !detached();
    const needsText = file.fd !== undefined || file.isHar || (keep > 0 && !inFile);
    let seq = count - batch.length;
    for (let i = 0; i < batch.length; i++) {
      const { text, record } = encode(++seq, times[i] as string, batch[i] as ExchangeInput, {
        text: needsText,
        record: file.isHar && !detached(),
      });
      if (text !== undefined && file.fd !== undefined) file.lines?.add(text);
      if (inFile) continue;
      if (text !== undefined) recent?.add(seq, text);
      if (record) file.keepForHar(record);
    }
  };
  /**
   * Settled at the end of each turn, after its answers went out (they were queued first), and
   * written every 10 ms: an exchange kept until the write outlived a young-generation
   * collection or two under load (each copied it), while its line waits in the batch's buffer,
   * off the heap.
   */
  let settleQueued = false;
  const settleAfterTurn = (): void => {
    settleQueued = false;
    settle();
  };
  const flush = (): void => {
    scheduler.cancel();
    settle();
    file.write(count);
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
      inputs.push(input);
      ats.push(input.at ?? isoNow());
      if (!settleQueued) {
        settleQueued = true;
        setImmediate(settleAfterTurn);
      }
      scheduler.request();
      return count;
    },
    entries: (since = 0) => {
      if (file.isStore && file.fd !== undefined) {
        flush();
        return file.readBack(keep, since, count, run);
      }
      settle();
      let last = recent?.read(keep, since) ?? [];
      if (file.isStore && options.file && recent && recent.size < keep) {
        // closed: what the file holds, then what was recorded after close (in memory)
        const query = { from: file.start, keep, since, newest: file.closedAt, run };
        const fromFile = readTailOf(options.file, query);
        last = [...fromFile, ...last].slice(-keep);
      }
      return last;
    },
    get count() {
      return count;
    },
    run,
    get recording() {
      return file.status(count);
    },
    flush,
    close() {
      if (closed) return;
      flush();
      closed = true;
      process.off('exit', onExit);
      file.close(count);
    },
  };
}

/** What `encode` makes of one recorded exchange. */
interface Encoded {
  /** its NDJSON line (without the newline), when asked for */
  text?: string | undefined;
  /** the record as an object, when asked for (HAR) */
  record?: ExchangeRecord | undefined;
}

/**
 * Redacts and serialises exchanges of journal `run`. A record that cannot be redacted or
 * serialised (a caller passed a non-string) is recorded as that failure.
 */
function createEncoder(
  run: string,
  options: Pick<JournalOptions, 'redact' | 'showSecrets'>,
): (seq: number, at: string, input: ExchangeInput, wants: Wants) => Encoded {
  const redactor = options.showSecrets ? options.redact : withKnownSecrets(options.redact);
  const redact = redactor && createExchangeRedactor(redactor);
  return (seq, at, input, wants) => {
    try {
      toMicroseconds(input);
      const stored = redact ? redact(input) : input;
      // HAR serialises later, whole: a record it could not serialise is caught here
      return {
        text: wants.text ? recordText(seq, run, at, stored) : undefined,
        record: wants.record ? recordOf(seq, run, at, stored) : undefined,
      };
    } catch (error) {
      const failed = unrecordable(seq, run, at, input, error);
      return { text: JSON.stringify(failed), record: wants.record ? failed : undefined };
    }
  };
}

/** Rounds a time in ms to the microsecond. */
const us = (ms: number): number => Math.round(ms * 1000) / 1000;

/**
 * An exchange's times to the microsecond, in place (the journal owns what it was given). A
 * clock's difference such as 5.36707100000001 ms says nothing the microsecond does not, and its
 * digits cost more to print than the rest of the record's numbers: on the simulator's ingest
 * path the three were a fifth to a quarter of the record's serialisation (0.5-0.8 of 3.3 µs).
 */
function toMicroseconds(input: ExchangeInput): void {
  if (typeof input.protocolMs === 'number') input.protocolMs = us(input.protocolMs);
  if (typeof input.durationMs === 'number') input.durationMs = us(input.durationMs);
  if (typeof input.wallMs === 'number') input.wallMs = us(input.wallMs);
}

/** What the journal needs of a record: its text (a file or the ring), its object (HAR). */
interface Wants {
  text: boolean;
  record: boolean;
}

/**
 * The record of an exchange: its fields after the journal's own, in the order given; an `at`
 * of the exchange's own stays where the exchange has it.
 */
function recordOf(seq: number, run: string, at: string, input: ExchangeInput): ExchangeRecord {
  return { type: 'exchange', seq, run, at, ...input };
}

/** Keys a recorder may not give (the journal's own) or that JSON.stringify treats apart. */
const OWN_KEYS = ['at', 'type', 'seq', 'run', 'toJSON'] as const;

/**
 * `JSON.stringify(recordOf(seq, run, at, input))`, byte for byte, without making that object
 * (a copy of every field of every record): the journal's own fields written before the
 * exchange's text. An exchange with a key of the journal's own (its `at`) takes the long way,
 * since its key would sit elsewhere.
 */
export function recordText(seq: number, run: string, at: string, input: ExchangeInput): string {
  for (const key of OWN_KEYS)
    if (key in input) return JSON.stringify(recordOf(seq, run, at, input));
  const rest = JSON.stringify(input);
  const head = `{"type":"exchange","seq":${seq},"run":${jsonOf(run, 0)},"at":${jsonOf(at, 1)}`;
  return rest === '{}' ? `${head}}` : `${head},${rest.slice(1)}`;
}

/** The last run id and wall time given, and their JSON: the same for thousands of records. */
const lastTexts = ['', ''];
const lastJson = ['""', '""'];
const jsonOf = (text: string, slot: 0 | 1): string => {
  if (text !== lastTexts[slot]) {
    lastTexts[slot] = text;
    lastJson[slot] = JSON.stringify(text);
  }
  return lastJson[slot] as string;
};

/** A journal's file (`options.file`): NDJSON appended in batches, or HAR rewritten whole. */
interface RecordFile {
  readonly isHar: boolean;
  /** the file is the store of `entries()` (a regular NDJSON file we can read back) */
  readonly isStore: boolean;
  /** the NDJSON file's descriptor while it is written */
  readonly fd: number | undefined;
  /** why the file is no longer written */
  readonly failure: RecordingFailure | undefined;
  /** where this journal's lines start in the file (it may hold earlier sessions) */
  readonly start: number;
  /** the count at close or stop: the file holds the records up to it */
  readonly closedAt: number;
  /** the lines of the next write (NDJSON only) */
  readonly lines: LineBatch | undefined;
  keepForHar(record: ExchangeRecord): void;
  /** Writes what the batch holds (NDJSON) or the whole HAR, and rotates when due. */
  write(count: number): void;
  /** The newest `keep` records after `since`, from the file and those rotated last. */
  readBack(keep: number, since: number, count: number, run: string): ExchangeRecord[];
  status(count: number): RecordingStatus;
  close(count: number): void;
}

function createRecordFile(
  options: JournalOptions,
  onStop: (status: RecordingStatus) => void,
): RecordFile {
  const name = options.file;
  const isHar = name?.toLowerCase().endsWith('.har') ?? false;
  const allForHar: ExchangeRecord[] = [];
  let harDirty = false;
  const opened = name && !isHar ? openNdjson(name, options.onRepair) : undefined;
  let fd = opened?.fd;
  const isStore = opened?.readable ?? false;
  const lines = fd === undefined ? undefined : createLineBatch();
  let start = opened?.size ?? 0;
  /** bytes in the file now, for rotation */
  let size = opened?.size ?? 0;
  /** how many times this journal rotated its file */
  let rotations = 0;
  const maxBytes =
    options.maxBytes !== undefined && options.maxBytes > 0 && isStore
      ? options.maxBytes
      : undefined;
  const sync: RecordSync = options.sync ?? 'batched';
  /** records whole in the file (NDJSON: one line each, in seq order; HAR: the last rewrite) */
  let written = 0;
  let failure: RecordingFailure | undefined;
  let closedAt = 0;

  const status = (count: number): RecordingStatus => {
    if (name === undefined) return { state: 'off', sync, written: 0, notWritten: 0 };
    if (!failure) return { state: 'recording', file: name, sync, written, notWritten: 0 };
    return { state: 'stopped', file: name, sync, written, notWritten: count - written, failure };
  };
  /**
   * A write failed: the file is cut back to its last whole line (a line written in part is
   * not a record), closed, and no longer written. Serving goes on; the owner hears it once.
   */
  const stop = (error: unknown, count: number): void => {
    failure = failureOf(error);
    lines?.clear();
    if (fd !== undefined) {
      // best effort: a file system that fails every call (EIO) may refuse these too
      try {
        if (isStore) ftruncateSync(fd, size);
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
    onStop(status(count));
  };
  const rotate = (file: string): void => {
    if (fd === undefined) return;
    const old = fd;
    fd = undefined;
    fd = rotateFile(file, old);
    start = 0;
    size = 0;
    rotations++;
  };
  const writeLines = (target: number, batch: LineBatch): void => {
    batch.writeTo(target, (bytes, count) => {
      size += bytes;
      written += count;
    });
    if (sync === 'fsync') syncFile(target);
    if (maxBytes !== undefined && name && size >= maxBytes) rotate(name);
  };
  return {
    isHar,
    isStore,
    get fd() {
      return fd;
    },
    get failure() {
      return failure;
    },
    get start() {
      return start;
    },
    get closedAt() {
      return closedAt;
    },
    lines,
    keepForHar(record) {
      allForHar.push(record);
      harDirty = true;
    },
    write(count) {
      if (fd !== undefined && lines && lines.lines > 0) {
        try {
          writeLines(fd, lines);
        } catch (error) {
          stop(error, count);
        }
      }
      if (isHar && harDirty && name && !failure) {
        try {
          harDirty = false;
          writeHar(name, allForHar);
          written = allForHar.length;
        } catch (error) {
          rmSync(`${name}.tmp`, { force: true });
          stop(error, count);
        }
      }
    },
    readBack(keep, since, count, run) {
      if (fd === undefined) return [];
      const query = { from: start, keep, since, newest: count, run };
      return readWithRotated(fd, name, rotations, query);
    },
    status,
    close(count) {
      closedAt = count;
      if (fd !== undefined) {
        closeSync(fd);
        fd = undefined;
      }
    },
  };
}

/**
 * The records `query` asks for, from the file (`fd`) and, when it holds too few, from the
 * files rotated last (.1, then .2 ...).
 */
function readWithRotated(
  fd: number,
  name: string | undefined,
  rotations: number,
  query: TailQuery,
): ExchangeRecord[] {
  const { keep, since, run } = query;
  let records = readTail(fd, query);
  for (let n = 1; n <= rotations && records.length < keep && name; n++) {
    const newest = (records[0]?.seq ?? query.newest + 1) - 1;
    if (newest <= since) break;
    const older = { from: 0, keep: keep - records.length, since, newest, run };
    records = [...readTailOf(`${name}.${n}`, older), ...records];
  }
  return records;
}

/** `<file>` becomes `<file>.1` (older ones move up one number) and a new file starts. */
function rotateFile(file: string, fd: number): number {
  closeSync(fd);
  let top = 1;
  while (existsSync(`${file}.${top}`)) top++;
  for (let n = top; n > 1; n--) renameSync(`${file}.${n - 1}`, `${file}.${n}`);
  renameSync(file, `${file}.1`);
  return openSync(file, 'a+');
}

/** Rewritten whole under another name, then renamed: the file is always a whole HAR. */
function writeHar(file: string, records: ExchangeRecord[]): void {
  // a device or a pipe is written straight: a file renamed over it would replace it
  if (isSpecialFile(file)) {
    writeFileSync(file, JSON.stringify(toHar(records), null, 2));
    return;
  }
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, JSON.stringify(toHar(records), null, 2));
  renameSync(tmp, file);
}

/** A record that could not be redacted or serialised, as the failure to record it. */
function unrecordable(
  seq: number,
  run: string,
  at: string,
  input: ExchangeInput,
  error: unknown,
): ExchangeRecord {
  const known = <T extends string>(value: unknown, fallback: T): T =>
    typeof value === 'string' ? (value as T) : fallback;
  const given = input as Partial<ExchangeInput> | undefined;
  return {
    type: 'exchange',
    seq,
    run,
    at: known(typeof given === 'object' && given !== null && 'at' in given ? given.at : at, ''),
    protocolMs: Number(given?.protocolMs) || 0,
    iface: known(given?.iface, 'control'),
    direction: known(given?.direction, 'in'),
    request: { method: known(given?.request?.method, '?'), url: '<not recordable>' },
    failure: {
      reason: 'unrecordable',
      message: `the journal could not record this exchange: ${errorText(error)}`,
    },
  };
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
