/**
 * Reads recordings as a stream of exchange records: NDJSON a line at a time (a recording of
 * any size), a HAR or a `/_sim/journal` answer (`{"entries": [...]}`) whole.
 */
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { SvcError, systemReason } from '../errors.js';
import type { ExchangeRecord } from '../journal/record.js';
import { skipLine, type SkippedLines } from '../journal/skipped-lines.js';
import { parseHar } from '../journal/har-read.js';
import { placeForeignEntry } from '../conversation/record/har-foreign.js';

const RECORD_HINT =
  'Record with `svc-cli replay --record run.ndjson` or `svc-cli platform --record run.ndjson`.';

function asRecord(value: unknown, where: string): ExchangeRecord {
  const record = value as Partial<ExchangeRecord> | null;
  if (!record || record.type !== 'exchange' || !record.request || !record.iface)
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not read ${where}: it is not an exchange record.`,
      RECORD_HINT,
    );
  return record as ExchangeRecord;
}

async function* lines(
  stream: Readable,
  name: string,
  skipped: SkippedLines,
): AsyncGenerator<ExchangeRecord> {
  const reader = createInterface({ input: stream, crlfDelay: Infinity });
  let n = 0;
  /** a document over several lines (a pretty HAR, a journal answer): read whole */
  let whole: string[] | undefined;
  /** a line that was not JSON: an error unless it was the last (a torn write) */
  let torn: number | undefined;
  for await (const line of reader) {
    n++;
    if (whole) {
      whole.push(line);
      continue;
    }
    if (line.trim() === '') continue;
    if (torn !== undefined)
      throw new SvcError(
        'SVC_E_RECORDING',
        `Could not read ${name}: line ${torn} is not JSON.`,
        RECORD_HINT,
      );
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (n === 1) whole = [line];
      else torn = n;
      continue;
    }
    if (n === 1 && value !== null && typeof value === 'object' && !('type' in value)) {
      yield* documentRecords(value, name);
      return;
    }
    yield asRecord(value, `${name} line ${n}`);
  }
  if (whole) {
    let value: unknown;
    try {
      value = JSON.parse(whole.join('\n'));
    } catch {
      throw new SvcError(
        'SVC_E_RECORDING',
        `Could not read ${name}: it is neither NDJSON records nor a HAR or journal document.`,
        RECORD_HINT,
      );
    }
    yield* documentRecords(value, name);
  }
  // a last line cut short (a kill mid-write) is passed over, and counted
  if (torn !== undefined) skipLine(skipped, torn);
}

function* documentRecords(value: unknown, name: string): Generator<ExchangeRecord> {
  const doc = value as { log?: unknown; entries?: unknown };
  if (doc.log !== undefined) {
    yield* parseHar(JSON.stringify(value), name, placeForeignEntry);
    return;
  }
  if (Array.isArray(doc.entries)) {
    for (const [i, entry] of doc.entries.entries()) yield asRecord(entry, `${name} entry ${i + 1}`);
    return;
  }
  throw new SvcError(
    'SVC_E_RECORDING',
    `Could not read ${name}: it is neither NDJSON records nor a HAR or journal document.`,
    RECORD_HINT,
  );
}

/**
 * The exchange records of one input: a file path, or `-` for stdin. A cut last line is
 * passed over and counted in `skipped`; any other line that is not a record is an error.
 * @example for await (const record of readRecords('run.ndjson')) tally.add(record);
 */
export async function* readRecords(
  path: string,
  stdin: Readable = process.stdin,
  skipped: SkippedLines = { skipped: 0 },
): AsyncGenerator<ExchangeRecord> {
  if (path === '-') {
    yield* lines(stdin, 'stdin', skipped);
    return;
  }
  // opened first, so a missing file is an input error with the system's reason
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
  const stream = handle.createReadStream({ encoding: 'utf8' });
  try {
    yield* lines(stream, path, skipped);
  } finally {
    stream.destroy();
  }
}
