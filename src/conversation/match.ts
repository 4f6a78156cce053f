/**
 * Partial matching for expectations: an expected object matches when every key it names
 * matches (extra actual keys are fine); arrays match element by element with equal length;
 * a few markers: "$any", "$string", "$number", "$absent", {"$regex": "..."}.
 */
import { editDistance } from '../suggest.js';

export interface Mismatch {
  path: string;
  expected: unknown;
  actual: unknown;
  /** the ± it was matched within (a `...Ms` figure in real time) */
  toleranceMs?: number;
  /** a key the payload has where the expected one is missing: a typo (`reslt` for `result`) */
  meant?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);
const join = (path: string, key: string | number): string =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

/**
 * Returns the mismatches of `actual` against `expected` (empty when it matches).
 * @example matchPartial({ message: { text: 'Hi' } }, payload) // []
 */
export function matchPartial(
  expected: unknown,
  actual: unknown,
  path = '',
  /** real time: a number under a key ending in `Ms` matches within this many ms */
  toleranceMs = 0,
): Mismatch[] {
  // most comparisons match (and an expectation polls every observation): say so without
  // building the paths a mismatch report needs
  if (isMatch(expected, actual, path, toleranceMs)) return [];
  return mismatchesOf(expected, actual, path, toleranceMs);
}

/**
 * True when `actual` matches `expected` (no mismatch `matchPartial` would report), without
 * building the report: an expectation checks it against every observation.
 * @example isMatch({ message: { text: 'Hi' } }, payload) // true
 */
export function isMatch(expected: unknown, actual: unknown, path = '', toleranceMs = 0): boolean {
  return matches(
    expected,
    actual,
    toleranceMs > 0 && path.endsWith('Ms') ? toleranceMs : 0,
    toleranceMs,
  );
}

/**
 * True when `actual` matches `expected`, by the rules of `matchPartial`; `here` is the
 * tolerance for a number at this level (its key ends in `Ms`), `tolerance` the one below.
 */
function matches(expected: unknown, actual: unknown, here: number, tolerance: number): boolean {
  if (typeof expected === 'string') {
    if (expected === '$any') return actual !== undefined;
    if (expected === '$absent') return actual === undefined;
    if (expected === '$string') return typeof actual === 'string';
    if (expected === '$number') return typeof actual === 'number';
    return expected === actual;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return false;
    for (let i = 0; i < expected.length; i++)
      if (!matches(expected[i], actual[i], 0, tolerance)) return false;
    return true;
  }
  if (isObject(expected)) {
    if (typeof expected.$regex === 'string')
      return typeof actual === 'string' && new RegExp(expected.$regex).test(actual);
    if (!isObject(actual)) return false;
    for (const key in expected) {
      if (!Object.prototype.hasOwnProperty.call(expected, key)) continue;
      const value = Object.prototype.hasOwnProperty.call(actual, key) ? actual[key] : undefined;
      if (
        !matches(
          expected[key],
          value,
          tolerance > 0 && key.endsWith('Ms') ? tolerance : 0,
          tolerance,
        )
      )
        return false;
    }
    return true;
  }
  if (here > 0 && typeof expected === 'number' && typeof actual === 'number')
    return Math.abs(expected - actual) <= here;
  return Object.is(expected, actual);
}

function mismatchesOf(
  expected: unknown,
  actual: unknown,
  path: string,
  toleranceMs: number,
): Mismatch[] {
  if (expected === '$any') return actual === undefined ? [{ path, expected, actual }] : [];
  if (expected === '$absent') return actual === undefined ? [] : [{ path, expected, actual }];
  if (expected === '$string') return typeof actual === 'string' ? [] : [{ path, expected, actual }];
  if (expected === '$number') return typeof actual === 'number' ? [] : [{ path, expected, actual }];
  if (isObject(expected) && typeof expected.$regex === 'string') {
    return typeof actual === 'string' && new RegExp(expected.$regex).test(actual)
      ? []
      : [{ path, expected, actual }];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length)
      return [{ path, expected, actual }];
    return expected.flatMap((item, i) => matchPartial(item, actual[i], join(path, i), toleranceMs));
  }
  if (isObject(expected)) {
    if (!isObject(actual)) return [{ path, expected, actual }];
    return Object.entries(expected).flatMap(([key, value]) => {
      const has = Object.prototype.hasOwnProperty.call(actual, key);
      const found = matchPartial(
        value,
        has ? actual[key] : undefined,
        join(path, key),
        toleranceMs,
      );
      if (has || found.length === 0) return found;
      // a key the payload does not have: the one it has that is spelt closest, if any is
      const meant = closestKey(
        key,
        Object.keys(actual).filter((k) => !(k in expected)),
      );
      return meant === undefined
        ? found
        : found.map((m) => (m.path === join(path, key) ? { ...m, meant } : m));
    });
  }
  if (
    toleranceMs > 0 &&
    typeof expected === 'number' &&
    typeof actual === 'number' &&
    path.endsWith('Ms')
  ) {
    return Math.abs(expected - actual) <= toleranceMs
      ? []
      : [{ path, expected, actual, toleranceMs }];
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, actual }];
}

/**
 * The key of `keys` one or two edits from `key` (fewest first), as a typo of it; undefined
 * when none is that close, or `key` is too short for two edits to say anything.
 * @example closestKey('reslt', ['type', 'result']) // 'result'
 */
function closestKey(key: string, keys: readonly string[]): string | undefined {
  const most = Math.min(2, Math.floor(key.length / 3));
  let best: { k: string; d: number } | undefined;
  for (const k of keys) {
    const d = editDistance(key.toLowerCase(), k.toLowerCase());
    if (d <= most && (best === undefined || d < best.d)) best = { k, d };
  }
  return best?.k;
}

/** Reads a dotted path (`a.b[0].c`) from a value. */
export function readPath(value: unknown, path: string): unknown {
  let current: unknown = value;
  for (const part of path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

const WHOLE = /^\$\{([^}]+)\}$/;
const PART = /\$\{([^}]+)\}/g;

/**
 * Replaces `${step.path}` references with values from earlier steps' results. A string that
 * is one whole reference takes the referenced value's type (a number stays a number).
 * @example resolveRefs({ chat_id: '${hello.chatId}' }, { hello: { chatId: 1 } }) // { chat_id: 1 }
 */
export function resolveRefs(value: unknown, scope: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    if (!value.includes('${')) return value;
    const whole = WHOLE.exec(value);
    if (whole) return readPath(scope, whole[1] ?? '');
    return value.replace(PART, (_m, ref: string) => String(readPath(scope, ref)));
  }
  // a value without references is returned as it is (most of a fixture): no copy
  if (Array.isArray(value)) {
    const items = value as unknown[];
    let copy: unknown[] | undefined;
    items.forEach((item, i) => {
      const resolved = resolveRefs(item, scope);
      if (resolved !== item) (copy ??= [...items])[i] = resolved;
    });
    return copy ?? items;
  }
  if (isObject(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, item] of Object.entries(value)) {
      const resolved = resolveRefs(item, scope);
      if (resolved !== item) (copy ??= { ...value })[key] = resolved;
    }
    return copy ?? value;
  }
  return value;
}

/** A `${step.path}` reference in a value: where it sits, as written, and the step it names. */
export interface StepReference {
  /** dotted path of the string that holds it, within the value (`expect.integrator.message.id`) */
  path: string;
  /** the reference as written, without `${` and `}` (`reply.deliveryId`) */
  ref: string;
  /** the step name it reads (`reply`): the path's first segment */
  step: string;
}

/**
 * Every `${step.path}` reference in a value, in the order written, for checking a fixture
 * before it runs: `resolveRefs` reads a name no earlier step has as undefined.
 * @example findRefs({ message: { id: '${reply.deliveryId}' } }) // [{ path: 'message.id', ref: 'reply.deliveryId', step: 'reply' }]
 */
export function findRefs(value: unknown, path = ''): StepReference[] {
  if (typeof value === 'string') {
    if (!value.includes('${')) return [];
    return [...value.matchAll(PART)].map(([, ref = '']) => ({
      path,
      ref,
      step:
        ref
          .replace(/\[(\d+)\]/g, '.$1')
          .split('.')
          .find(Boolean) ?? '',
    }));
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => findRefs(item, join(path, i)));
  if (isObject(value))
    return Object.entries(value).flatMap(([key, item]) => findRefs(item, join(path, key)));
  return [];
}

/** One line per mismatch: `message.text: expected "Hi", got "Hello"`. */
export function describeMismatches(mismatches: Mismatch[]): string[] {
  return mismatches.map((m) =>
    m.toleranceMs !== undefined && typeof m.actual === 'number'
      ? // a real-time figure: to the millisecond, with the ± it had
        `${m.path}: expected ${JSON.stringify(m.expected)} ±${m.toleranceMs} ms, got ${Math.round(m.actual)}`
      : `${m.path || '(root)'}: expected ${JSON.stringify(m.expected)}, got ${m.actual === undefined ? 'nothing' : JSON.stringify(m.actual)}${m.meant === undefined ? '' : ` (did you mean ${m.meant}?)`}`,
  );
}

/**
 * The timing figures a step compares: numbers under a key ending in `Ms` in its delivery
 * verdict or its expectation (`elapsedMs`, `offsetMs`), matched within a tolerance in real
 * time.
 * @example countTimingFigures({ agent: { text: 'hi' }, delivery: { result: 'delivered', elapsedMs: 3000 } }) // 1
 */
export function countTimingFigures(step: object): number {
  const count = (value: unknown, key: string): number => {
    if (typeof value === 'number') return key.endsWith('Ms') ? 1 : 0;
    if (value === null || typeof value !== 'object') return 0;
    if (Array.isArray(value)) return value.reduce((n: number, v) => n + count(v, key), 0);
    return Object.entries(value).reduce((n, [k, v]) => n + count(v, k), 0);
  };
  const { delivery, expect } = step as { delivery?: unknown; expect?: unknown };
  return count(delivery, '') + count(expect, '');
}
