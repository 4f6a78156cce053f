/** The body of `coverage` (imported lazily): stream the recordings through a tally, render. */
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { createOutput } from '../render/output.js';
import { belowMinMessage, coverageJunit, formatCoverage } from '../render/coverage.js';
import { coverageOptions } from './coverage-options.js';
import {
  createCoverageTally,
  isBelowMin,
  readRecords,
  type CoverageInterface,
} from '../../coverage/index.js';
import { SvcError } from '../../errors.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { assertNoFixture, assertRecorded } from '../../trace/not-a-journal.js';
import type { SkippedLines } from '../../journal/skipped-lines.js';
import { shownInput } from '../../journal/read-input.js';
import { noteSkippedLines, noteUnplacedEntries } from '../render/skipped-lines.js';
import { checkWritableFile } from '../out-file.js';

/** The interfaces `--interface` names, by letter or by name; undefined: every one. */
const INTERFACE_WORDS: Readonly<Record<string, CoverageInterface>> = {
  a: 'A',
  channel: 'A',
  b: 'B',
  bot: 'B',
  c: 'C',
  widget: 'C',
  d: 'D',
  hooks: 'D',
};

function interfacesOf(given: readonly string[] | undefined): Set<CoverageInterface> | undefined {
  if (given === undefined || given.length === 0) return undefined;
  const words = given
    .flatMap((g) => g.split(','))
    .map((w) => w.trim())
    .filter(Boolean);
  const chosen = new Set<CoverageInterface>();
  for (const word of words) {
    const iface = INTERFACE_WORDS[word.toLowerCase()];
    if (iface === undefined)
      throw new SvcError(
        'SVC_E_FLAG',
        `Could not use --interface: "${word}" is not an interface.`,
        'Name A or channel, B or bot, C or widget, D or hooks (comma-separated or repeated). Example: svc-cli coverage run.ndjson --interface hooks --min 80',
      );
    chosen.add(iface);
  }
  if (chosen.size === 0)
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not use --interface: it names no interface.',
      'Name A or channel, B or bot, C or widget, D or hooks, or leave --interface out for every one.',
    );
  return chosen;
}

export async function runCoverage(
  ctx: CliContext,
  recordings: string[],
  given: Record<string, unknown>,
): Promise<number> {
  const flags = resolveForCommand(ctx, coverageOptions, given);
  const out = createOutput(ctx, { json: flags.json });
  // a file that cannot be written is said now, not after the recordings were read
  checkWritableFile({ cwd: ctx.cwd, file: flags.junit, flag: '--junit' });
  const tally = createCoverageTally();
  const skippedIn: Array<[string, SkippedLines]> = [];
  const unplacedIn: Array<[string, { count: number; first: string }]> = [];
  for (const recording of recordings) {
    const path = recording === '-' ? '-' : resolve(ctx.cwd, recording);
    const skipped: SkippedLines = { skipped: 0 };
    const unplaced: { count: number; first?: string } = { count: 0 };
    try {
      for await (const record of readRecords(
        path,
        ctx.stdin,
        skipped,
        unplaced,
        shownInput(recording),
      ))
        tally.add(record);
    } catch (error) {
      // a conversation fixture is no recording: say so, and how to get one
      if (path !== '-' && error instanceof SvcError && error.code === 'SVC_E_RECORDING')
        assertNoFixture([{ shown: recording, path }], 'measure that');
      throw error;
    }
    if (skipped.skipped > 0) skippedIn.push([recording === '-' ? 'stdin' : recording, skipped]);
    // a browser's HAR: its page's scripts and images are left out, and said so, as trace does
    if (unplaced.first !== undefined)
      unplacedIn.push([
        recording === '-' ? 'stdin' : recording,
        { count: unplaced.count, first: unplaced.first },
      ]);
  }
  const only = interfacesOf(flags.interface);
  const report = tally.report(only);
  assertRecorded(recordings.join(', '), report.records);
  for (const [recording, lines] of skippedIn) noteSkippedLines(out, recording, lines);
  for (const [recording, entries] of unplacedIn) noteUnplacedEntries(out, recording, entries);
  // the exact ratio, not the one-decimal figure the table shows
  const below = flags.min !== undefined && isBelowMin(report.overall, flags.min);
  if (flags.json) {
    out.event({
      type: 'coverage',
      ...report,
      ...(flags.min === undefined ? {} : { min: flags.min, pass: !below }),
    });
  } else {
    for (const line of formatCoverage(report, out.chalk, {
      files: recordings.length,
      ...(flags.uncovered ? { uncovered: true } : {}),
      ...(only === undefined ? {} : { gated: true }),
    }))
      out.line(line);
  }
  if (flags.junit !== undefined) {
    writeFileWhole(resolve(ctx.cwd, flags.junit), coverageJunit(report, flags.min), flags.junit);
    if (!flags.json) out.note(`JUnit properties written to ${flags.junit}`);
  }
  if (below && flags.min !== undefined)
    out.note(belowMinMessage(report.overall, flags.min, '--min '));
  return below ? 1 : 0;
}
