/**
 * `svc-cli explain <what>`: the part of the contract reference a message points at, as data.
 * A section number (`2.5`), a payload kind (`bot.event.BOT_MESSAGE`, or just `BOT_MESSAGE`), a
 * kind and a field path (`hook.chat_finished chat.messages`), a rule code (`type_drift`), an
 * error code (`SVC_E_UNTRUSTED_CERT`), an invariant (`hook-after-finish`) or a simulator mutant
 * (`duplicate-agent-message`).
 */
import { ERRORS, type ErrorCode } from '../error-codes.js';
import { ERROR_HELP } from '../error-help.js';
import { EXIT_CODES, SvcError } from '../errors.js';
import { KINDS } from '../contract/registry.js';
import { RULE_CODES, type RuleCode } from '../contract/rule-codes.js';
import { closestNames } from '../suggest.js';
import { ALL_INVARIANTS, INVARIANTS } from '../trace/invariants.js';
import { MUTANTS } from '../platform/mutants.js';
import { contractSections } from './contract.js';
import { fieldRows, type FieldRow } from './fields.js';
import { flatten, headingOf, type Section } from './model.js';
import { kindMarkdown, sectionMarkdown } from './render.js';

export type Explanation =
  | { topic: 'section'; section: string; title: string; text: string }
  | { topic: 'kind'; kind: string; section: string; text: string }
  | { topic: 'field'; kind: string; path: string; section: string; fields: FieldRow[] }
  | {
      topic: 'rule';
      code: string;
      section: string;
      summary: string;
      todo: string;
      severity: string;
    }
  | {
      topic: 'error';
      code: string;
      category: string;
      exitCode: number;
      summary: string;
      todo: string;
      section?: string;
    }
  | {
      topic: 'invariant';
      name: string;
      section: string;
      summary: string;
      /** the commands that check it */
      checkedBy: string[];
    }
  | {
      topic: 'mutant';
      name: string;
      family: string;
      section: string;
      /** what the simulator does instead */
      deviation: string;
      /** what a suite that stays green under it does not check, and what would kill it */
      survivor: string;
      /** the coverage items a run must exercise to observe it */
      exercisedBy: string[];
    }
  | {
      /** `svc-cli explain` with no argument: what it can explain */
      topic: 'topics';
      groups: TopicGroup[];
    };

/** One kind of name explain answers to, with an example. */
export interface TopicGroup {
  group: string;
  example: string;
}

/**
 * The kinds of names explain answers to, each with an example (`svc-cli explain` alone).
 * @example explainGroups()[0] // { group: 'sections 1 to 9', example: '2.5' }
 */
export function explainGroups(): TopicGroup[] {
  const numbered = [...sectionsById().keys()].filter((id) => /^\d+$/.test(id));
  return [
    { group: `sections ${numbered[0] ?? 1} to ${numbered.at(-1) ?? ''}`, example: '2.5' },
    { group: 'payload kinds', example: 'bot.event.BOT_MESSAGE' },
    { group: "a kind's field", example: 'hook.chat_finished chat.messages' },
    { group: 'rule codes', example: 'type_drift' },
    { group: 'every rule code', example: 'rules' },
    { group: 'invariants', example: 'hook-after-finish' },
    { group: 'every invariant', example: 'invariants' },
    { group: 'error codes', example: 'SVC_E_UNTRUSTED_CERT' },
    { group: 'simulator mutants', example: 'duplicate-agent-message' },
    { group: 'every mutant', example: 'mutants' },
    { group: 'assumptions', example: 'assumptions' },
  ];
}

/**
 * A path without its array marks (`buttons[3].id`, `buttons[].id` -> `buttons.id`): messages
 * write indexes, the reference writes `[]`, and a shell would read either as a pattern.
 */
const bare = (path: string): string => path.replace(/\[\d*\]/g, '').replace(/^\$\.?/, '');

function sectionsById(): Map<string, Section> {
  return new Map(flatten(contractSections()).map((s) => [s.id, s]));
}

/** A kind named in full, or by its last segments when only one kind ends so (`BOT_MESSAGE`). */
function findKind(name: string): string | undefined {
  if (KINDS.has(name)) return name;
  const matches = [...KINDS.keys()].filter((k) => k.endsWith(`.${name}`));
  return matches.length === 1 ? matches[0] : undefined;
}

/** The invariants on a whole run (not in INVARIANTS, the rules on one chat). */
const RUN_INVARIANT_NAMES = new Set<string>(
  ALL_INVARIANTS.filter((i) => !INVARIANTS.includes(i as (typeof INVARIANTS)[number])).map(
    (i) => i.name,
  ),
);

/**
 * The commands that check an invariant: a rule on the whole run reads records outside any
 * chat, which trace, report and proxy drop; callback-order needs a page (replay's page steps,
 * conform platform's page case against an svc simulator, a recording with widget traffic: the
 * proxy has no widget leg);
 * conform bot judges the bot's side of two (src/trace/peer-rules.ts).
 */
function checkedBy(name: string): string[] {
  if (RUN_INVARIANT_NAMES.has(name)) return ['replay', 'conform platform'];
  if (name === 'callback-order') return ['replay', 'conform platform', 'trace', 'report'];
  const bot =
    name === 'bot-after-close' || name === 'handover-budget'
      ? ["conform bot (the bot's side)"]
      : [];
  return ['replay', 'conform platform', ...bot, 'proxy', 'trace', 'report'];
}

/** Every name explain answers to, for suggestions and the catalogue test. */
export function explainTopics(): string[] {
  return [
    ...sectionsById().keys(),
    ...KINDS.keys(),
    ...Object.keys(RULE_CODES),
    ...Object.keys(ERRORS),
    ...ALL_INVARIANTS.map((i) => i.name),
    ...MUTANTS.map((m) => m.name),
  ];
}

/** A section number as messages write it: `9.9`, `2`. */
const SECTION_LIKE = /^\d+(\.\d+)*\.?$/;

/**
 * The numbered sections nearest `what` by number: those of the same chapter by distance, or
 * the chapters nearest it (`9.9` -> 9, 8; `2.9` -> 2.6, 2.5, 2.4).
 */
function nearestSections(what: string): string[] {
  const [major = 0, minor = 0] = what.replace(/\.$/, '').split('.').map(Number);
  const numbered = [...sectionsById().keys()].filter((id) => /^\d+(\.\d+)?$/.test(id));
  const position = (id: string): [number, number] => {
    const [a = 0, b = 0] = id.split('.').map(Number);
    return [a, b];
  };
  const distance = (id: string): number => {
    const [a, b] = position(id);
    return Math.abs(a - major) * 1000 + (a === major ? Math.abs(b - minor) : b);
  };
  return [...numbered].sort((x, y) => distance(x) - distance(y)).slice(0, 3);
}

/** What explain answers to, one group a line, for a name that matched nothing. */
const topicsList = (): string => {
  const groups = explainGroups();
  const wide = Math.max(...groups.map((g) => g.group.length));
  return groups.map((g) => `\n    ${g.group.padEnd(wide)}  svc-cli explain ${g.example}`).join('');
};

/** How far a typed word may be from a name to be suggested: a third of it, at least 2. */
const closeEnough = (word: string): number => Math.max(2, Math.floor(word.length / 3));

/** The text of a section's own blocks (not its subsections'), for a word search. */
function ownText(section: Section): string {
  return section.blocks
    .map((block) =>
      block.type === 'p'
        ? block.text
        : block.type === 'list'
          ? block.items.join(' ')
          : block.type === 'table'
            ? [...block.head, ...block.rows.flat()].join(' ')
            : `${block.kind} ${block.title ?? ''}`,
    )
    .join(' ');
}

/**
 * The sections whose heading or text holds `word` (a word of 4 letters or more, as a word's
 * start: `redeliver` finds "redelivery"), those naming it in their heading first, then by
 * how often their text does; at most 5.
 * @example sectionsMentioning('redelivery') // ['2.2', '8', ...]
 */
function sectionsMentioning(word: string): string[] {
  const typed = word.trim().toLowerCase();
  if (!/^[\p{L}][\p{L}\p{N}_-]{3,}$/u.test(typed)) return [];
  // letters, digits, `_` and `-` only (checked above): nothing to escape
  const pattern = `(?<![\\p{L}\\p{N}_])${typed}`;
  const inHeading = new RegExp(pattern, 'iu');
  const everywhere = new RegExp(pattern, 'giu');
  return flatten(contractSections())
    .filter((s) => /^\d/.test(s.id))
    .map((s) => ({
      id: s.id,
      inTitle: inHeading.test(s.title) ? 1 : 0,
      count: (ownText(s).match(everywhere) ?? []).length,
    }))
    .filter((s) => s.inTitle + s.count > 0)
    .sort((a, b) => b.inTitle - a.inTitle || b.count - a.count)
    .slice(0, 5)
    .map((s) => s.id);
}

function unknown(what: string, known: Iterable<string>, kind?: string): never {
  const section = kind === undefined && SECTION_LIKE.test(what);
  const suggestions = section
    ? nearestSections(what)
    : closestNames(what, known, { limit: 3, maxDistance: closeEnough(what) });
  // a plain word (redelivery, timeout): where the contract speaks of it
  const mentioned = kind === undefined && !section ? sectionsMentioning(what) : [];
  const sectionsLine =
    mentioned.length > 0
      ? `\n  The contract speaks of "${what}" in: ${mentioned
          .map((id) => headingOf(sectionsById().get(id)!))
          .join('; ')} (svc-cli explain ${mentioned[0]}).`
      : '';
  const numbered = [...sectionsById().keys()].filter((id) => /^\d+$/.test(id));
  const hint = section
    ? `The spec has sections ${numbered[0] ?? 1} to ${numbered.at(-1) ?? ''}; the nearest: ${suggestions.join(', ')}.`
    : suggestions.length > 0
      ? `Did you mean ${suggestions.map((s) => (kind === undefined ? s : `${kind} ${s}`)).join(', ')}?`
      : kind === undefined
        ? `Nothing matched; svc-cli explain answers to:${topicsList()}`
        : `Nothing is close to it; the fields: svc-cli explain ${kind}.`;
  const fullHint =
    mentioned.length > 0 && suggestions.length === 0
      ? sectionsLine.trimStart()
      : `${hint}${sectionsLine}`;
  throw new SvcError(
    'SVC_E_UNKNOWN_TOPIC',
    section
      ? `Could not explain ${JSON.stringify(what)}: the spec has no such section.`
      : kind === undefined
        ? `Could not explain ${JSON.stringify(what)}: it is no section, kind, rule code, error code, invariant or mutant.`
        : `Could not explain ${JSON.stringify(what)}: ${kind} has no such field.`,
    fullHint,
    { details: { suggestions, ...(mentioned.length > 0 ? { sections: mentioned } : {}) } },
  );
}

/**
 * What the reference says about `words` (the command's arguments).
 * @example explain(['hook.chat_finished', 'chat.messages'])
 */
export function explain(words: readonly string[]): Explanation {
  // "6.2 note", as the messages cite a section's note, may come quoted as one word
  // a page script method as the page calls it (svc_api.startCall) is the method the contract names
  const split = words
    .flatMap((w) => w.trim().split(/\s+/))
    .map((w) => w.replace(/^(?:window\.)?svc_api\.(?=\w)/, ''));
  const args = split[0]?.toLowerCase() === 'spec' ? split.slice(1) : split;
  const [first, second] = args;
  // no argument: what it can explain
  if (first === undefined || first === '') return { topic: 'topics', groups: explainGroups() };
  const sections = sectionsById();
  const id = first.replace(/[.:]$/, '');
  const section = sections.get(id) ?? sections.get(id.toLowerCase());
  if (section !== undefined && (second === undefined || second.toLowerCase() === 'note'))
    return {
      topic: 'section',
      section: section.id,
      title: headingOf(section),
      text: sectionMarkdown(section),
    };
  // a section and a word after it: the word is what is not understood, not the section
  if (section !== undefined && second !== undefined)
    throw new SvcError(
      'SVC_E_UNKNOWN_TOPIC',
      `Could not explain ${JSON.stringify(args.join(' '))}: a section takes no second word (${JSON.stringify(second)}).`,
      `svc-cli explain ${section.id} prints the section; a field is explained after its payload kind: svc-cli explain hook.chat_finished chat.messages.`,
    );
  const kind = findKind(first);
  if (kind !== undefined) {
    const entry = KINDS.get(kind)!;
    if (second === undefined)
      return { topic: 'kind', kind, section: entry.spec, text: kindMarkdown(kind) };
    const path = bare(second);
    const rows = fieldRows(kind);
    const fields = rows.filter((r) => bare(r.path) === path || bare(r.path).startsWith(`${path}.`));
    if (fields.length === 0)
      unknown(
        second,
        rows.map((r) => bare(r.path)),
        kind,
      );
    return { topic: 'field', kind, path: fields[0]!.path, section: entry.spec, fields };
  }
  const upper = first.toUpperCase();
  if (Object.hasOwn(ERRORS, upper)) {
    const code = upper as ErrorCode;
    const category = ERRORS[code].category;
    const help = ERROR_HELP[code];
    return {
      topic: 'error',
      code,
      category,
      exitCode: EXIT_CODES[category],
      summary: help.summary,
      todo: help.todo,
      ...(help.spec === undefined ? {} : { section: help.spec }),
    };
  }
  const rule = first.replace(/^warn:/, '').toLowerCase();
  if (Object.hasOwn(RULE_CODES, rule)) {
    const info = RULE_CODES[rule as RuleCode];
    return {
      topic: 'rule',
      code: rule,
      section: info.spec,
      summary: info.summary,
      todo: info.todo,
      severity: info.severity,
    };
  }
  const invariant = ALL_INVARIANTS.find((i) => i.name === first.toLowerCase());
  if (invariant !== undefined)
    return {
      topic: 'invariant',
      name: invariant.name,
      section: invariant.spec,
      summary: invariant.summary,
      checkedBy: checkedBy(invariant.name),
    };
  const mutant = MUTANTS.find((m) => m.name === first.toLowerCase());
  if (mutant !== undefined)
    return {
      topic: 'mutant',
      name: mutant.name,
      family: mutant.family,
      section: mutant.spec,
      deviation: mutant.deviation,
      survivor: mutant.survivor,
      exercisedBy: [...mutant.exercisedBy],
    };
  return unknown(first, explainTopics());
}
