import { closeSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { SvcError } from '../../errors.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import { recordingValues, shownInput, STDIN } from '../../journal/read-input.js';
import { placeForeignEntry } from './har-foreign.js';
import { skipLine, type SkippedLines } from '../../journal/skipped-lines.js';

/**
 * Reads a recording written by `--record` through the one reader of recordings
 * (`src/journal/read-input.ts`): ExchangeRecord NDJSON, HAR 1.2 whose entries carry the
 * journal's `_svc` extras (older HARs: the `comment` "iface direction kind attempt N"), a saved
 * `GET /_sim/journal` answer, or `-` for stdin. A cut last line is passed over and counted in
 * `skipped`; any other line that is not a record is an error.
 * @example const records = await readRecording('session.ndjson');
 */
export async function readRecording(
  path: string,
  skipped: SkippedLines = { skipped: 0 },
  stdin?: Readable,
): Promise<ExchangeRecord[]> {
  const name = shownInput(path);
  const records: ExchangeRecord[] = [];
  /** a line that was not JSON: an error unless it is the last, after a record (a crash) */
  let torn: number | undefined;
  const notJson = (n: number): SvcError =>
    isBinary(path)
      ? new SvcError(
          'SVC_E_RECORDING',
          `Could not read ${name}: it is binary (NUL bytes), not an NDJSON or HAR recording.`,
          RECORD_HINT,
        )
      : new SvcError(
          'SVC_E_RECORDING',
          `Could not read ${name}: line ${n} is not JSON.`,
          NOT_JSON_HINT,
        );
  for await (const { value, n } of recordingValues({
    path,
    ...(stdin ? { stdin } : {}),
    placeForeign: () => placeForeignEntry,
  })) {
    if (torn !== undefined) throw notJson(torn);
    if (value === undefined) {
      torn = n;
      continue;
    }
    records.push(asExchange(value, name, n));
  }
  if (torn !== undefined) {
    if (records.length === 0) throw notJson(torn);
    skipLine(skipped, torn);
  }
  return records;
}

const RECORD_HINT = 'Record with `svc-cli platform --record session.ndjson` (or listen --record).';
/** A file that is no recording at all (a log, a fixture, a config) says what one is. */
const NOT_JSON_HINT = `A recording is NDJSON, one exchange record per line as --record writes it, or a HAR file. ${RECORD_HINT}`;

/** Whether a file holds NUL bytes in its first 8 KiB (stdin: not looked at again). */
function isBinary(path: string): boolean {
  if (path === STDIN) return false;
  try {
    const fd = openSync(path, 'r');
    try {
      const head = Buffer.alloc(8192);
      return head.subarray(0, readSync(fd, head, 0, head.length, 0)).includes(0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
}

function asExchange(value: unknown, file: string, line: number): ExchangeRecord {
  const record = value as Partial<ExchangeRecord> | null;
  if (
    record === null ||
    typeof record !== 'object' ||
    record.type !== 'exchange' ||
    !record.request ||
    !record.iface
  )
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not read ${file}: line ${line} is not an exchange record.`,
      RECORD_HINT,
    );
  return record as ExchangeRecord;
}

/**
 * One ExchangeRecord per line; blank lines skipped; a torn last line (a crash) is passed over
 * and counted in `skipped`.
 */
export function parseNdjson(
  text: string,
  file = 'recording',
  skipped: SkippedLines = { skipped: 0 },
): ExchangeRecord[] {
  const lines = text.split('\n');
  const records: ExchangeRecord[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      // a torn last line (a crash mid-write) is passed over, unless it is all there is
      const last = lines.slice(i + 1).every((rest) => rest.trim() === '');
      if (last && records.length > 0) {
        skipLine(skipped, i + 1);
        break;
      }
      throw new SvcError(
        'SVC_E_RECORDING',
        `Could not read ${file}: line ${i + 1} is not JSON.`,
        NOT_JSON_HINT,
      );
    }
    const record = value as Partial<ExchangeRecord>;
    if (record.type !== 'exchange' || !record.request || !record.iface) {
      throw new SvcError(
        'SVC_E_RECORDING',
        `Could not read ${file}: line ${i + 1} is not an exchange record.`,
        RECORD_HINT,
      );
    }
    records.push(record as ExchangeRecord);
  }
  return records;
}
