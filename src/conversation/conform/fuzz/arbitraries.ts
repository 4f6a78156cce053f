/**
 * Payloads generated from the contract for `conform --fuzz`. No well-kept bridge
 * from zod v4 to fast-check exists (zod-fast-check targets zod 3), so this one small module
 * walks the JSON Schema our zod schemas export (`toJsonSchema`, the same schema `validate`
 * is checked against) alongside a valid sample of the kind, and turns every place the
 * contract leaves room into a mutation: strings at the edges (empty, one character, 999 and
 * 1000 code points, astral characters, combining marks, markup), optional fields absent or
 * null, integers at their bounds, ids and numbers in both forms the spec allows, both
 * spellings of offline_message(s), unknown extra fields as real traffic carries them.
 *
 * Each place (a slot) is changed with probability changes / slots, so a case changes about
 * `changes` places (default 2) and a receiver's one-field bug is not hidden under twenty
 * others; a change that is not needed shrinks back to "unchanged". Every alternative of every
 * slot is an edge; `sweep()` lists cases that cover each edge on its own, after the plain
 * sample, so a run meets every edge within its first cases whatever the seed.
 */
import fc from 'fast-check';
import { toJsonSchema } from '../../../contract/json-schema.js';

type Json = Record<string, unknown>;
type Schema = Record<string, unknown>;
type Path = readonly (string | number)[];

/** A value that means "remove the field". */
export const ABSENT = Symbol('absent');
type Mutation = unknown;

interface Slot {
  path: Path;
  /** what the value may become, each an edge of the generator */
  options: fc.Arbitrary<Mutation>[];
}

/** One change as generated: the option (edge) it came from and the value. */
export interface Change {
  edge: number;
  value: unknown;
}

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const ASTRAL = ['😀', '𝔘𝔫𝔦', '🇺🇦', '👩‍💻', '𠜎'];
const COMBINING = ['e\u0301', 'a\u0308\u0304', 'Z\u0351\u036b\u0343\u036a'];
const TRICKY = ['<b>bold</b>', '"quoted" \\ back', 'line\nbreak', ' ', 'null', '💬 مرحبا שלום'];

/**
 * Strings at the edges the spec allows, within [min, max] code points, one arbitrary per kind
 * of edge: lengths (empty, one, the limit and one under it), astral characters, combining
 * marks, markup and other tricky text, then any graphemes. Each is an edge of its own in the
 * sweep: as one arbitrary, the sweep's single sample of a string place met one of them, and a
 * run reporting every edge met had sent no astral character at all.
 */
export function edgeStringOptions(min = 0, max = 1000): fc.Arbitrary<string>[] {
  const cap = Math.min(max, 1000);
  const fits = (s: string): boolean => {
    const n = [...s].length;
    return n >= min && n <= max;
  };
  const repeat = (n: number, ch: string): string => ch.repeat(Math.max(0, n));
  const groups = [
    ['', 'a', repeat(cap - 1, 'x'), repeat(cap, 'y')],
    [...ASTRAL, repeat(Math.max(1, cap - 2), 'é') + '😀'],
    COMBINING,
    TRICKY,
  ]
    .map((group) => [...new Set(group.filter(fits))])
    .filter((group) => group.length > 0);
  const generated = fc
    .string({ unit: 'grapheme', minLength: min, maxLength: Math.min(cap, 40) })
    .filter(fits);
  return [...groups.map((group) => fc.constantFrom(...group)), generated];
}

/** Strings at the edges the spec allows, within [min, max] code points, as one arbitrary. */
export function edgeString(min = 0, max = 1000): fc.Arbitrary<string> {
  const [generated, ...fixed] = edgeStringOptions(min, max).reverse();
  return fixed.length > 0
    ? fc.oneof({ arbitrary: fc.oneof(...fixed), weight: 3 }, { arbitrary: generated!, weight: 1 })
    : generated!;
}

/** The branches of a schema node: its `type` list and `anyOf` alternatives, flattened. */
function branches(node: Schema): Schema[] {
  const out: Schema[] = [];
  const any = node.anyOf;
  if (Array.isArray(any)) for (const b of any) if (isObject(b)) out.push(...branches(b));
  const type = node.type;
  if (Array.isArray(type)) for (const t of type) out.push({ ...node, type: t, anyOf: undefined });
  else if (typeof type === 'string') out.push({ ...node, anyOf: undefined });
  return out;
}

/** What a value at this node may become, staying valid. */
function alternatives(node: Schema, base: unknown): fc.Arbitrary<Mutation>[] {
  const out: fc.Arbitrary<Mutation>[] = [];
  for (const b of branches(node)) {
    if (b.const !== undefined || b.enum !== undefined) continue;
    switch (b.type) {
      case 'string': {
        if (typeof b.format === 'string') break;
        const pattern = typeof b.pattern === 'string' ? b.pattern : undefined;
        if (pattern === '^-?\\d+$' || pattern === '^[1-9]\\d*$') {
          // a number written as a string (spec 2.5 timestamps, ids and sizes the docs show so)
          if (typeof base === 'number' && Number.isInteger(base) && base > 0)
            out.push(fc.constant(String(base)));
          break;
        }
        if (pattern !== undefined) break;
        const min = typeof b.minLength === 'number' ? b.minLength : 0;
        const max = typeof b.maxLength === 'number' ? b.maxLength : 1000;
        out.push(...edgeStringOptions(min, max));
        if (typeof base === 'number') out.push(fc.constant(String(base)));
        break;
      }
      case 'integer': {
        const min =
          typeof b.exclusiveMinimum === 'number'
            ? b.exclusiveMinimum + 1
            : typeof b.minimum === 'number'
              ? b.minimum
              : -1_000_000;
        const max = typeof b.maximum === 'number' ? b.maximum : 1_000_000;
        const lo = Math.max(min, -1e15);
        const hi = Math.min(max, 1e15);
        out.push(fc.constantFrom(...new Set([lo, hi, Math.max(lo, Math.min(hi, 1))])));
        out.push(fc.integer({ min: Math.max(lo, -1e6), max: Math.min(hi, 1e6) }));
        break;
      }
      case 'number': {
        const min = typeof b.minimum === 'number' ? b.minimum : -1e6;
        const max = typeof b.maximum === 'number' ? b.maximum : 1e6;
        out.push(fc.constantFrom(...new Set([min, max, 0].filter((v) => v >= min && v <= max))));
        if (typeof base === 'string' && /^-?\d+$/.test(base)) out.push(fc.constant(Number(base)));
        break;
      }
      case 'null':
        out.push(fc.constant(null));
        break;
      default:
        break;
    }
  }
  return out;
}

/** The object branch of a node (for walking into a present object value). */
function objectBranch(node: Schema): Schema | undefined {
  return branches(node).find((b) => b.type === 'object' && isObject(b.properties));
}

function collect(node: Schema, value: unknown, path: Path, slots: Slot[], required: boolean): void {
  const options = alternatives(node, value);
  if (!required) options.push(fc.constant(ABSENT));
  const object = objectBranch(node);
  if (object && isObject(value)) {
    const props = object.properties as Record<string, Schema>;
    const needed = new Set(Array.isArray(object.required) ? (object.required as string[]) : []);
    for (const [key, child] of Object.entries(props)) {
      if (key in value) collect(child, value[key], [...path, key], slots, needed.has(key));
    }
    if (object.additionalProperties !== false && path.length <= 1) {
      // unknown fields, as real traffic carries them (the platform adds fields over time)
      options.push(fc.constant({ [EXTRA]: true }));
    }
  }
  if (options.length > 0) slots.push({ path, options });
}

const EXTRA = '__svc_extra__';

/** A set of changes, one place per slot's index (undefined: the slot is unchanged). */
export type Mutations = readonly (Change | undefined)[];

/** An edge of the generator: one alternative of one slot of a kind. */
export interface Edge {
  kind: string;
  /** the field's path (`(root)` for the payload itself) */
  path: string;
  /** the alternative's index among the slot's */
  option: number;
}

export interface PayloadArbitrary {
  kind: string;
  base: Json;
  /** the mutations fast-check generates and shrinks */
  arbitrary: fc.Arbitrary<Mutations>;
  /** the payload a set of mutations makes */
  build(mutations: Mutations): Json;
  /** every edge of this kind's generator, in slot order */
  edges: readonly Edge[];
  /** the edges a set of mutations takes, as indexes into `edges` */
  edgesOf(mutations: Mutations): number[];
  /** the plain sample, then one case per edge, each changing that place alone */
  sweep(): Mutations[];
}

function setAt(target: Json, path: Path, value: unknown): void {
  let parent: unknown = target;
  for (const key of path.slice(0, -1)) {
    if (!isObject(parent)) return;
    parent = parent[key as string];
  }
  if (!isObject(parent)) return; // an ancestor was removed or nulled: nothing to change
  const last = path[path.length - 1] as string;
  if (value === ABSENT) delete parent[last];
  else if (isObject(value) && value[EXTRA] === true) {
    const current = parent[last];
    if (isObject(current)) current.x_svc_fuzz_unknown = { since: 'a later platform version', n: 1 };
  } else parent[last] = value;
}

/**
 * The arbitrary of one kind, from a valid sample of it.
 * @example const p = payloadArbitrary('hook.chat_accepted', buildSampleHookEvent('chat_accepted')); fc.sample(p.arbitrary, 1).map(p.build)
 */
export function payloadArbitrary(
  kind: string,
  base: Json,
  extra: { path: Path; arbitrary: fc.Arbitrary<unknown> }[] = [],
  changes = DEFAULT_CHANGES,
): PayloadArbitrary {
  const schema = toJsonSchema(kind);
  const slots: Slot[] = [];
  collect(schema, base, [], slots, true);
  // the root slot only adds unknown fields: it must never remove or replace the payload
  const rootAt = slots.findIndex((s) => s.path.length === 0);
  if (rootAt !== -1) slots[rootAt] = { path: [], options: [fc.constant({ [EXTRA]: true })] };
  for (const e of extra) slots.push({ path: e.path, options: [e.arbitrary] });
  // each slot changes with probability changes / slots: about `changes` places a case; the
  // unchanged alternative comes first, so a change that is not needed shrinks away
  const wanted = Math.min(Math.max(changes, 0), slots.length);
  const keep = Math.max(1, Math.round((slots.length - wanted) * 100));
  const change = Math.max(1, Math.round(wanted * 100));
  const arbitrary = fc.tuple(
    ...slots.map((slot) =>
      fc.oneof(
        { withCrossShrink: true },
        // fallbackValue, as fc.option gives its nil: a case fast-check did not generate (the
        // sweep's) shrinks a change back to "unchanged" too
        { arbitrary: fc.constant(undefined), weight: keep, fallbackValue: { default: undefined } },
        {
          arbitrary: fc.oneof(
            ...slot.options.map((option, edge) =>
              option.map(
                (value): Change => ({ edge, value }),
                // so fast-check can shrink a case it did not generate (the sweep's)
                (change) => {
                  if (isObject(change) && change.edge === edge && 'value' in change)
                    return change.value;
                  throw new Error('not a change of this alternative');
                },
              ),
            ),
          ),
          weight: change,
        },
      ),
    ),
  ) as fc.Arbitrary<Mutations>;
  const edges: Edge[] = [];
  const firstEdge: number[] = [];
  for (const slot of slots) {
    firstEdge.push(edges.length);
    const path = slot.path.length === 0 ? '(root)' : slot.path.join('.');
    slot.options.forEach((_o, option) => edges.push({ kind, path, option }));
  }
  return {
    kind,
    base,
    arbitrary,
    edges,
    edgesOf: (mutations) =>
      mutations.flatMap((m, slot) => (m === undefined ? [] : [(firstEdge[slot] ?? 0) + m.edge])),
    sweep() {
      const out: Mutations[] = [slots.map(() => undefined)];
      slots.forEach((slot, at) =>
        slot.options.forEach((option, edge) => {
          // one value of the alternative, the same in every run: the sweep is seed-free
          const [value] = fc.sample(option, { seed: 42 + edge, numRuns: 1 });
          out.push(slots.map((_s, i) => (i === at ? { edge, value } : undefined)));
        }),
      );
      return out;
    },
    build(mutations) {
      const value = structuredClone(base);
      mutations.forEach((mutation, i) => {
        const slot = slots[i];
        if (mutation === undefined || slot === undefined) return;
        if (slot.path.length === 0) {
          if (isObject(mutation.value) && mutation.value[EXTRA] === true)
            value.x_svc_fuzz_unknown = { since: 'a later platform version', n: 1 };
          return;
        }
        setAt(value, slot.path, mutation.value);
      });
      return value;
    },
  };
}

/** Places a generated case changes on average (`--fuzz-changes`). */
export const DEFAULT_CHANGES = 2;
