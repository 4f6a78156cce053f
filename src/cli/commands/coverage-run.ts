/** The body of `coverage` (imported lazily): stream the recordings through a tally, render. */
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { createOutput } from '../render/output.js';
import { belowMinMessage, coverageJunit, formatCoverage } from '../render/coverage.js';
import { coverageOptions } from './coverage-options.js';
import { createCoverageTally, isBelowMin, readRecords } from '../../coverage/index.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { assertRecorded } from '../../trace/not-a-journal.js';
import type { SkippedLines } from '../../journal/skipped-lines.js';
import { noteSkippedLines } from '../render/skipped-lines.js';
import { checkWritableFile } from '../out-file.js';

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
  for (const recording of recordings) {
    const path = recording === '-' ? '-' : resolve(ctx.cwd, recording);
    const skipped: SkippedLines = { skipped: 0 };
    for await (const record of readRecords(path, ctx.stdin, skipped)) tally.add(record);
    if (skipped.skipped > 0) skippedIn.push([recording === '-' ? 'stdin' : recording, skipped]);
  }
  const report = tally.report();
  assertRecorded(recordings.join(', '), report.records);
  for (const [recording, lines] of skippedIn) noteSkippedLines(out, recording, lines);
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
