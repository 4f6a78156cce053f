import { readFileSync, statSync } from 'node:fs';
import { SvcError } from '../errors.js';

/** A conversation fixture is a few KiB; a larger file is not read whole to find out. */
const FIXTURE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * Whether `path` holds a conversation fixture (one JSON document with `version` and `steps`,
 * what `replay` takes): the usual wrong argument to a command that reads a recording.
 * @example isConversationFixture('fixtures/conversations/bot-text.json') // true
 */
export function isConversationFixture(path: string): boolean {
  try {
    if (statSync(path).size > FIXTURE_MAX_BYTES) return false;
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return (
      value !== null &&
      typeof value === 'object' &&
      'version' in value &&
      'steps' in value &&
      Array.isArray(value.steps)
    );
  } catch {
    return false;
  }
}

/** What a file that is none reads as: the files as given (`shown`) and as opened (`path`). */
export interface JournalFile {
  shown: string;
  path: string;
}

/**
 * A file none of whose lines is a journal record (a README, a log) is a wrong argument, not an
 * empty recording: `trace` and `report` fail on it as `record to-fixture` does (exit 2) instead
 * of printing "0 conversations". An empty file stays an empty recording. A conversation fixture
 * among `files` is named as one, with what to do instead (`then`: what to do with the recording).
 * @example assertJournal('README.md', { records: 0, skipped: 152 }) // throws SVC_E_RECORDING
 */
export function assertJournal(
  shown: string,
  read: { records: number; skipped: number },
  files: readonly JournalFile[] = [],
  then = 'trace that',
): void {
  if (read.records > 0 || read.skipped === 0) return;
  assertNoFixture(files, then);
  throw new SvcError(
    'SVC_E_RECORDING',
    // "none of its 1 line" read as a slip: a one-line file is said in the singular
    `Could not read ${shown} as a journal: ${read.skipped === 1 ? 'its one line is not' : `none of its ${read.skipped} lines is`} a journal record.`,
    'Give a file written by --record (svc-cli platform, replay, conform or proxy --record session.ndjson).',
  );
}

/**
 * Names a conversation fixture among `files` given where a recording belongs, with what to do
 * instead (`then`: what to do with the recording); returns when there is none.
 * @example assertNoFixture([{ shown: 'a.json', path: '/w/a.json' }], 'convert that') // throws SVC_E_RECORDING
 */
export function assertNoFixture(files: readonly JournalFile[], then: string): void {
  const fixture = files.find((f) => isConversationFixture(f.path));
  if (fixture)
    throw new SvcError(
      'SVC_E_RECORDING',
      `Could not read ${fixture.shown} as a journal: this is a conversation fixture, not a recording: replay it with --record <file> and ${then}.`,
      `svc-cli replay ${fixture.shown} --record session.ndjson writes the recording of its conversation.`,
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
    // a listen (coverage.md: `listen --record agent-side.ndjson`) that no platform reached was
    // recording: say why its file can be empty, not only how to record
    'A --record file gets a line per exchange: a listen, hook-target or bot-sim that nothing reached leaves its file empty (send it something first). --record <file> on platform, replay, conform or proxy records what they exchange (svc-cli platform --record session.ndjson).',
  );
}
