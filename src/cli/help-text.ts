/**
 * The text after a command's flags in `--help`, fitted to the terminal. commander wraps the
 * option descriptions to the width, but not this text, which is written wrapped at about 90
 * columns: at 80 every long line broke in mid-word. Prose is re-wrapped; an example command
 * wider than the terminal is broken between its arguments with shell continuations (` \`), so
 * it still pastes whole; what else is indented (tables, lists) stays as written.
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
      out.push(...(line.length > width ? fitIndented(line, width, out.at(-1)) : [line]));
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

/**
 * An indented line wider than `width`: an example command (or the next line of one written
 * on several) broken between its arguments; a table row with its last column wrapped under
 * itself; anything else as written.
 */
function fitIndented(line: string, width: number, before: string | undefined): string[] {
  if (EXAMPLE.test(line) || (before?.endsWith(' \\') && /^\s+-/.test(line)))
    return fitExample(line, width);
  const row = TABLE_ROW.exec(line);
  const column = row ? (row[1] as string).length : 0;
  if (!row || width - column < 20) return [line];
  const [first = '', ...rest] = wrapWords(row[2] as string, width - column);
  return [`${row[1]}${first}`, ...rest.map((text) => `${' '.repeat(column)}${text}`)];
}

/** A table row: everything up to its last column gap (3 spaces or more), and its last column. */
const TABLE_ROW = /^(\s.*\S {3,})(\S.*)$/;

/** An example line: its indent, and the command after `$ ` (none: the next line of one). */
const EXAMPLE = /^(\s+)\$ (.*)$/;
const CONTINUATION = /^(\s+)(-.*)$/;

/**
 * A command's words as the shell splits them (quotes kept), and a trailing `# comment`.
 * A redirection or pipe stays with the word after it, a flag with its value.
 */
function shellWords(command: string): { words: string[]; comment?: string } {
  const raw: string[] = [];
  let comment: string | undefined;
  const pattern = /"[^"]*"|'[^']*'|#.*$|[^\s"']+(?:(?:"[^"]*"|'[^']*'|[^\s"'])*)/g;
  for (const match of command.matchAll(pattern)) {
    const word = match[0];
    if (word.startsWith('#') && (match.index === 0 || /\s/.test(command[match.index - 1] ?? ''))) {
      comment = word;
      break;
    }
    raw.push(word);
  }
  const words: string[] = [];
  for (let i = 0; i < raw.length; i++) {
    const word = raw[i] as string;
    const next = raw[i + 1];
    const joins =
      next !== undefined &&
      (/^(?:>|>>|<|\||2>|&&)$/.test(word) || (/^--?[\w-]+$/.test(word) && !/^-/.test(next)));
    if (joins) {
      words.push(`${word} ${next}`);
      i++;
    } else words.push(word);
  }
  return comment === undefined ? { words } : { words, comment };
}

/**
 * An example command wider than `width`, on several lines joined by ` \` (a flag kept with
 * its value); its trailing comment goes on a line of its own above it. A line that already
 * ends in ` \` (a command written on several lines) keeps it on its last line.
 * @example fitExample('  $ svc-cli conform bot --url http://127.0.0.1:7000/bot --token t0k', 40)
 */
export function fitExample(line: string, width: number): string[] {
  const example = EXAMPLE.exec(line);
  const continuation = example ? undefined : CONTINUATION.exec(line);
  const found = example ?? continuation;
  if (!found) return [line];
  const indent = found[1] as string;
  let command = (found[2] as string).trimEnd();
  const continued = / \\$/.test(command);
  if (continued) command = command.slice(0, -2).trimEnd();
  const { words, comment } = shellWords(command);
  // a comment above the next line of a command would end the command there
  if (!example && comment !== undefined) return [line];
  const first = example ? `${indent}$ ` : indent;
  const next = example ? `${indent}    ` : indent;
  const bare = `${first}${words.join(' ')}`;
  // the comment's column given up first: the padding before it was only for alignment
  if (comment !== undefined && !continued && bare.length + 2 + comment.length <= width)
    return [`${bare}  ${comment}`];
  const lines: string[] =
    comment === undefined
      ? []
      : wrapWords(comment.replace(/^#\s*/, ''), width - indent.length - 2).map(
          (text) => `${indent}# ${text}`,
        );
  let current = first;
  for (const word of words) {
    const start = current === first || current === next;
    // room for the word and, but on the last line, the ` \` after it
    if (!start && current.length + 1 + word.length + 2 > width) {
      lines.push(`${current} \\`);
      current = next;
    }
    current += current === first || current === next ? word : ` ${word}`;
  }
  lines.push(continued ? `${current} \\` : current);
  return lines;
}
