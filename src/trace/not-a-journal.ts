import { SvcError } from '../errors.js';
import { plural } from '../plural.js';

/**
 * A file none of whose lines is a journal record (a README, a log) is a wrong argument, not an
 * empty recording: `trace` and `report` fail on it as `record to-fixture` does (exit 2) instead
 * of printing "0 conversations". An empty file stays an empty recording.
 * @example assertJournal('README.md', { records: 0, skipped: 152 }) // throws SVC_E_RECORDING
 */
export function assertJournal(shown: string, read: { records: number; skipped: number }): void {
  if (read.records > 0 || read.skipped === 0) return;
  throw new SvcError(
    'SVC_E_RECORDING',
    `Could not read ${shown} as a journal: none of its ${plural(read.skipped, 'line')} is a journal record.`,
    'Give a file written by --record (svc-cli platform, replay, conform or proxy --record session.ndjson).',
  );
}

/**
 * A recording without one record (0 bytes, or only blank lines) was never written: `trace`,
 * `report` and `coverage` fail on it (exit 2) rather than pass CI with "0 conversations". A
 * journal with exchanges but no conversation is a recording, and stays one.
 * @example assertRecorded('session.ndjson', 0) // throws SVC_E_RECORDING
 */
export function assertRecorded(shown: string, records: number): void {
  if (records > 0) return;
  throw new SvcError(
    'SVC_E_RECORDING',
    `Could not read ${shown}: it holds no exchanges: was it recorded?`,
    '--record <file> on platform, replay, conform or proxy writes one (svc-cli platform --record session.ndjson).',
  );
}
