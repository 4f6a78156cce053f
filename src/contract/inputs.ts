/**
 * The input walker of `validate`: files, folders (recursive), globs, stdin (`-`) and
 * NDJSON streams, yielded a chunk of lines at a time so 100k lines never sit in memory.
 * An input that cannot be read becomes an `unreadable` record; the walk goes on.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { parseJsonText } from './json-text.js';
import { systemReason } from '../errors.js';
import type { UnreadableCode } from './types.js';

/**
 * A single JSON document larger than this is refused: payloads of the spec are a few KB,
 * and reading a huge file whole would cost its size in memory. NDJSON is streamed, so the
 * limit applies per line there.
 */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

export type InputRecord =
  | { type: 'payload'; source: string; line?: number; value: unknown; file?: string }
  | { type: 'unreadable'; source: string; line?: number; code: UnreadableCode; message: string };

export interface WalkInputsOptions {
  inputs: readonly string[];
  /** default process.cwd() */
  cwd?: string;
  /** read for `-` */
  stdin?: Readable;
  /** default MAX_DOCUMENT_BYTES */
  maxDocumentBytes?: number;
}

const STREAM_EXTENSIONS = ['.ndjson', '.jsonl'];
const DOCUMENT_EXTENSIONS = ['.json'];
const GLOB_CHARS = /[*?[\]{}]/;

/** True for files the folder walk picks up (sidecar expectations are not payloads). */
export function isPayloadFile(name: string): boolean {
  if (name.endsWith('.expect.json')) return false;
  return [...STREAM_EXTENSIONS, ...DOCUMENT_EXTENSIONS].some((ext) => name.endsWith(ext));
}

const isStreamFile = (name: string): boolean => STREAM_EXTENSIONS.some((ext) => name.endsWith(ext));

const unreadable = (
  source: string,
  code: UnreadableCode,
  message: string,
  line?: number,
): InputRecord =>
  line === undefined
    ? { type: 'unreadable', source, code, message }
    : { type: 'unreadable', source, line, code, message };

async function* walkFolder(folder: string, shown: string): AsyncGenerator<string> {
  const entries = await readdir(folder, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const shownChild = path.join(shown, entry.name);
    if (entry.isDirectory()) yield* walkFolder(path.join(folder, entry.name), shownChild);
    else if (entry.isFile() && isPayloadFile(entry.name)) yield shownChild;
  }
}

/** readline's line breaks: \r\n, \n, or a lone \r. */
const LINE_BREAK = /\r\n|\n|\r/;

/**
 * The lines of a text stream, in batches: every whole line of each chunk at once, so a 100k
 * line stream costs a few hundred awaits instead of one per line. Line breaks as
 * readline splits them; a leading byte-order mark is dropped. Linear in the input: only the
 * new chunk is searched for a break, and a line longer than a chunk is joined once.
 */
async function* lineBatches(chunks: AsyncIterable<string | Buffer>): AsyncGenerator<string[]> {
  const decoder = new StringDecoder('utf8'); // a character split across two chunks stays whole
  let parts: string[] = []; // the line under way, in pieces
  let first = true;
  // the last chunk ended with a \r: a \n first in the next one is the same line break
  let crAtEnd = false;
  const take = (piece: string): string[] | undefined => {
    let text = piece;
    if (first && text !== '') {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    if (crAtEnd && text !== '') {
      crAtEnd = false;
      if (text.charCodeAt(0) === 10) text = text.slice(1);
    }
    const last = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
    if (last < 0) {
      if (text !== '') parts.push(text);
      return undefined;
    }
    const head =
      parts.length === 0 ? text.slice(0, last + 1) : parts.join('') + text.slice(0, last + 1);
    parts = last + 1 < text.length ? [text.slice(last + 1)] : [];
    crAtEnd = last === text.length - 1 && text.charCodeAt(last) === 13;
    const lines = head.split(LINE_BREAK);
    lines.pop(); // what follows the last break: the empty string
    return lines;
  };
  for await (const chunk of chunks) {
    const lines = take(typeof chunk === 'string' ? chunk : decoder.write(chunk));
    if (lines && lines.length > 0) yield lines;
  }
  const lines = take(decoder.end()) ?? [];
  if (parts.length > 0) lines.push(parts.join(''));
  if (lines.length > 0) yield lines;
}

/**
 * Whether a stream looks binary: a NUL byte in its first 8 KiB, and a first line that is not
 * JSON (one corrupt record in a good file stays one not-JSON line).
 */
function startsBinary(lines: readonly string[]): boolean {
  const head = lines.find((l) => l.trim() !== '');
  if (head !== undefined && parseJsonText(head).ok) return false;
  let seen = 0;
  for (const line of lines) {
    if (line.slice(0, 8192 - seen).includes('\u0000')) return true;
    seen += line.length + 1;
    if (seen >= 8192) return false;
  }
  return false;
}

/** NDJSON: one payload per non-empty line, a batch of records per batch of lines. */
async function* readLines(
  batches: AsyncIterable<string[]>,
  source: string,
  maxBytes: number,
  file?: string,
): AsyncGenerator<InputRecord[]> {
  let lineNumber = 0;
  let first = true;
  for await (const lines of batches) {
    // as for a document: binary bytes are one clear error, not a not-JSON line per NUL-split
    // piece with control bytes echoed to the terminal
    if (first && startsBinary(lines)) {
      yield [unreadable(source, 'binary', 'binary input (contains NUL bytes), not NDJSON')];
      return;
    }
    first = false;
    const records: InputRecord[] = [];
    for (const text of lines) {
      lineNumber++;
      if (text.trim() === '') continue;
      if (text.length > maxBytes) {
        records.push(
          unreadable(source, 'too_large', `line is larger than ${maxBytes} bytes`, lineNumber),
        );
        continue;
      }
      const parsed = parseJsonText(text);
      if (parsed.ok) {
        records.push(
          file === undefined
            ? { type: 'payload', source, line: lineNumber, value: parsed.value }
            : { type: 'payload', source, line: lineNumber, value: parsed.value, file },
        );
      } else {
        records.push(
          unreadable(
            source,
            'not_json',
            `not JSON at column ${parsed.column}: ${parsed.message}`,
            lineNumber,
          ),
        );
      }
    }
    if (records.length > 0) yield records;
  }
}

/**
 * A whole file as one JSON document, refused when empty, binary or too large. Read
 * synchronously: a document is at most a few MB, and a one-file `validate` (a git hook) does
 * not wait for the thread pool to start.
 */
function readDocument(file: string, source: string, maxBytes: number): InputRecord {
  const info = statSync(file);
  if (info.size > maxBytes) {
    return unreadable(
      source,
      'too_large',
      `file is ${(info.size / 1024 / 1024).toFixed(1)} MB, over the ${maxBytes / 1024 / 1024} MB limit for one JSON document (use .ndjson to stream many payloads)`,
    );
  }
  const bytes = readFileSync(file);
  if (bytes.subarray(0, 8192).includes(0)) {
    return unreadable(source, 'binary', 'binary file (contains NUL bytes), not JSON');
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return unreadable(source, 'empty', 'empty file, no JSON payload');
  const parsed = parseJsonText(text);
  if (!parsed.ok) {
    return unreadable(
      source,
      'not_json',
      `not JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`,
    );
  }
  return { type: 'payload', source, value: parsed.value, file };
}

/** One file; a read failure becomes an unreadable record so the walk goes on. */
async function* readFile(
  file: string,
  source: string,
  maxBytes: number,
): AsyncGenerator<InputRecord[]> {
  try {
    if (isStreamFile(file)) {
      const stream = createReadStream(file, { encoding: 'utf8' });
      try {
        yield* readLines(lineBatches(stream as AsyncIterable<string>), source, maxBytes, file);
      } finally {
        stream.destroy();
      }
      return;
    }
    yield [readDocument(file, source, maxBytes)];
  } catch (error) {
    const { code, message } = describeFsError(error);
    yield [unreadable(source, code, message)];
  }
}

/**
 * stdin: NDJSON when its first non-empty line is a JSON value on its own, else one
 * (pretty-printed) document.
 */
async function* readStdin(stdin: Readable, maxBytes: number): AsyncGenerator<InputRecord[]> {
  const iterator = lineBatches(stdin as AsyncIterable<string | Buffer>)[Symbol.asyncIterator]();
  const buffered: string[] = [];
  let batch: IteratorResult<string[]>;
  while (!(batch = await iterator.next()).done) {
    buffered.push(...batch.value);
    if (batch.value.some((l) => l.trim() !== '')) break;
  }
  if (startsBinary(buffered)) {
    yield [unreadable('<stdin>', 'binary', 'binary input on stdin (contains NUL bytes), not JSON')];
    return;
  }
  const firstLine = buffered.find((l) => l.trim() !== '');
  if (firstLine === undefined) {
    yield [unreadable('<stdin>', 'empty', 'empty input on stdin, no JSON payload')];
    return;
  }
  const rest: AsyncIterable<string[]> = { [Symbol.asyncIterator]: () => iterator };
  if (parseJsonText(firstLine).ok) {
    async function* all(): AsyncGenerator<string[]> {
      yield buffered;
      yield* rest;
    }
    yield* readLines(all(), '<stdin>', maxBytes);
    return;
  }
  let size = buffered.reduce((n, l) => n + l.length + 1, 0);
  if (size > maxBytes) {
    yield [unreadable('<stdin>', 'too_large', `stdin document is larger than ${maxBytes} bytes`)];
    return;
  }
  for await (const lines of rest) {
    for (const line of lines) size += line.length + 1;
    if (size > maxBytes) {
      yield [unreadable('<stdin>', 'too_large', `stdin document is larger than ${maxBytes} bytes`)];
      return;
    }
    buffered.push(...lines);
  }
  const parsed = parseJsonText(buffered.join('\n'));
  yield [
    parsed.ok
      ? { type: 'payload', source: '<stdin>', value: parsed.value }
      : unreadable(
          '<stdin>',
          'not_json',
          `not JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}`,
        ),
  ];
}

function describeFsError(error: unknown): { code: UnreadableCode; message: string } {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = systemReason(error);
  if (code === 'ENOENT') return { code: 'not_found', message };
  if (code === 'EACCES' || code === 'EPERM') return { code: 'no_access', message };
  if (code === 'EISDIR') return { code: 'is_folder', message };
  return { code: 'read_failed', message };
}

/**
 * Every payload of the inputs, in order, in batches (the lines of a chunk of NDJSON at once).
 * @example for await (const batch of walkInputs({ inputs: ['fixtures/payloads'] })) for (const record of batch) { ... }
 */
export async function* walkInputs(options: WalkInputsOptions): AsyncGenerator<InputRecord[]> {
  const cwd = options.cwd ?? process.cwd();
  const maxBytes = options.maxDocumentBytes ?? MAX_DOCUMENT_BYTES;
  for (const input of options.inputs) {
    if (input === '-') {
      if (!options.stdin) yield [unreadable('<stdin>', 'no_stdin', 'no standard input to read')];
      else {
        try {
          yield* readStdin(options.stdin, maxBytes);
        } catch (error) {
          // stdin read twice (`- -`), or a pipe that broke: a record, and the walk goes on
          yield [unreadable('<stdin>', 'read_failed', systemReason(error))];
        }
      }
      continue;
    }
    const absolute = path.resolve(cwd, input);
    let info: ReturnType<typeof statSync> | undefined;
    try {
      info = statSync(absolute);
    } catch (error) {
      if (!GLOB_CHARS.test(input)) {
        const { code, message } = describeFsError(error);
        yield [unreadable(input, code, message)];
        continue;
      }
    }
    try {
      if (info === undefined) {
        // Not an existing path but a pattern: a small, maintained matcher (Node 20 has no fs.glob).
        const { glob } = await import('tinyglobby');
        const found = await glob(input, { cwd, onlyFiles: true, expandDirectories: false });
        // as a folder walk does: a sample's sidecar (x.expect.json) is not a payload
        const matches = found.filter((f) => !f.endsWith('.expect.json')).sort();
        if (matches.length === 0)
          yield [
            unreadable(
              input,
              'no_match',
              found.length === 0
                ? 'the glob matches no file'
                : 'the glob matches only sidecar expectations (.expect.json), no payload',
            ),
          ];
        for (const match of matches) yield* readFile(path.resolve(cwd, match), match, maxBytes);
      } else if (info.isDirectory()) {
        let count = 0;
        for await (const file of walkFolder(absolute, input)) {
          count++;
          yield* readFile(path.resolve(cwd, file), file, maxBytes);
        }
        if (count === 0)
          yield [
            unreadable(input, 'no_match', 'the folder holds no .json, .ndjson or .jsonl file'),
          ];
      } else {
        yield* readFile(absolute, input, maxBytes);
      }
    } catch (error) {
      const { code, message } = describeFsError(error);
      yield [unreadable(input, code, message)];
    }
  }
}
