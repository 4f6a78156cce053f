/**
 * The one reader of recordings every command that takes one shares (`trace`, `report`,
 * `coverage`, `record to-fixture`, `record diff`, `record profile`): a file or `-` for stdin,
 * NDJSON a line at a time (a recording of any size), a HAR or a saved `GET /_sim/journal`
 * answer (`{"entries": [...]}`) read whole. It hands out values; what a line that is not a
 * record means (skipped and counted, or an error) is the caller's to say.
 */
import { open } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Readable } from 'node:stream';
import { SvcError, systemReason } from '../errors.js';
import { parseHar, type PlaceForeignEntry } from './har-read.js';

/** The argument that names stdin. */
export const STDIN = '-';

/**
 * How an input is named in messages: `stdin` for `-`, else as given.
 * @example shownInput('-') // 'stdin'
 */
export function shownInput(path: string): string {
  return path === STDIN ? 'stdin' : path;
}

export interface RecordingInput {
  /** a file's path, or `-` for stdin */
  path: string;
  /** what `-` reads (default process.stdin) */
  stdin?: Readable;
  /**
   * Places the entries of a HAR svc-cli did not write, loaded only when the input is a HAR
   * (undefined: such entries read as `channel in`).
   */
  placeForeign?: () => PlaceForeignEntry | undefined | Promise<PlaceForeignEntry | undefined>;
  /** the folder a relative path is read from, named in a missing file's hint (default process.cwd()) */
  cwd?: string;
}

/** A value of a recording and its line (a document's entry: its number from 1). */
export interface RecordingValue {
  /** the parsed JSON; undefined for a line that is not JSON */
  value: unknown;
  n: number;
}

/**
 * What to check when a recording is not there: the path, read from `cwd` when relative, and
 * what writes a recording.
 * @example missingRecordingHint('/w') // 'Check the path (a relative path is read from /w, ...'
 */
export function missingRecordingHint(cwd: string): string {
  return `Check the path (a relative path is read from ${cwd}, the folder svc-cli runs in). --record writes a recording: svc-cli platform, replay, conform or proxy --record session.ndjson.`;
}

/**
 * A path as the user likely typed it: relative to `cwd` when inside it (commands resolve what
 * they are given before reading), else whole.
 * @example shownPath('/w/run.ndjson', '/w') // 'run.ndjson'
 */
function shownPath(path: string, cwd: string): string {
  const rel = relative(cwd, resolve(cwd, path));
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? path : rel;
}

/**
 * Opens an input as a stream of text: stdin for `-`; a missing file or a folder is an input
 * error with the system's reason.
 * @example const stream = await openInput('run.ndjson');
 */
export async function openInput(
  path: string,
  stdin: Readable = process.stdin,
  cwd: string = process.cwd(),
): Promise<Readable> {
  if (path === STDIN) return stdin.setEncoding('utf8');
  const shown = shownPath(path, cwd);
  let handle;
  try {
    handle = await open(resolve(cwd, path), 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const missing = code === 'ENOENT' || code === 'ENOTDIR';
    throw new SvcError(
      'SVC_E_READ',
      `Could not read the recording ${shown}: ${systemReason(error)}.`,
      missing ? missingRecordingHint(cwd) : undefined,
    );
  }
  // a folder opens for reading here; its first read would fail with EISDIR
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw new SvcError(
      'SVC_E_READ',
      `Could not read the recording ${shown}: it is a folder, not a file.`,
      'Name the NDJSON or HAR recordings in it (a shell glob such as dir/*.ndjson names them all).',
    );
  }
  // the handle's own stream closes the handle: a stream on its bare fd would close the fd
  // under it, and the handle's close on garbage collection then fails (EBADF) and ends the run
  return handle.createReadStream({ encoding: 'utf8' });
}

/** Whether a first value opens a document (a HAR, a journal answer), not an NDJSON record. */
function isDocument(value: unknown): value is { log?: unknown; entries?: unknown } {
  if (value === null || typeof value !== 'object' || 'type' in value) return false;
  return 'log' in value || Array.isArray((value as { entries?: unknown }).entries);
}

async function documentValues(
  text: string,
  value: { log?: unknown; entries?: unknown },
  name: string,
  input: RecordingInput,
): Promise<unknown[]> {
  if (value.log !== undefined) return parseHar(text, name, await input.placeForeign?.());
  return value.entries as unknown[];
}

/**
 * The values of one recording in order. NDJSON is read a line at a time; a first line that
 * is a whole document, or the start of one over several lines (a pretty HAR), is read whole
 * and its entries handed out. A file that is none of these hands out its lines as they are.
 * @example for await (const { value, n } of recordingValues({ path: '-' })) count(value, n);
 */
export async function* recordingValues(input: RecordingInput): AsyncGenerator<RecordingValue> {
  for await (const batch of recordingBatches(input)) yield* batch;
}

/**
 * `recordingValues` a read chunk at a time: the lines of each chunk of the stream split and
 * parsed synchronously, one array per chunk. A reader of millions of records (record diff,
 * record profile) loops over them without an await per record: 30-40% more records per CPU
 * second than one value per iteration (bench/drift.js, 200,000 exchanges).
 */
export async function* recordingBatches(input: RecordingInput): AsyncGenerator<RecordingValue[]> {
  const name = shownInput(input.path);
  const stream = await openInput(input.path, input.stdin, input.cwd);
  const lines = createLineReader();
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const batch = lines.chunk(chunk);
      if (batch.length > 0) yield batch;
      if (lines.document) break;
    }
    if (!lines.document) {
      const last = lines.end();
      if (last.length > 0) yield last;
    }
  } catch (error) {
    if (error instanceof SvcError) throw error;
    throw new SvcError('SVC_E_READ', `Could not read ${name}: ${systemReason(error)}.`);
  } finally {
    if (input.path !== STDIN) stream.destroy();
  }
  if (lines.document) {
    const { text, value } = lines.document;
    const entries = await documentValues(text, value, name, input);
    yield entries.map((entry, i) => ({ value: entry, n: i + 1 }));
  } else if (lines.whole) {
    const values: RecordingValue[] = [];
    for await (const value of wholeValues(lines.whole, name, input)) values.push(value);
    yield values;
  }
}

/** What a recording's lines turned out to be, as they are split from its chunks. */
interface LineReader {
  /** the values of the complete lines of one more chunk */
  chunk(text: string): RecordingValue[];
  /** the value of a last line with no newline after it */
  end(): RecordingValue[];
  /** a first line that is a whole document: the rest is not read */
  document: { text: string; value: { log?: unknown; entries?: unknown } } | undefined;
  /** a first line that is not JSON: every line, to be read as one document */
  whole: Array<[string, number]> | undefined;
}

function createLineReader(): LineReader {
  let first = true;
  let n = 0;
  // the start of a line that goes on in later chunks, in pieces: joined once its end comes,
  // so a line of many chunks (a damaged file's 60 MB line) is not copied again for each
  let pending: string[] = [];
  const reader: LineReader = {
    document: undefined,
    whole: undefined,
    chunk(text) {
      const batch: RecordingValue[] = [];
      let end = text.indexOf('\n');
      if (end === -1) {
        pending.push(text);
        return batch;
      }
      pending.push(text.slice(0, end));
      line(pending.length === 1 ? pending[0]! : pending.join(''), batch);
      pending = [];
      let start = end + 1;
      for (end = text.indexOf('\n', start); end !== -1; end = text.indexOf('\n', start)) {
        if (reader.document) return batch;
        line(text.slice(start, end), batch);
        start = end + 1;
      }
      if (start < text.length) pending.push(text.slice(start));
      return batch;
    },
    end() {
      const batch: RecordingValue[] = [];
      if (pending.length > 0) line(pending.join(''), batch);
      pending = [];
      return batch;
    },
  };
  const line = (raw: string, batch: RecordingValue[]): void => {
    n++;
    // a CRLF file's lines end in \r: JSON takes it as space, a document's text keeps it
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (reader.document) return;
    if (reader.whole) {
      reader.whole.push([text, n]);
      return;
    }
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      if (first) reader.whole = [[text, n]];
      else batch.push({ value: undefined, n });
      first = false;
      return;
    }
    if (first && isDocument(value)) {
      reader.document = { text, value };
      return;
    }
    first = false;
    batch.push({ value, n });
  };
  return reader;
}

async function* wholeValues(
  whole: Array<[string, number]>,
  name: string,
  input: RecordingInput,
): AsyncGenerator<RecordingValue> {
  const text = whole.map(([line]) => line).join('\n');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // a HAR cut short says so (its reader names the cut); anything else, line by line
    if (/^\s*\{\s*"log"/.test(text)) parseHar(text, name);
    for (const [line, n] of whole) {
      if (line.trim() === '') continue;
      try {
        yield { value: JSON.parse(line) as unknown, n };
      } catch {
        yield { value: undefined, n };
      }
    }
    return;
  }
  if (isDocument(value)) {
    const entries = await documentValues(text, value, name, input);
    for (const [i, entry] of entries.entries()) yield { value: entry, n: i + 1 };
    return;
  }
  // one JSON value over several lines that is no recording (a conversation fixture)
  yield { value, n: whole[0]?.[1] ?? 1 };
}
