import { existsSync } from 'node:fs';
import { readFile, readdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { z } from 'zod';
import { detectKind } from '../contract/detect.js';
import { DOCS_HOOK_EVENTS, HOOK_EVENTS } from '../contract/hooks.js';
import { issueLine } from '../issue-words.js';
import { parseJsonText } from '../contract/json-text.js';
import { WIDGET_CALLBACKS } from '../contract/widget-protocol.js';
import { readDuration } from '../duration.js';
import { SvcError } from '../errors.js';
import { unreadableFile } from '../io/input-file.js';
import { closestNames } from '../suggest.js';
import { unknownKeyLines } from '../unknown-keys.js';
import { versionProblem, type VersionedKind } from '../versioned.js';
import { CONVERSATION_VERSION, conversationSchema, type Conversation } from './format.js';
import { findRefs } from './match.js';
import { packageFiles } from '../package-files.js';

/** The conversations `replay` runs without a path, and `load --mix` names in the docs. */
export const DEFAULT_CONVERSATIONS = 'fixtures/conversations';

/**
 * `fixtures/conversations` of the working folder, else the conversations shipped in the
 * package: the docs' commands work in a project that installed svc-cli (and the single binary,
 * from a copy of its assets: a fixture names files beside it, bot scripts).
 * @example localOrShippedConversations('/tmp') // { path: '/…/svc-cli/fixtures/conversations', shipped: true }
 */
export function localOrShippedConversations(cwd: string): { path: string; shipped: boolean } {
  const local = resolve(cwd, DEFAULT_CONVERSATIONS);
  if (existsSync(local)) return { path: local, shipped: false };
  return { path: packageFiles().folderOf(DEFAULT_CONVERSATIONS), shipped: true };
}

export interface LoadedConversation {
  /** as results and repro lines name it (shownFile) */
  file: string;
  /** the folder it is in, where the paths it names (a bot script) resolve */
  dir: string;
  conversation: Conversation;
}

/** A file to load: named on the command line, or found in a folder named there. */
interface Found {
  path: string;
  inFolder: boolean;
}

async function walk(
  path: string,
  out: Found[],
  inFolder = false,
  seen = new Set<string>(),
): Promise<void> {
  let info;
  try {
    info = await stat(path);
  } catch (error) {
    // in a folder: a dangling link, a symlink loop (ELOOP) or a file gone is passed over;
    // a path named on the command line: the caller says what it wanted (unreadableFile)
    if (inFolder) return;
    throw error;
  }
  if (info.isDirectory()) {
    // a link back up the tree (dir/self -> .) is walked once, not until ELOOP
    const real = await realpath(path).catch(() => path);
    if (seen.has(real)) return;
    seen.add(real);
    let entries: string[];
    try {
      entries = (await readdir(path)).sort();
    } catch (error) {
      if (inFolder) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.startsWith('.') || entry === 'node_modules') continue;
      const full = join(path, entry);
      const s = await stat(full).catch(() => undefined);
      if (s?.isDirectory() || (s !== undefined && entry.endsWith('.json')))
        await walk(full, out, true, seen);
    }
  } else {
    out.push({ path, inFolder });
  }
}

/**
 * True for JSON that is some other file than a conversation: not an object, or an object
 * with no "steps" and either no "version" (a payload, a hook reply) or a "$schema" of another
 * svc-cli format (a bot script). A folder of fixtures holds those beside its conversations (svc-cli's own
 * `fixtures` does); a conversation with a typo still has its "version", and is loaded, so
 * the typo is named.
 */
function isOtherKind(json: unknown): boolean {
  // a number, a string, an array: a payload or an expected answer, never a conversation
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return true;
  if ('steps' in json) return false;
  const schema = (json as { $schema?: unknown }).$schema;
  if (typeof schema === 'string' && /\.schema\.json$/.test(schema))
    return !schema.endsWith('conversation.schema.json');
  return !('version' in json);
}

const CONVERSATION_SCHEMA_FILE = 'schemas/conversation.schema.json';

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

const CONVERSATION_KIND: VersionedKind = {
  shape: 'a conversation fixture is one JSON object with "version": 1, "name" and "steps"',
  example: `examples ship in svc-cli's fixtures/conversations folder (bot-timeout.json); the format is ${CONVERSATION_SCHEMA_FILE}`,
};

/** What a step may hold (format.ts): anything else is a typo, named with its closest key. */
const STEP_KEYS = [
  'name',
  'customer',
  'agent',
  'agents',
  'close',
  'control',
  'bot',
  'redeliver',
  'page',
  'advance',
  'expect',
  'response',
  'delivery',
];

/**
 * A path's step index counts from 0 (JSON's), where replay numbers its steps from 1: said once
 * when a problem names a step, so `steps.1` is found as the second.
 */
const STEPS_FROM_ZERO = (issues: readonly string[]): string => {
  const first = issues.map((line) => /^steps\.(\d+)/.exec(line)?.[1]).find((n) => n !== undefined);
  return first === undefined
    ? ''
    : `steps.${first} counts from 0: it is the step replay shows as "${Number(first) + 1}.". `;
};

/** Keys of an expectation that a step may be given by mistake. */
const EXPECT_KEYS = ['within', 'absent', 'answers'];
/** Keys of a page step that a step may be given by mistake (`result` beside `page`). */
const PAGE_KEYS = ['say', 'call', 'api', 'args', 'contacts', 'result'];

/** The key that says what a step does; a step holds exactly one (format.ts stepSchema). */
const STEP_KINDS = STEP_KEYS.filter((key) => !['name', 'response', 'delivery'].includes(key));
/** What a step's `response` or `delivery` checks, and the kinds of step that take it. */
const CHECKS: Record<string, { of: string; kinds: string[] }> = {
  response: {
    of: 'the answer to a customer, control, bot or redeliver step',
    kinds: ['customer', 'control', 'bot', 'redeliver'],
  },
  delivery: { of: 'the delivery verdict of an agent step', kinds: ['agent'] },
};
const quoted = (keys: readonly string[]): string => keys.map((k) => `"${k}"`).join(', ');
const listed = (keys: readonly string[]): string =>
  keys.length < 2
    ? quoted(keys)
    : `${quoted(keys.slice(0, -1))} and "${keys[keys.length - 1] ?? ''}"`;

/**
 * A step with no kind, two kinds, or a check its kind does not take. zod tried every step
 * shape and named a key of the wrong one ("close: unknown key (did you mean "close"?)"),
 * or an "agents" option for a step that is no agents step at all.
 */
function stepKindProblem(step: object, index: number): string | undefined {
  const keys = Object.keys(step);
  const kinds = keys.filter((key) => STEP_KINDS.includes(key));
  if (kinds.length > 1)
    return `steps.${index}: holds ${listed(kinds)}, and a step does one thing (write one step each)`;
  const kind = kinds[0];
  if (kind === undefined) {
    // an unknown key is named instead, with its closest (a typo of the kind, "custmer")
    if (keys.some((key) => !STEP_KEYS.includes(key))) return undefined;
    return `steps.${index}: says no kind of step (one of ${quoted(STEP_KINDS)})`;
  }
  for (const [key, check] of Object.entries(CHECKS)) {
    if (!keys.includes(key) || check.kinds.includes(kind)) continue;
    const own = Object.keys(CHECKS).find((other) => CHECKS[other]?.kinds.includes(kind));
    return `steps.${index}: "${key}" checks ${check.of}; this is ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind} step, ${
      own === undefined ? 'which takes no check' : `checked with "${own}"`
    }`;
  }
  return undefined;
}

function unknownStepKeys(json: unknown): string[] {
  const steps = (json as { steps?: unknown } | null)?.steps;
  if (!Array.isArray(steps)) return [];
  return steps.flatMap((step: unknown, index) => {
    if (step === null || typeof step !== 'object' || Array.isArray(step)) return [];
    const kindProblem = stepKindProblem(step, index);
    if (kindProblem !== undefined) return [kindProblem];
    return Object.keys(step)
      .filter((key) => !STEP_KEYS.includes(key))
      .map((key) => {
        if (EXPECT_KEYS.includes(key))
          return `steps.${index}: unknown key "${key}" (it belongs inside "expect")`;
        if (PAGE_KEYS.includes(key) && 'page' in step)
          return `steps.${index}: unknown key "${key}" (it belongs inside "page")`;
        const near = closestNames(key, STEP_KEYS, { maxDistance: 3 })[0];
        return `steps.${index}: unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}`;
      });
  });
}

interface LoadIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
  errors?: LoadIssue[][];
  /** an `invalid_value` issue's allowed values (an enum: svc_api's methods) */
  values?: unknown[];
}

/**
 * A value none of an enum's names (`"startcall"` for a page step's `api`): named with the one
 * it is closest to, rather than all of them; undefined when it is near none.
 */
function optionTypo(issue: LoadIssue, json: unknown): string | undefined {
  if (issue.code !== 'invalid_value' || !issue.values?.every((v) => typeof v === 'string'))
    return undefined;
  const given = issue.path.reduce<unknown>(
    (at, key) => (at !== null && typeof at === 'object' ? (at as never)[key] : undefined),
    json,
  );
  if (typeof given !== 'string') return undefined;
  const near = closestNames(given, issue.values, { maxDistance: 3 })[0];
  return near === undefined
    ? undefined
    : `${issue.path.join('.')}: "${given}" is not one of the names it takes (did you mean "${near}"?)`;
}

/**
 * How far a shape is from the step itself: its key is missing (`customer: received
 * undefined`) or the step holds keys it does not take. The step's own shape has neither.
 */
const shapeMisses = (issues: readonly LoadIssue[]): number =>
  issues.filter(
    (i) =>
      (i.path.length === 0 && i.code === 'unrecognized_keys') ||
      (i.path.length === 1 && i.code === 'invalid_type' && /received undefined/.test(i.message)),
  ).length;

/**
 * A step that fits none of the step shapes is one zod issue, "Invalid input": the shape of
 * the step's own key (`control` for a control step), else the one with the fewest issues,
 * says what is wrong, with the whole path (`steps.3.customer.sender.id: expected string`).
 */
function closestBranch(issue: LoadIssue): LoadIssue[] {
  if (issue.code !== 'invalid_union' || !issue.errors || issue.errors.length === 0) return [issue];
  // a union with a message of its own (a duration: ms or "2s") says it better than a branch
  if (!issue.message.startsWith('Invalid input')) return [issue];
  const best =
    [...issue.errors].sort((a, b) => shapeMisses(a) - shapeMisses(b) || a.length - b.length)[0] ??
    [];
  if (best.length === 0) return [issue];
  return best.flatMap((inner) => closestBranch({ ...inner, path: [...issue.path, ...inner.path] }));
}

/**
 * `${name.path}` references and `after` names that read no earlier step: a name no step has,
 * this step's own or a later one's. At run time a reference reads as undefined and an
 * `after` fails its step, far from the typo (`message.id: expected undefined`); here each is
 * named with the step names closest.
 */
function badReferences(conversation: Conversation): string[] {
  const names = conversation.steps.map((step) => step.name);
  return conversation.steps.flatMap((step, index) => {
    const earlier = names.slice(0, index).filter((name) => name !== undefined);
    const notEarlier = (at: string, name: string): string => {
      const later = names.indexOf(name, index);
      if (later === index) return `${at} reads step "${name}", this step itself`;
      if (later > index) return `${at} reads step "${name}", which comes later (steps.${later})`;
      const near = closestNames(name, earlier, {
        maxDistance: Math.max(2, Math.ceil(name.length / 3)),
      })[0];
      return `${at} names no step "${name}"${
        near !== undefined
          ? ` (did you mean "${near}"?)`
          : earlier.length === 0
            ? ' (no step before it has a name)'
            : ` (the named steps before it: ${earlier.map((n) => `"${n}"`).join(', ')})`
      }`;
    };
    const found = findRefs(step)
      .filter((ref) => !earlier.includes(ref.step))
      .map(({ path, ref, step: name }) =>
        notEarlier(`steps.${index}${path ? `.${path}` : ''}: "\${${ref}}"`, name),
      );
    const after = 'expect' in step ? step.expect.after : undefined;
    if (after !== undefined && !earlier.includes(after))
      found.push(notEarlier(`steps.${index}.expect.after:`, after));
    return found;
  });
}

/** What an expectation waits for: one of these names it (the runner's expectStep). */
const EXPECTED_PARTIES = [
  'integrator',
  'bot',
  'hook',
  'event',
  'page',
  'order',
  'answers',
] as const;

/** The delivery verdicts a step's `delivery` may expect (the platform's delivery-done). */
const DELIVERY_RESULTS = ['delivered', 'error-reply', 'failed', 'interrupted'];
/** The hook events an expectation may name (spec 6.2, the docs' two, the field table's). */
const HOOK_NAMES: readonly string[] = [...HOOK_EVENTS, ...DOCS_HOOK_EVENTS, 'offline_messages'];
const CALLBACK_NAMES: readonly string[] = WIDGET_CALLBACKS;

const isReference = (value: unknown): boolean =>
  typeof value === 'string' && /^\$\{[^}]+\}$/.test(value);

/** `"deliverd" is no delivery result ... (did you mean "delivered"?)`, or nothing when known. */
function unknownName(at: string, value: unknown, what: string, known: readonly string[]): string[] {
  if (typeof value !== 'string' || isReference(value) || known.includes(value)) return [];
  const near = closestNames(value, known, { maxDistance: 3 })[0];
  return [
    `${at}: "${value}" is no ${what}${near ? ` (did you mean "${near}"?)` : ` (one of ${known.join(', ')})`}`,
  ];
}

/**
 * Values the schema takes as any JSON but the run reads as names or numbers: a misspelt
 * delivery result, hook event or callback, a duration where ms are counted. Each made the
 * step fail (or wait its whole budget) far from the typo; here each is named at load.
 */
function badValues(conversation: Conversation): string[] {
  return conversation.steps.flatMap((step, index) => {
    const at = `steps.${index}`;
    const found: string[] = [];
    if ('delivery' in step && step.delivery !== null && typeof step.delivery === 'object') {
      const delivery = step.delivery;
      found.push(
        ...unknownName(
          `${at}.delivery.result`,
          delivery.result,
          'delivery result',
          DELIVERY_RESULTS,
        ),
      );
      for (const key of ['attempts', 'elapsedMs']) {
        const value = delivery[key];
        if (!(key in delivery) || typeof value === 'number' || isReference(value)) continue;
        const ms = typeof value === 'string' ? readDuration(value, 'ms') : undefined;
        found.push(
          `${at}.delivery.${key}: ${JSON.stringify(value)} is not a number${
            key === 'elapsedMs' && ms !== undefined ? ` (protocol ms: write ${ms})` : ''
          }`,
        );
      }
    }
    if ('expect' in step) {
      const expected = step.expect;
      // the schema takes every key as optional: one that names nothing to wait for failed at
      // run time, after the steps before it had run
      const named = EXPECTED_PARTIES.filter((key) => expected[key] !== undefined);
      if (named.length === 0)
        found.push(
          `${at}.expect: names nothing to expect (one of ${EXPECTED_PARTIES.map((k) => `"${k}"`).join(', ')})`,
        );
      // the run waits for the first alone (runner's expectStep): the others were never checked
      if (named.length > 1)
        found.push(
          `${at}.expect: names ${listed(named)}, and an expectation waits for one (write one expect step each)`,
        );
      const hook = expected.hook;
      const hookName =
        hook !== null && typeof hook === 'object'
          ? (hook as { event_name?: unknown }).event_name
          : hook;
      found.push(
        ...unknownName(`${at}.expect.hook`, hookName, 'hook event (spec 6.2)', HOOK_NAMES),
      );
      const page = expected.page;
      const callback =
        page !== null && typeof page === 'object' ? (page as { name?: unknown }).name : page;
      found.push(
        ...unknownName(`${at}.expect.page`, callback, 'page callback (spec 6.4)', CALLBACK_NAMES),
      );
      for (const [i, entry] of (expected.order ?? []).entries()) {
        const [party, name] = [
          entry.slice(0, entry.indexOf(':')),
          entry.slice(entry.indexOf(':') + 1),
        ];
        if (party === 'hook')
          found.push(
            ...unknownName(`${at}.expect.order.${i}`, name, 'hook event (spec 6.2)', HOOK_NAMES),
          );
        if (party === 'page')
          found.push(
            ...unknownName(
              `${at}.expect.order.${i}`,
              name,
              'page callback (spec 6.4)',
              CALLBACK_NAMES,
            ),
          );
      }
    }
    return found;
  });
}

/** Reads and checks one conversation file; every problem is an input error naming the file. */
/**
 * What a recording is by its first line: a journal (NDJSON exchange records) or a HAR; else
 * undefined. Replaying one is the step after `record to-fixture`, easily taken first.
 */
function recordingKind(text: string): string | undefined {
  const start = text.trimStart();
  if (/^\{\s*"log"\s*:/.test(start)) return 'a HAR recording';
  const first = start.slice(0, start.indexOf('\n') === -1 ? undefined : start.indexOf('\n'));
  if (!first.includes('"type":"exchange"')) return undefined;
  try {
    const record = JSON.parse(first) as { type?: unknown; request?: unknown };
    return record.type === 'exchange' && typeof record.request === 'object'
      ? 'a journal (NDJSON exchange records)'
      : undefined;
  } catch {
    return undefined;
  }
}

export async function loadConversation(path: string, file = path): Promise<Conversation> {
  return (await loadIfConversation(path, file, false)) as Conversation;
}

/**
 * `loadConversation`, but with `skipOtherKinds` a file that is another kind of JSON
 * (isOtherKind) is undefined instead of an error.
 */
async function loadIfConversation(
  path: string,
  file: string,
  skipOtherKinds: boolean,
): Promise<Conversation | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw unreadableFile({ kind: 'conversation', given: file, path }, error);
  }
  const recording = recordingKind(text);
  if (recording !== undefined && skipOtherKinds) return undefined;
  if (recording !== undefined)
    throw new SvcError(
      'SVC_E_CONVERSATION',
      `Could not load ${file}: it is ${recording} (what --record writes), not a conversation.`,
      `Turn it into one, then replay that: svc-cli record to-fixture ${file} --out conversation.json`,
    );
  const parsedText = parseJsonText(text);
  if (!parsedText.ok) {
    throw new SvcError(
      'SVC_E_CONVERSATION',
      `Could not parse ${file}:${parsedText.line}:${parsedText.column}: ${parsedText.message}.`,
      'Fix the JSON at that line and column.',
    );
  }
  const json = parsedText.value;
  if (skipOtherKinds && isOtherKind(json)) return undefined;
  // a payload (what validate takes) is no conversation to add a "version" to: say so
  const payloadKind =
    isOtherKind(json) && !(typeof json === 'object' && json !== null && 'version' in json)
      ? detectKind(json).kind
      : undefined;
  if (payloadKind !== undefined)
    throw new SvcError(
      'SVC_E_CONVERSATION',
      `Could not load ${file}: it is a payload (${payloadKind}), not a conversation.`,
      `Check a payload with: svc-cli validate ${file}. ${capitalize(CONVERSATION_KIND.shape)}; ${CONVERSATION_KIND.example}.`,
    );
  // an array, an object without "version": say what the file is not (a number above the one
  // read here is the only case for an upgrade)
  const wrong = versionProblem(json, CONVERSATION_VERSION, CONVERSATION_KIND);
  if (wrong) {
    throw new SvcError(
      wrong.about === 'shape' ? 'SVC_E_CONVERSATION' : 'SVC_E_CONVERSATION_VERSION',
      `Could not load ${file}: ${wrong.problem}.`,
      wrong.hint,
    );
  }
  const parsed = conversationSchema.safeParse(json);
  if (!parsed.success) {
    // a step is one of several shapes, and zod says only "Invalid input" when none fits: an
    // unknown key is named first, with the key it is closest to
    const unknown = unknownStepKeys(json);
    const issues = [
      ...unknown,
      ...(parsed.error.issues as LoadIssue[])
        .flatMap(closestBranch)
        // a step with an unknown key is named above; what zod says of it follows from that
        .filter((i) => {
          const step = i.path.slice(0, 2).join('.');
          return !(i.path[0] === 'steps' && unknown.some((line) => line.startsWith(`${step}: `)));
        })
        .map((i) =>
          i.code === 'unrecognized_keys'
            ? unknownKeyLines(conversationSchema, [i as z.core.$ZodIssue], json).join('; ')
            : (optionTypo(i, json) ?? issueLine(i)),
        ),
    ].slice(0, 5);
    throw new SvcError(
      'SVC_E_CONVERSATION',
      `Could not load ${file}: ${issues.join('; ')}.`,
      `${STEPS_FROM_ZERO(issues)}The format is the JSON Schema ${CONVERSATION_SCHEMA_FILE} of svc-cli; "$schema" in a fixture gives editors completion.`,
    );
  }
  const values = badValues(parsed.data);
  if (values.length > 0)
    throw new SvcError(
      'SVC_E_CONVERSATION',
      `Could not load ${file}: ${values.slice(0, 5).join('; ')}.`,
      'svc-cli explain lists the names: svc-cli explain 6.2 (hook events), 6.4 (page callbacks), 8 (delivery).',
    );
  const references = badReferences(parsed.data);
  if (references.length > 0)
    throw new SvcError(
      'SVC_E_CONVERSATION',
      `Could not load ${file}: ${references.slice(0, 5).join('; ')}.`,
      'A "${name.path}" reference and an expectation\'s "after" read an earlier step given that "name" (docs/replay.md).',
    );
  return parsed.data;
}

/**
 * Loads every conversation under the given files and folders (recursive, *.json), sorted.
 * @example const all = await loadConversations(['fixtures/conversations']);
 */
export async function loadConversations(
  paths: string[],
  cwd = process.cwd(),
): Promise<LoadedConversation[]> {
  const { loaded, failures } = await loadEveryConversation(paths, cwd);
  if (failures[0]) throw failures[0].error;
  return loaded;
}

/**
 * A file as the results and repro commands name it: relative to `cwd`; a shipped fixture
 * outside it (the single binary's copies under $TMPDIR, a global install) as
 * `fixtures/...`, which `svc-cli replay` finds again (localOrShippedFixture), unless the
 * working folder has a file of that name.
 * @example shownFile('/home/ann', '/tmp/svc-cli-0/files-1a/fixtures/conversations/x.json') // 'fixtures/conversations/x.json'
 */
export function shownFile(cwd: string, path: string, files = packageFiles()): string {
  const rel = relative(cwd, path) || path;
  if (!rel.startsWith('..')) return rel;
  const inShipped = relative(files.folderOf('fixtures'), path);
  if (inShipped === '' || inShipped.startsWith('..') || isAbsolute(inShipped)) return rel;
  const named = ['fixtures', ...inShipped.split(sep)].join('/');
  return existsSync(join(cwd, named)) ? rel : named;
}

export interface ConversationLoadFailure {
  file: string;
  error: SvcError;
}

/**
 * Loads every conversation it can and reports each file it cannot (one broken
 * fixture does not hide the others' results, nor the other broken ones).
 * @example const { loaded, failures } = await loadEveryConversation(['fixtures/conversations']);
 */
export async function loadEveryConversation(
  paths: string[],
  cwd = process.cwd(),
): Promise<{
  loaded: LoadedConversation[];
  failures: ConversationLoadFailure[];
  /** JSON files found in a folder that are another kind (payloads, bot scripts), not loaded */
  skipped: string[];
}> {
  const files: Found[] = [];
  for (const given of paths) {
    const path = resolve(cwd, given);
    try {
      await walk(path, files);
    } catch (error) {
      throw unreadableFile({ kind: 'conversation', given, cwd, path }, error);
    }
  }
  const loaded: LoadedConversation[] = [];
  const failures: ConversationLoadFailure[] = [];
  const skipped: string[] = [];
  for (const { path, inFolder } of files) {
    const file = shownFile(cwd, path);
    try {
      const conversation = await loadIfConversation(path, file, inFolder);
      if (conversation === undefined) skipped.push(file);
      else loaded.push({ file, dir: dirname(resolve(cwd, path)), conversation });
    } catch (error) {
      if (!(error instanceof SvcError)) throw error;
      failures.push({ file, error });
    }
  }
  return { loaded, failures, skipped };
}
