/**
 * Markdown tables of the contract reference, for a terminal (`svc-cli explain`): aligned
 * columns when the widest row fits the width, else one "key: value" block per row. The text
 * around the tables is left as it is; --json keeps the Markdown.
 */

const cellsOf = (line: string): string[] =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim().replace(/\\\|/g, '|'));

const isRow = (line: string): boolean => /^\s*\|.*\|\s*$/.test(line);
const isRule = (line: string): boolean => /^\s*\|(\s*:?-+:?\s*\|)+\s*$/.test(line);

/** Backticks are Markdown's: a cell reads as its text. */
const plain = (cell: string): string => cell.replace(/`([^`]*)`/g, '$1');

/** One table (header, rows) laid out for `width` columns. */
function layout(head: string[], rows: string[][], width: number): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const total = widths.reduce((sum, w) => sum + w, 0) + 2 * (widths.length - 1);
  if (total <= width)
    return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
  // too wide: each row a block, its first cell as the heading, the others "key: value"
  return rows.flatMap((row, index) => [
    ...(index > 0 ? [''] : []),
    row[0] ?? '',
    ...head.slice(1).flatMap((key, i) => (row[i + 1] ? [`  ${key}: ${row[i + 1] ?? ''}`] : [])),
  ]);
}

/**
 * `text` with each Markdown table laid out for a terminal `width` columns wide.
 * @example tablesForTerminal('| a | b |\n| --- | --- |\n| 1 | 2 |', 80) // 'a  b\n-  -\n1  2'
 */
export function tablesForTerminal(text: string, width: number): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!(isRow(line) && isRule(lines[i + 1] ?? ''))) {
      out.push(line);
      continue;
    }
    const head = cellsOf(line).map(plain);
    const rows: string[][] = [];
    i += 2;
    while (i < lines.length && isRow(lines[i] ?? ''))
      rows.push(cellsOf(lines[i++] ?? '').map(plain));
    i--;
    out.push(...layout(head, rows, width));
  }
  return out.join('\n');
}
