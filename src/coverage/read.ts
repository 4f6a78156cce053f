/**
 * Reads recordings as a stream of exchange records through the one reader of recordings
 * (`src/journal/read-input.ts`): NDJSON a line at a time, a HAR or a `/_sim/journal` answer
 * whole, `-` for stdin. Coverage is strict: a line that is not a record is an error, but a
 * cut last line.
 */
import type { Readable } from 'node:stream';
import { SvcError } from '../errors.js';
import type { ExchangeRecord } from '../journal/record.js';
import { skipLine, type SkippedLines } from '../journal/skipped-lines.js';
import { recordingValues, shownInput } from '../journal/read-input.js';
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

/**
 * The exchange records of one input: a file path, or `-` for stdin. A cut last line is
 * passed over and counted in `skipped`; any other line that is not a record is an error.
 * @example for await (const record of readRecords('run.ndjson')) tally.add(record);
 */
export async function* readRecords(
  path: string,
  stdin: Readable = process.stdin,
  skipped: SkippedLines = { skipped: 0 },
  /** the entries of a foreign HAR placed on no interface (a page's scripts, images): counted */
  unplaced: { count: number; first?: string } = { count: 0 },
  /** the name its errors give it: the path as the user typed it (default: `path`) */
  name: string = shownInput(path),
): AsyncGenerator<ExchangeRecord> {
  /** a line that was not JSON: an error unless it was the last (a torn write) */
  let torn: number | undefined;
  let first = true;
  const place: typeof placeForeignEntry = (method, url, body) => {
    const placed = placeForeignEntry(method, url, body);
    if (placed === undefined) {
      unplaced.first ??= `${method} ${url}`;
      unplaced.count++;
    }
    return placed;
  };
  for await (const { value, n } of recordingValues({
    path,
    stdin,
    placeForeign: () => place,
  })) {
    if (torn !== undefined)
      throw new SvcError(
        'SVC_E_RECORDING',
        `Could not read ${name}: line ${torn} is not JSON.`,
        RECORD_HINT,
      );
    if (value === undefined) {
      if (first)
        throw new SvcError(
          'SVC_E_RECORDING',
          `Could not read ${name}: it is neither NDJSON records nor a HAR or journal document.`,
          RECORD_HINT,
        );
      torn = n;
      continue;
    }
    first = false;
    yield asRecord(value, `${name} line ${n}`);
  }
  // a last line cut short (a kill mid-write) is passed over, and counted
  if (torn !== undefined) skipLine(skipped, torn);
}
