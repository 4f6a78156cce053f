/**
 * The text after a command's flags in `--help`, fitted to the terminal. commander wraps the
 * option descriptions to the width, but not this text, which is written wrapped at about 90
 * columns: at 80 every long line broke in mid-word. Prose is re-wrapped; what is indented
 * (examples, tables, lists) stays as written, so an example command can still be copied whole.
 */
import { Help } from 'commander';

/** A line written as wrapped prose: its next line continues its sentence. */
const WRAPPED_AT = 60;

/**
 * `text` re-wrapped at `width`: the unindented lines of a paragraph a writer wrapped (each at
 * least 60 characters but its last) are joined and broken again at spaces; a shorter line
 * (a heading, a list line) ends its paragraph; so is a definition list's entry (an indented
 * term, its text in a column), under its own text; other indented lines (examples, tables)
 * and blank lines are kept.
 * @example fitHelpText('a long paragraph ...', 80)
 */
export function fitHelpText(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  /** a definition's term and the indent of its text (`  hooks       we play ...`) */
  let hanging = '';
  const flush = (): void => {
    if (paragraph.length > 0) {
      const indent = ' '.repeat(hanging.length);
      const lines = wrapWords(paragraph.join(' '), width - hanging.length);
      out.push(...lines.map((line, i) => `${i === 0 ? hanging : indent}${line}`));
    }
    paragraph = [];
    hanging = '';
  };
  for (const line of text.split('\n')) {
    const definition = DEFINITION.exec(line);
    const continues =
      hanging !== '' &&
      line.startsWith(' '.repeat(hanging.length)) &&
      isProse(line.slice(hanging.length));
    if (continues) paragraph.push(line.trim());
    else if (definition && isProse(definition[2] ?? '')) {
      flush();
      hanging = definition[1] ?? '';
      paragraph.push((definition[2] ?? '').trimEnd());
    } else if (line.trim() === '' || /^\s/.test(line)) {
      flush();
      out.push(line);
      continue;
    } else paragraph.push(line.trimEnd());
    if (line.length < WRAPPED_AT) flush();
  }
  flush();
  return out.join('\n');
}

/** An indented term, two or more spaces, its text: a line of a definition list. */
const DEFINITION = /^( {2,4}[\w-]+ {2,})(\S.*)$/;

/** Text, not a table row: no column gap (three spaces) or arrow between its words. */
const isProse = (text: string): boolean =>
  text.trim() !== '' && !/^\s/.test(text) && !/ {3}|->|\$ svc-cli/.test(text.trim());

/**
 * Words put on lines of at most `width` (a longer word, a URL, has its own line): commander's
 * own wrapping, which its option descriptions get, told to wrap at any width.
 */
const wrapper = Object.assign(new Help(), { minWidthToWrap: 1 });
export const wrapWords = (text: string, width: number): string[] =>
  wrapper.boxWrap(text, width).split('\n');

/** The width `--help` is fitted to: the terminal's, else 80 (a pipe, a file). */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  const columns = stream.isTTY ? (stream.columns ?? 0) : 0;
  return columns >= 40 ? Math.min(columns, 100) : 80;
}
