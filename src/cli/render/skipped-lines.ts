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

/**
 * The note for the entries of a HAR svc-cli did not write that trace and report could place
 * on no interface (a page's scripts, images, analytics calls): left out, never silently.
 * @example unplacedNotice('devtools.har', { count: 2, first: 'GET https://shop.example/app.js' })
 */
export function unplacedNotice(
  file: string,
  unplaced: { count: number; first: string } | undefined,
): string | undefined {
  if (unplaced === undefined || unplaced.count === 0) return undefined;
  const one = unplaced.count === 1;
  return `note: ${file}: left out ${plural(unplaced.count, 'HAR entry', 'HAR entries')} svc-cli could place on no interface (${one ? '' : 'the first: '}${unplaced.first}): ${one ? 'its' : 'their'} URL, method and body are no exchange of the contract`;
}

/** Says `unplacedNotice` on stderr (a JSON notice with --json) when entries were left out. */
export function noteUnplacedEntries(
  out: Output,
  file: string,
  unplaced: { count: number; first: string } | undefined,
): void {
  const text = unplacedNotice(file, unplaced);
  if (text !== undefined) out.note(text);
}
