/**
 * The contract reference as data: numbered sections holding paragraphs, lists, tables and the
 * field tables of payload kinds. docs/CONTRACT.md, the web console's `/_sim/docs` page and
 * `svc-cli explain` all render this one model.
 */

/** Inline text: Markdown's `code`, **bold** and [links](#anchor) only. */
export type Block =
  | { type: 'p'; text: string }
  | { type: 'list'; items: string[] }
  | { type: 'table'; head: string[]; rows: string[][] }
  /** the field table of a payload kind, with its header line */
  | { type: 'kind'; kind: string; under?: string; title?: string };

export interface Section {
  /** the number messages cite: `2.5`, `8`; an appendix has a name instead (`rules`) */
  id: string;
  title: string;
  blocks: Block[];
  sections: Section[];
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** The heading text of a section: `2.5 Bot events and messages`, `8. Limits and timing`. */
export function headingOf(section: Section): string {
  if (!/^\d/.test(section.id)) return section.title;
  return section.id.includes('.')
    ? `${section.id} ${section.title}`
    : `${section.id}. ${section.title}`;
}

/** The anchor of a section inside docs/CONTRACT.md. */
export const anchorOf = (section: Section): string => slug(headingOf(section));

/** The anchor of a kind's field table (or of one object inside it). */
export const kindAnchor = (kind: string, under?: string): string =>
  slug(under === undefined ? kind : `${kind} ${under}`);

/** Every section, depth first. */
export function flatten(sections: readonly Section[]): Section[] {
  return sections.flatMap((s) => [s, ...flatten(s.sections)]);
}
