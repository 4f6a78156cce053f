/**
 * The reference model rendered as Markdown (docs/CONTRACT.md, `svc-cli schema --format
 * markdown`, `svc-cli explain`) and as HTML (the web console's `/_sim/docs`).
 */
import { KINDS } from '../contract/registry.js';
import { getKind } from '../contract/validate.js';
import { fieldRows, type FieldRow } from './fields.js';
import {
  anchorOf,
  flatten,
  headingOf,
  kindAnchor,
  slug,
  type Block,
  type Section,
} from './model.js';
import { contractSections } from './contract.js';

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function mdTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return [
    `| ${head.map(cell).join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ].join('\n');
}

/** The one line under a kind's heading: what it is, who writes it, how drift is treated. */
export function kindSummary(kind: string): string {
  const entry = getKind(kind);
  const party = entry.producer === 'party';
  return (
    `${entry.description}. Interface ${entry.interface}, ${entry.direction}; ` +
    (party
      ? 'written by the party under test, so it is held to these types (drift is an error).'
      : 'written by the platform, so drift is a warning (an error with `--strict`).') +
    ` JSON Schema: \`svc-cli schema --kind ${kind}\`.`
  );
}

const requiredCell = (row: FieldRow): string =>
  (row.required ? 'yes' : 'no') + (row.when === undefined ? '' : ` (when ${row.when})`);

function policyCell(row: FieldRow, party: boolean): string {
  const parts: string[] = [];
  if (row.nullable) parts.push(row.required ? 'null allowed' : 'null = absent');
  if (row.drift) parts.push(party ? 'drift refused' : 'drift: warning');
  return parts.join(', ');
}

/** The field table of a kind (or of one object in it) as rows of cells. */
export function fieldTable(kind: string, under?: string): { head: string[]; rows: string[][] } {
  const party = getKind(kind).producer === 'party';
  return {
    head: ['field', 'type', 'required', 'limits and values', 'null / drift', 'meaning'],
    rows: fieldRows(kind, under).map((row) => [
      `\`${row.path}\``,
      row.types.join(' or '),
      requiredCell(row),
      [...row.limits, ...(row.values.length > 0 ? [`one of ${row.values.join(', ')}`] : [])].join(
        '; ',
      ),
      policyCell(row, party),
      row.description ?? '',
    ]),
  };
}

function mdKind(block: Extract<Block, { type: 'kind' }>): string {
  const table = fieldTable(block.kind, block.under);
  const heading =
    block.under === undefined ? `#### \`${block.kind}\`` : `#### ${block.title ?? block.under}`;
  const intro =
    block.under === undefined
      ? kindSummary(block.kind)
      : `As in \`${block.kind}\` (\`${block.under}\`).`;
  return [heading, intro, mdTable(table.head, table.rows)].join('\n\n');
}

function mdBlock(block: Block): string {
  switch (block.type) {
    case 'p':
      return block.text;
    case 'list':
      return block.items.map((i) => `- ${i}`).join('\n');
    case 'table':
      return mdTable(block.head, block.rows);
    case 'kind':
      return mdKind(block);
    default:
      throw new Error(`unknown block ${JSON.stringify(block)}`);
  }
}

/** One section (and its subsections) as Markdown; its heading level follows its depth. */
export function sectionMarkdown(
  section: Section,
  depth = section.id.includes('.') ? 3 : 2,
): string {
  return [
    `${'#'.repeat(depth)} ${headingOf(section)}`,
    ...section.blocks.map(mdBlock),
    ...section.sections.map((s) => sectionMarkdown(s, depth + 1)),
  ].join('\n\n');
}

/** The field table of one kind as Markdown, with its header line. */
export function kindMarkdown(kind: string): string {
  return mdKind({ type: 'kind', kind });
}

const HEADER = [
  '# The svc contract',
  '',
  '<!-- Generated from the code by `npm run build` (scripts/write-contract.mjs, `svc-cli schema --format markdown`). Do not edit: change the schemas, src/contract/field-docs.ts or src/reference/contract.ts. -->',
  '',
  'What the four integration interfaces of the svc conversation platform exchange, as svc-cli checks it: (A) the chat channel, (B) the bot provider, (C) the page script and (D) the event hooks. Messages cite these sections as "spec 2.5"; `svc-cli explain 2.5` prints one in the terminal, `svc-cli explain <kind>`, `<code>` or `SVC_E_...` the rest.',
  '',
  "Placeholders: `{base_url}` the platform's channel host, `{bot_service_url}` its bot host, `{integrator_url}` the integrator's endpoint for agent messages, `{bot_provider_url}` the provider's endpoint, `{hook_url}` the hook receiver.",
].join('\n');

/** The whole reference as Markdown: docs/CONTRACT.md. */
export function contractMarkdown(): string {
  const sections = contractSections();
  const toc = sections.map((s) => `- [${headingOf(s)}](#${anchorOf(s)})`).join('\n');
  return `${[HEADER, '## Contents', toc, ...sections.map((s) => sectionMarkdown(s))].join('\n\n')}\n`;
}

// ---- HTML ----

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Inline Markdown (code spans, bold, links) as HTML; everything else escaped. */
export function inlineHtml(text: string): string {
  return (
    escape(text)
      // A link to another page of docs/ names the file: the page shows the reference alone.
      .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, label: string, href: string) =>
        href.startsWith('#') ? `<a href="${href}">${label}</a>` : `${label} (docs/${href})`,
      )
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
      .replace(/\*([^*\s][^*]*)\*/g, '<em>$1</em>')
  );
}

function htmlTable(head: readonly string[], rows: readonly (readonly string[])[]): string {
  return `<table><thead><tr>${head.map((h) => `<th>${inlineHtml(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c) => `<td>${inlineHtml(c)}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

function htmlBlock(block: Block): string {
  switch (block.type) {
    case 'p':
      return `<p>${inlineHtml(block.text)}</p>`;
    case 'list':
      return `<ul>${block.items.map((i) => `<li>${inlineHtml(i)}</li>`).join('')}</ul>`;
    case 'table':
      return htmlTable(block.head, block.rows);
    case 'kind': {
      const table = fieldTable(block.kind, block.under);
      const id = kindAnchor(block.kind, block.under);
      const title =
        block.under === undefined
          ? `<code>${escape(block.kind)}</code>`
          : escape(block.title ?? block.under);
      const intro =
        block.under === undefined
          ? kindSummary(block.kind)
          : `As in \`${block.kind}\` (\`${block.under}\`).`;
      const named = block.under === undefined ? ` id="kind-${escape(block.kind)}"` : '';
      return `<div class="kind"${named} data-kind="${escape(block.under === undefined ? block.kind : `${block.kind} ${block.under}`)}"><h4 id="${id}">${title}</h4><p>${inlineHtml(intro)}</p>${htmlTable(table.head, table.rows)}</div>`;
    }
    default:
      throw new Error(`unknown block ${JSON.stringify(block)}`);
  }
}

function htmlSection(section: Section, depth: number): string {
  const level = Math.min(depth, 6);
  // `spec-2.5`: the id the web console's journal links a violation's citation to
  return `<section id="spec-${escape(section.id)}" data-section="${escape(section.id)}"><h${level} id="${anchorOf(section)}">${inlineHtml(headingOf(section))}</h${level}>${section.blocks
    .map(htmlBlock)
    .join('')}${section.sections.map((s) => htmlSection(s, depth + 1)).join('')}</section>`;
}

/** The reference as the body of an HTML page (no <html> around it). */
export function contractHtml(): string {
  return contractSections()
    .map((s) => htmlSection(s, 2))
    .join('');
}

/** Every section number and name, for lookups and tests. */
export function sectionIds(): string[] {
  return flatten(contractSections()).map((s) => s.id);
}

/** The kinds the reference has a field table for (every registered kind). */
export function documentedKinds(): string[] {
  const kinds = new Set<string>();
  for (const s of flatten(contractSections()))
    for (const b of s.blocks) if (b.type === 'kind' && b.under === undefined) kinds.add(b.kind);
  return [...KINDS.keys()].filter((k) => kinds.has(k));
}

export { slug };
