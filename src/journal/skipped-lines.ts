/**
 * The lines of a recording its reader passed over, as data: every reader of `--record` files
 * (`trace`, `report`, `coverage`, `record to-fixture`, `record diff`, `record profile`) counts
 * them the same way and the CLI says so in one warning (`src/cli/render/skipped-lines.ts`).
 * A cut last line is normal after a kill (the journal writes whole lines), so skipping is no
 * failure, but it is never silent.
 */
export interface SkippedLines {
  /** lines that were not journal records */
  skipped: number;
  /** the first of them, counted from 1 as an editor does (blank lines included) */
  firstSkipped?: number;
  /** a journal record came after a skipped line: not (only) the partial last line of a kill */
  recordAfter?: boolean;
}

/**
 * Counts line `line` (from 1) as skipped.
 * @example const s = { skipped: 0 }; skipLine(s, 26); // { skipped: 1, firstSkipped: 26 }
 */
export function skipLine(lines: SkippedLines, line: number): void {
  if (lines.skipped++ === 0) lines.firstSkipped = line;
}

/**
 * Counts a journal record read after the lines skipped so far: a skipped line before it was
 * not a cut end.
 * @example const s = { skipped: 1, firstSkipped: 1 }; noteRecord(s); // s.recordAfter === true
 */
export function noteRecord(lines: SkippedLines): void {
  if (lines.skipped > 0) lines.recordAfter = true;
}
