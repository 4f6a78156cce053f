/**
 * validate / validateAuto: a value and a kind in, a ValidationResult out. Never throws on
 * bad data; only an unknown kind name is an (input) error.
 */
import type { z } from 'zod';
import { closestNames } from '../suggest.js';
import { SvcError } from '../errors.js';
import { detectKind } from './detect.js';
import { collectIssues, formatPath } from './issues.js';
import { DRIFT_TOLERATED, TYPE_DRIFT } from './rules.js';
import { KINDS, suggestKinds, type KindEntry } from './registry.js';
import type { ContractIssue, ValidateOptions, ValidationResult } from './types.js';

/**
 * Deeper than this, a payload is refused without running the schemas: no payload of the
 * spec nests more than 6 levels, and a hostile one must not cost a stack overflow.
 */
export const MAX_DEPTH = 64;

/** The kind entry, or an input error that names the closest kinds. */
export function getKind(kind: string): KindEntry {
  const entry = KINDS.get(kind);
  if (entry) return entry;
  const closest = suggestKinds(kind);
  throw new SvcError(
    'SVC_E_UNKNOWN_KIND',
    `Could not find payload kind "${kind}": the contract has no such kind.`,
    closest.length > 0
      ? `Did you mean ${closest.map((k) => `"${k}"`).join(', ')}? List them with: svc-cli schema --list`
      : 'List the kinds with: svc-cli schema --list',
    { details: { closest } },
  );
}

interface Frame {
  value: object;
  depth: number;
  parent: Frame | undefined;
  key: PropertyKey;
}

function pathOf(frame: Frame, key?: PropertyKey): string {
  const segments: PropertyKey[] = key === undefined ? [] : [key];
  for (let f: Frame | undefined = frame; f?.parent; f = f.parent) segments.unshift(f.key);
  return formatPath(segments);
}

/**
 * Guards the schemas cannot give: an own `__proto__` key anywhere (prototype pollution
 * when a consumer merges the payload) and nesting past MAX_DEPTH. A first pass keeps no paths
 * (every payload of a 100k stream pays it); it recurses, but never deeper than
 * MAX_DEPTH + 2 frames, so a 10,000-level document cannot overflow the stack. Only a payload
 * that trips a guard is walked again with paths, for its issues. Returns false when too deep.
 */
function scanGuards(value: unknown, errors: ContractIssue[]): boolean {
  if (value === null || typeof value !== 'object') return true;
  return withinGuards(value, 0) || reportGuards(value, errors);
}

/** True when nothing under `value` (at `depth`) trips a guard; allocates nothing. */
function withinGuards(value: object, depth: number): boolean {
  if (depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    const items = value as unknown[];
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      if (item !== null && typeof item === 'object' && !withinGuards(item, depth + 1)) return false;
    }
    return true;
  }
  // for-in: the own keys, `__proto__` included, and inherited enumerable ones (JSON.parse's
  // objects have none); a hit is only a suspicion, reportGuards decides on own keys
  for (const key in value) {
    if (key === '__proto__') return false;
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object' && !withinGuards(child, depth + 1))
      return false;
  }
  return true;
}

/** `scanGuards` again with the path of each frame, for a payload that trips a guard. */
function reportGuards(value: object, errors: ContractIssue[]): boolean {
  const stack: Frame[] = [{ value, depth: 0, parent: undefined, key: '' }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    if (frame.depth > MAX_DEPTH) {
      errors.push({
        path: pathOf(frame),
        code: 'too_deep',
        rule: `nested deeper than ${MAX_DEPTH} levels; not validated further`,
        spec: '',
        severity: 'error',
      });
      return false;
    }
    if (Array.isArray(frame.value)) {
      const items = frame.value as unknown[];
      for (let i = 0; i < items.length; i++) {
        const item = items[i];
        if (item !== null && typeof item === 'object') {
          stack.push({ value: item, depth: frame.depth + 1, parent: frame, key: i });
        }
      }
      continue;
    }
    for (const key in frame.value) {
      if (!Object.prototype.hasOwnProperty.call(frame.value, key)) continue;
      if (key === '__proto__') {
        errors.push({
          path: pathOf(frame, key),
          code: 'forbidden_key',
          rule: 'key "__proto__" is refused (prototype pollution guard)',
          spec: '',
          severity: 'error',
        });
      }
      const child = (frame.value as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        stack.push({ value: child, depth: frame.depth + 1, parent: frame, key });
      }
    }
  }
  return true;
}

/**
 * What the party under test writes is held to the spec's types, so its type drift
 * is an error (`sender.id: expected a string, got a number`); the platform's own drift stays
 * a warning. The code stays `type_drift`: the simulator delivers a drifted value it can read.
 */
function holdPartyToTypes(warnings: ContractIssue[], errors: ContractIssue[]): ContractIssue[] {
  const kept: ContractIssue[] = [];
  for (const w of warnings) {
    if (w.code !== TYPE_DRIFT) {
      kept.push(w);
      continue;
    }
    const rule = w.rule.endsWith(DRIFT_TOLERATED)
      ? w.rule.slice(0, -DRIFT_TOLERATED.length)
      : w.rule;
    errors.push({ ...w, rule, severity: 'error' });
  }
  return kept;
}

/** The parts of a warning's rule that say it passes, which --strict makes untrue. */
const strictRule = (rule: string): string =>
  rule
    .replace(/ \((?:accepted|allowed)(?:[;:] [^)]*)?\)/, ' (refused: --strict)')
    .replace(/, accepted\)/, ', refused: --strict)');

/**
 * The first payloads of a process parse without zod's compiled fast path: compiling it costs
 * more than a few payloads gain (a git hook validates one file); a stream of many
 * switches to it.
 */
const JIT_AFTER = 32;
let parses = 0;

/**
 * A page method's arguments are checked as one object naming each (`{"fields": [...]}`), not
 * as the call passes them (`svc_api.setCustomData([...])`): a root that is no object says so,
 * with the names, where it said only "must be an object".
 */
function argumentsHint(entry: KindEntry, value: unknown, errors: ContractIssue[]): void {
  // nearly every value validated is an object: nothing to read of the kind's name then
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return;
  const method = /^widget\.(\w+)\.args$/.exec(entry.name)?.[1];
  if (method === undefined) return;
  const root = errors.find((issue) => issue.path === '');
  const shape = (entry.schema as { shape?: Record<string, unknown> }).shape;
  if (!root || !shape) return;
  const names = Object.keys(shape);
  const given = JSON.stringify(value) ?? 'null';
  const first = given.length > 60 ? `${given.slice(0, 57)}...` : given;
  const example = `{${names.map((name, i) => `"${name}": ${i === 0 ? first : '...'}`).join(', ')}}`;
  root.rule = `${root.rule}: svc_api.${method}'s arguments are checked as one object naming each (${names.join(', ')}), e.g. ${example}`;
}

/**
 * meantFieldOf, remembered per kind, place and key: real traffic carries the same extra fields
 * in every message (a provider's own ids), and the schema walk with its edit distances would
 * otherwise run for each. Array indices share one entry; the memory is cleared past 4,096.
 */
const meantFields = new Map<string, string | null>();
function cachedMeantField(
  entry: KindEntry,
  segments: readonly PropertyKey[],
  key: string,
): string | undefined {
  const place = segments.map((s) => (typeof s === 'number' ? '#' : String(s))).join('.');
  const id = `${entry.name}\u0000${place}\u0000${key}`;
  let meant = meantFields.get(id);
  if (meant === undefined) {
    if (meantFields.size >= 4096) meantFields.clear();
    meant = meantFieldOf(entry.schema, segments, key) ?? null;
    meantFields.set(id, meant);
  }
  return meant ?? undefined;
}

/**
 * The field of the object at `segments` in `schema` that an unknown `key` was likely meant to
 * be (`chatId` for chat_id, `txt` for text), if one is close; each branch of a union is read.
 */
function meantFieldOf(
  schema: z.ZodType,
  segments: readonly PropertyKey[],
  key: string,
): string | undefined {
  const names = new Set<string>();
  collectFieldNames(schema, segments, names, 0);
  names.delete(key);
  // chatId and chat_id differ by case and an underscore: compared without either
  const plain = (name: string): string => name.toLowerCase().replace(/_/g, '');
  const same = [...names].find((name) => plain(name) === plain(key));
  return same ?? closestNames(key, names, { maxDistance: 2 })[0];
}

/** The field names of the objects at `segments` below `schema` (through optional, union, ...). */
function collectFieldNames(
  schema: z.ZodType,
  segments: readonly PropertyKey[],
  into: Set<string>,
  depth: number,
): void {
  if (depth > 20) return;
  const def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
  const inner = (def.innerType ?? def.in) as z.ZodType | undefined;
  if (inner) return collectFieldNames(inner, segments, into, depth + 1);
  if (def.type === 'union')
    for (const option of def.options as z.ZodType[])
      collectFieldNames(option, segments, into, depth + 1);
  if (def.type === 'lazy')
    collectFieldNames((def.getter as () => z.ZodType)(), segments, into, depth + 1);
  if (def.type === 'array' && typeof segments[0] === 'number')
    collectFieldNames(def.element as z.ZodType, segments.slice(1), into, depth + 1);
  if (def.type !== 'object') return;
  const shape = def.shape as Record<string, z.ZodType>;
  if (segments.length === 0) {
    for (const name of Object.keys(shape)) into.add(name);
    return;
  }
  const next = shape[String(segments[0])];
  if (next) collectFieldNames(next, segments.slice(1), into, depth + 1);
}

function validateEntry(
  entry: KindEntry,
  value: unknown,
  options: ValidateOptions,
): ValidationResult {
  // the common shape of a hot kind, which the schema would pass clean (registry.ts `accepts`)
  if (entry.accepts?.(value))
    return { kind: entry.name, ok: true, data: value, errors: [], warnings: [] };
  const errors: ContractIssue[] = [];
  let warnings: ContractIssue[] = [];
  if (scanGuards(value, errors)) {
    const parsed = entry.schema.safeParse(value, parses++ < JIT_AFTER ? { jitless: true } : {});
    if (!parsed.success)
      collectIssues(
        parsed.error.issues,
        [],
        entry.spec,
        errors,
        warnings,
        (segments, key) => cachedMeantField(entry, segments, key),
        value,
      );
  }
  if (entry.producer === 'party') warnings = holdPartyToTypes(warnings, errors);
  argumentsHint(entry, value, errors);
  if (options.strict && warnings.length > 0) {
    // --strict: warnings count as errors; a rule that says it is accepted says so no more
    for (const w of warnings)
      errors.push({
        ...w,
        rule: strictRule(w.rule),
        severity: 'error',
      });
    warnings = [];
  }
  const ok = errors.length === 0;
  return ok
    ? { kind: entry.name, ok, data: value, errors, warnings }
    : { kind: entry.name, ok, errors, warnings };
}

/**
 * Validates a value as one kind.
 * @example validate('channel.customer.text', body).errors.map(formatIssue)
 */
export function validate(
  kind: string,
  value: unknown,
  options: ValidateOptions = {},
): ValidationResult {
  return validateEntry(getKind(kind), value, options);
}

/**
 * Detects the kind, then validates; an undetectable value yields kind `unknown` and an error
 * that says why.
 * @example validateAuto(JSON.parse(line)).ok
 */
export function validateAuto(value: unknown, options: ValidateOptions = {}): ValidationResult {
  const detected = detectKind(value);
  if (detected.kind !== undefined) return validate(detected.kind, value, options);
  const candidates = detected.ambiguous ? `; candidates: ${detected.ambiguous.join(', ')}` : '';
  return {
    kind: 'unknown',
    ok: false,
    errors: [
      {
        path: '',
        code: 'unknown_kind',
        // --kind helps a payload of an unknown shape, not a file of another sort (a fixture)
        rule: `could not tell the kind: ${detected.reason}${candidates}${detected.notPayload ? '' : ' (pass --kind)'}`,
        spec: '',
        severity: 'error',
      },
    ],
    warnings: [],
  };
}
