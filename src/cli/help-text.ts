/**
 * The text after a command's flags in `--help`, fitted to the terminal. commander wraps the
 * option descriptions to the width, but not this text, which is written wrapped at about 90
 * columns: at 80 every long line broke in mid-word. Prose is re-wrapped; what is indented
 * (examples, tables, lists) stays as written, so an example command can still be copied whole.
 */

/** A line written as wrapped prose: its next line continues its sentence. */
const WRAPPED_AT = 60;

/**
 * `text` re-wrapped at `width`: the unindented lines of a paragraph a writer wrapped (each at
 * least 60 characters but its last) are joined and broken again at spaces; a shorter line
 * (a heading, a list line) ends its paragraph; indented and blank lines are kept.
 * @example fitHelpText('a long paragraph ...', 80)
 */
export function fitHelpText(text: string, width: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) out.push(...wrapWords(paragraph.join(' '), width));
    paragraph = [];
  };
  for (const line of text.split('\n')) {
    if (line.trim() === '' || /^\s/.test(line)) {
      flush();
      out.push(line);
      continue;
    }
    paragraph.push(line.trimEnd());
    if (line.length < WRAPPED_AT) flush();
  }
  flush();
  return out.join('\n');
}

/** Words put on lines of at most `width` (a longer word, a URL, has its own line). */
function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/ +/)) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** The width `--help` is fitted to: the terminal's, else 80 (a pipe, a file). */
export function helpWidth(stream: { isTTY?: boolean; columns?: number }): number {
  const columns = stream.isTTY ? (stream.columns ?? 0) : 0;
  return columns >= 40 ? Math.min(columns, 100) : 80;
}
