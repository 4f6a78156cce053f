/**
 * Partial matching for expectations: an expected object matches when every key it names
 * matches (extra actual keys are fine); arrays match element by element with equal length;
 * a few markers: "$any", "$string", "$number", "$absent", {"$regex": "..."}.
 */
export interface Mismatch {
  path: string;
  expected: unknown;
  actual: unknown;
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
    return Object.entries(expected).flatMap(([key, value]) =>
      matchPartial(
        value,
        Object.prototype.hasOwnProperty.call(actual, key) ? actual[key] : undefined,
        join(path, key),
        toleranceMs,
      ),
    );
  }
  if (
    toleranceMs > 0 &&
    typeof expected === 'number' &&
    typeof actual === 'number' &&
    path.endsWith('Ms')
  ) {
    return Math.abs(expected - actual) <= toleranceMs ? [] : [{ path, expected, actual }];
  }
  return Object.is(expected, actual) ? [] : [{ path, expected, actual }];
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
    const whole = WHOLE.exec(value);
    if (whole) return readPath(scope, whole[1] ?? '');
    return value.replace(PART, (_m, ref: string) => String(readPath(scope, ref)));
  }
  if (Array.isArray(value)) return value.map((v) => resolveRefs(v, scope));
  if (isObject(value))
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolveRefs(v, scope)]));
  return value;
}

/** One line per mismatch: `message.text: expected "Hi", got "Hello"`. */
export function describeMismatches(mismatches: Mismatch[]): string[] {
  return mismatches.map(
    (m) =>
      `${m.path || '(root)'}: expected ${JSON.stringify(m.expected)}, got ${m.actual === undefined ? 'nothing' : JSON.stringify(m.actual)}`,
  );
}
