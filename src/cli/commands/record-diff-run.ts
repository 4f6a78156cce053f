import { SvcError } from '../../errors.js';
import { readDuration } from '../../duration.js';
import type { SkippedLines } from '../../journal/skipped-lines.js';
import { diffObservations } from '../../conversation/record/diff.js';
import { observeRecordings } from '../../conversation/record/observe.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { renderDiff } from '../render/drift.js';
import { createOutput } from '../render/output.js';
import { noteSkippedLines } from '../render/skipped-lines.js';
import { recordDiffOptions } from './record-options.js';
import { inputPaths } from '../input-paths.js';
import { shownInput } from '../../journal/read-input.js';

/**
 * Milliseconds from `250ms`, `1s`, `1.5s` or a bare number of milliseconds.
 * @example parseTolerance('1s') // 1000
 */
export function parseTolerance(text: string): number {
  const ms = readDuration(text.trim(), 'ms');
  if (ms === undefined)
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not read --timing-tolerance "${text}": expected a duration such as 250ms or 1s.`,
    );
  return ms;
}

/** `svc-cli record diff a b`: observe both, compare, print; exit 1 on a behaviour difference. */
export async function runRecordDiff(
  ctx: CliContext,
  a: string,
  b: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, recordDiffOptions, given);
  const timingToleranceMs = parseTolerance(flags.timingTolerance);
  const out = createOutput(ctx, { json: flags.json });
  // both files at once: one is parsed while the other's next chunk is read (bench/drift.js)
  const skippedA: SkippedLines[] = [];
  const skippedB: SkippedLines[] = [];
  const paths = inputPaths(ctx.cwd, [a, b]);
  const [seenA, seenB] = await Promise.all([
    observeRecordings([paths[0]!], skippedA, ctx.stdin),
    observeRecordings([paths[1]!], skippedB, ctx.stdin),
  ]);
  for (const [file, skipped] of [
    [shownInput(a), skippedA[0]],
    [shownInput(b), skippedB[0]],
  ] as const)
    if (skipped) noteSkippedLines(out, file, skipped);
  const result = diffObservations(seenA, seenB, { timingToleranceMs });
  renderDiff(out, {
    a: { file: shownInput(a), records: seenA.records, kinds: Object.keys(seenA.kinds).length },
    b: { file: shownInput(b), records: seenB.records, kinds: Object.keys(seenB.kinds).length },
    timingToleranceMs,
    ...result,
  });
  await out.flush();
  return result.counts.behaviour > 0 ? 1 : 0;
}
