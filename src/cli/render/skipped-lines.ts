import type { SkippedLines } from '../../journal/skipped-lines.js';
import { plural } from '../../plural.js';
import type { Output } from './output.js';

/**
 * The one warning every command reading a recording gives for the lines it skipped, or
 * undefined when it skipped none. The run goes on (exit 0): a recording cut short by a kill
 * ends in a partial line; a skipped line with a record after it is no cut end, and the
 * warning does not say it is one.
 * @example skippedLinesNotice('run.ndjson', { skipped: 1, firstSkipped: 26 }) // 'warning: run.ndjson: skipped 1 line ...'
 */
export function skippedLinesNotice(file: string, lines: SkippedLines): string | undefined {
  if (lines.skipped === 0) return undefined;
  const first = lines.firstSkipped === undefined ? '' : `, the first at line ${lines.firstSkipped}`;
  const which = lines.skipped === 1 ? 'it' : 'one of them';
  const why =
    lines.recordAfter === true
      ? `a journal record comes after ${which}, so the file was not just cut short: it was edited, joined to another, or appended to after a kill`
      : 'a recording cut short, by a kill or a full disk, ends in a partial line';
  return `warning: ${file}: skipped ${plural(lines.skipped, 'line')} not a journal record${first} (${why})`;
}

/** Says `skippedLinesNotice` on stderr (a JSON notice with --json) when lines were skipped. */
export function noteSkippedLines(out: Output, file: string, lines: SkippedLines): void {
  const text = skippedLinesNotice(file, lines);
  if (text !== undefined) out.note(text);
}
