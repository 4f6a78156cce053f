/**
 * The one reader of recordings every command that takes one shares (`trace`, `report`,
 * `coverage`, `record to-fixture`, `record diff`, `record profile`): a file or `-` for stdin,
 * NDJSON a line at a time (a recording of any size), a HAR or a saved `GET /_sim/journal`
 * answer (`{"entries": [...]}`) read whole. It hands out values; what a line that is not a
 * record means (skipped and counted, or an error) is the caller's to say.
 */
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
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
}

/** A value of a recording and its line (a document's entry: its number from 1). */
export interface RecordingValue {
  /** the parsed JSON; undefined for a line that is not JSON */
  value: unknown;
  n: number;
}

/**
 * Opens an input as a stream of text: stdin for `-`; a missing file or a folder is an input
 * error with the system's reason.
 * @example const stream = await openInput('run.ndjson');
 */
export async function openInput(path: string, stdin: Readable = process.stdin): Promise<Readable> {
  if (path === STDIN) return stdin.setEncoding('utf8');
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new SvcError('SVC_E_READ', `Could not read ${path}: ${systemReason(error)}.`);
  }
  // a folder opens for reading here; its first read would fail with EISDIR
  if ((await handle.stat()).isDirectory()) {
    await handle.close();
    throw new SvcError(
      'SVC_E_READ',
      `Could not read ${path}: it is a folder, not a file.`,
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
  const name = shownInput(input.path);
  const stream = await openInput(input.path, input.stdin);
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  /** the lines of a document over several lines, with their numbers */
  let whole: Array<[string, number]> | undefined;
  let first = true;
  let n = 0;
  try {
    for await (const line of reader) {
      n++;
      if (whole) {
        whole.push([line, n]);
        continue;
      }
      if (line.trim() === '') continue;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        if (first) whole = [[line, n]];
        else yield { value: undefined, n };
        first = false;
        continue;
      }
      if (first && isDocument(value)) {
        const entries = await documentValues(line, value, name, input);
        for (const [i, entry] of entries.entries()) yield { value: entry, n: i + 1 };
        return;
      }
      first = false;
      yield { value, n };
    }
  } finally {
    reader.close();
    if (input.path !== STDIN) stream.destroy();
  }
  if (whole) yield* wholeValues(whole, name, input);
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
