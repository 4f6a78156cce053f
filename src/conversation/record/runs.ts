/**
 * The runs of a recording: `--record` appends, so one file may hold several sessions (a
 * platform run, then a replay recorded into the same file), each with its own `run` id and
 * `seq` counting from 1. `record to-fixture` converts them together in the order they ran
 * unless `--run` picks one.
 */
import { SvcError } from '../../errors.js';
import type { ExchangeRecord } from '../../journal/index.js';
import { plural } from '../../plural.js';

/** One run of a recording: its id, its first record's time, how many exchanges it holds. */
export interface RecordingRun {
  /** the run id (`''` for records written without one) */
  id: string;
  /** the wall time of its first record */
  at: string | undefined;
  exchanges: number;
}

/**
 * The runs in the order they ran.
 * @example runsOf(records) // [{ id: '00c3820c0001', at: '2026-11-29T08:51:13.001Z', exchanges: 6 }]
 */
export function runsOf(records: readonly ExchangeRecord[]): RecordingRun[] {
  const runs = new Map<string, RecordingRun>();
  for (const r of records) {
    const id = r.run ?? '';
    const run = runs.get(id);
    if (run) run.exchanges++;
    else runs.set(id, { id, at: r.at, exchanges: 1 });
  }
  return [...runs.values()];
}

/** `a1b2c3 (from 09:12:03, 14 exchanges)` */
export const describeRun = (run: RecordingRun): string =>
  `${run.id || '(no run id)'} (${run.at ? `from ${run.at.slice(11, 19)}, ` : ''}${plural(run.exchanges, 'exchange')})`;

/**
 * The records of the run `wanted` names: its id, or a prefix only one run's id starts with.
 * @example selectRun(records, '00c3') // the records of run 00c3820c0001
 */
export function selectRun(
  records: readonly ExchangeRecord[],
  wanted: string,
  file: string,
): ExchangeRecord[] {
  const runs = runsOf(records);
  const matches = runs.filter((run) => run.id === wanted);
  const chosen = matches.length === 1 ? matches : runs.filter((run) => run.id.startsWith(wanted));
  if (chosen.length === 1) return records.filter((r) => (r.run ?? '') === chosen[0]!.id);
  const list = runs.map(describeRun).join(', ');
  throw new SvcError(
    'SVC_E_OPTIONS',
    chosen.length === 0
      ? `Could not use --run ${wanted}: ${file} holds no such run; its runs: ${list}.`
      : `Could not use --run ${wanted}: it starts ${chosen.length} run ids in ${file}: ${chosen.map(describeRun).join(', ')}.`,
    chosen.length === 0
      ? 'Give one of the run ids above, or the start of one that no other starts with.'
      : 'Give more of the run id, as the list above shows it.',
  );
}
