/**
 * A log line longer than the terminal, broken at spaces with a hanging indent, instead of
 * the terminal's own break in the middle of a word at column 80. The continuation lines start
 * under the line's message: after the time column (`14:03:27.412    3.356s  `), or after a
 * label and its gap (`  time scale    `, `#3    `). Only for a terminal: a pipe or a file
 * keeps one line per event, for grep. Loaded at start (errors.ts), so it imports no package.
 */
import { stripVTControlCharacters } from 'node:util';

/** The time column of the serving commands' logs (time.ts), with the gap after it. */
const STAMP = /^\d\d:\d\d:\d\d\.\d{3} +-?\d+\.\d{3}s +/;
/** A label and the gap of two or more spaces after it, within the first 30 columns. */
const LABEL = /^ *\S+(?: \S+)*? {2,}(?=\S)/;
/** A hanging indent wider than this share of the width leaves too little room: 4 instead. */
const MAX_INDENT_SHARE = 0.5;
/** A caller's own indent is kept while it leaves this many columns for the text. */
const MIN_ROOM = 30;

/** The visible columns of `text` (colours left out). */
const width = (text: string): number => stripVTControlCharacters(text).length;

/** The length of the colour code (`ESC [ ... m`) at `i` in `line`, or 0 when there is none. */
function codeAt(line: string, i: number): number {
  if (line.charCodeAt(i) !== 0x1b || line[i + 1] !== '[') return 0;
  const end = line.indexOf('m', i + 2);
  return end === -1 ? 0 : end - i + 1;
}

/** `line` cut after `visible` columns: colour codes on the way, and right after, stay with the head. */
function splitVisible(line: string, visible: number): [string, string] {
  let seen = 0;
  let i = 0;
  for (;;) {
    const code = codeAt(line, i);
    if (code > 0) i += code;
    else if (seen < visible && i < line.length) {
      seen++;
      i++;
    } else break;
  }
  return [line.slice(0, i), line.slice(i)];
}

/**
 * Words of `text` on lines of at most `columns` visible columns, the gaps between them kept
 * (a word longer than that has its own line). As commander's help wrapping, which the
 * validate run path, where this is loaded too, must not load.
 */
export function wrapWords(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const chunk of text.match(/\s*\S+/g) ?? []) {
    if (line !== '' && width(line) + width(chunk) > columns) {
      lines.push(line);
      line = chunk.trimStart();
    } else line += chunk;
  }
  return [...lines, line];
}

/** Where a line's continuation starts: under its message. */
function hangingIndent(plain: string, columns: number): number {
  const head = STAMP.exec(plain)?.[0] ?? LABEL.exec(plain.slice(0, 30))?.[0];
  const indent = head === undefined ? /^ */.exec(plain)![0].length + 2 : head.length;
  return indent > columns * MAX_INDENT_SHARE ? 4 : indent;
}

/**
 * One line, broken to fit `columns` with a hanging indent (unchanged when it fits): `indent`
 * when given and it leaves MIN_ROOM columns, else under the line's message.
 */
export function fitLine(line: string, columns: number, indent?: number): string {
  const plain = stripVTControlCharacters(line);
  if (plain.length <= columns) return line;
  indent =
    indent !== undefined && columns - indent >= MIN_ROOM ? indent : hangingIndent(plain, columns);
  // the part before the indent's column stays as it is (a time column, a label); the rest is
  // wrapped beside it. An indent that falls inside the message's first word ("no test", two
  // columns in) keeps only the leading spaces: cutting there would lose the space after it.
  const lead = /^ */.exec(plain)![0].length;
  const cut = Math.max(indent, lead);
  const at = plain[cut - 1] === ' ' ? cut : lead;
  const [head, rest] = splitVisible(line, at);
  const text = rest.trimStart();
  const [first = ''] = wrapWords(text, columns - at);
  const more = wrapWords(text.slice(first.length).trimStart(), columns - cut).filter(Boolean);
  return [head + first, ...more.map((row) => ' '.repeat(cut) + row)].join('\n');
}

/** Every line of `text` fitted to `columns`. */
export const fitText = (text: string, columns: number): string =>
  text
    .split('\n')
    .map((line) => fitLine(line, columns))
    .join('\n');

/**
 * `text` fitted to `stream`'s width when it is a terminal, else as it is.
 * @example ctx.stderr.write(`${fitFor(ctx.stderr)(line)}\n`);
 */
export function fitFor(stream: object): (text: string) => string {
  const tty = stream as { isTTY?: boolean; columns?: number };
  return (text) => (tty.isTTY && tty.columns ? fitText(text, tty.columns) : text);
}
