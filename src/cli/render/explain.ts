/**
 * `svc-cli explain`: the reference's Markdown as it is (it reads well in a terminal), headings
 * in bold, and for a rule or error code what it means and what to do. --json prints the
 * explanation as one `explain` object.
 */
import type { Explanation } from '../../reference/explain.js';
import type { FieldRow } from '../../reference/fields.js';
import type { Output } from './output.js';
import { wrapWords } from '../help-text.js';
import { tablesForTerminal } from './markdown-table.js';

const CONTRACT = 'docs/CONTRACT.md';

function fieldLines(rows: readonly FieldRow[]): string[] {
  return rows.flatMap((row) => {
    const facts = [
      row.types.join(' or '),
      row.required ? 'required' : 'optional',
      ...(row.when === undefined ? [] : [`when ${row.when}`]),
      ...row.limits,
      ...(row.values.length > 0 ? [`one of ${row.values.join(', ')}`] : []),
      ...(row.nullable ? ['null = absent'] : []),
      ...(row.drift ? ['drift possible'] : []),
    ];
    return [
      `  ${row.path}: ${facts.join('; ')}`,
      ...(row.description ? [`    ${row.description}`] : []),
    ];
  });
}

/**
 * `[channel.customer.text](#channelcustomertext)` as `channel.customer.text`: a link to a
 * heading of docs/CONTRACT.md is only noise in a terminal, where `svc-cli explain <name>`
 * is the way to the kind.
 */
const withoutAnchorLinks = (text: string): string =>
  text.replace(/\[([^\]\n]+)\]\(#[^)\s]*\)/g, '$1');

/**
 * Each line longer than `width` broken at spaces, its continuation under its text: a
 * paragraph at the margin, a list item (`- `) or a `key: value` line two columns in. Lines
 * that fit (an aligned table) are kept as they are.
 */
function wrapLongLines(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => {
      if (line.length <= width) return [line];
      const indent = /^ */.exec(line)?.[0] ?? '';
      const hanging = indent === '' && !line.startsWith('- ') ? '' : `${indent}  `;
      const [first = '', ...rest] = wrapWords(line.slice(indent.length), width - indent.length);
      const more = rest.join(' ');
      return [
        indent + first,
        ...(more === '' ? [] : wrapWords(more, width - hanging.length).map((l) => hanging + l)),
      ];
    })
    .join('\n');
}

function textOf(e: Explanation, bold: (s: string) => string, width: number): string {
  switch (e.topic) {
    case 'section':
    case 'kind':
      return `${wrapLongLines(tablesForTerminal(withoutAnchorLinks(e.text), width), width).replace(/^(#{2,4}) (.*)$/gm, (_m, _h: string, title: string) => bold(title))}\n\n(${CONTRACT}, section ${e.section})`;
    case 'field':
      return [
        bold(`${e.kind} ${e.path}`),
        ...fieldLines(e.fields),
        `(${CONTRACT}, section ${e.section}; the whole kind: svc-cli explain ${e.kind})`,
      ].join('\n');
    case 'rule':
      return [
        bold(`${e.code}`) +
          ` (${e.severity === 'either' ? 'error or warning' : e.severity}, section ${e.section})`,
        `  ${e.summary}.`,
        `  What to do: ${e.todo}`,
      ].join('\n');
    case 'error':
      return [
        bold(e.code) +
          ` (${e.category}, exit ${e.exitCode}${e.section === undefined ? '' : `, section ${e.section}`})`,
        `  ${e.summary}.`,
        `  What to do: ${e.todo}`,
      ].join('\n');
    case 'invariant':
      return [
        bold(e.name) + ` (cross-interface invariant, section ${e.section})`,
        `  ${e.summary[0]?.toUpperCase() ?? ''}${e.summary.slice(1)}.`,
        `  Checked by: ${e.checkedBy.join(', ')}; a broken one names the two exchanges it relates.`,
        `  Switch it off: --no-invariant ${e.name}`,
        `(${CONTRACT}, Cross-interface invariants; docs/trace.md)`,
      ].join('\n');
    case 'mutant':
      return [
        bold(e.name) + ` (simulator mutant, ${e.family} family, section ${e.section})`,
        wrapLongLines(
          [
            `  The simulator ${e.deviation}.`,
            `  A survivor: ${e.survivor}.`,
            `  Run it: svc-cli mutate --only ${e.name} -- <your test command>`,
          ].join('\n'),
          width,
        ),
        `(${CONTRACT}, Simulator mutants; docs/coverage.md)`,
      ].join('\n');
    case 'topics': {
      const wide = Math.max(...e.groups.map((g) => g.group.length));
      return [
        bold('svc-cli explain <what>') + ' prints what the contract says of',
        ...e.groups.map((g) => `  ${g.group.padEnd(wide)}  svc-cli explain ${g.example}`),
        `(${CONTRACT}; every "spec N.N" in a message is one of its sections)`,
      ].join('\n');
    }
    default: {
      const never: never = e;
      return String(never);
    }
  }
}

/** Prints one explanation, its tables laid out for `width` columns. */
export function renderExplanation(out: Output, explanation: Explanation, width = 80): void {
  out.event({ type: 'explain', ...explanation }, (_e, c) =>
    textOf(explanation, (s) => c.bold(s), width),
  );
}
