/**
 * Building blocks the interface schemas share: spec-tagged scalars, tolerated type drift,
 * http(s) URLs, positive integers and the warnings zod alone would not give.
 *
 * How a rule reaches the user: every schema built here carries an `error` function that
 * writes `code`, `spec` and `rule` into the issue message (joined by U+001F). `issues.ts`
 * splits it back into a ContractIssue, so rules live next to their schema and nothing
 * is looked up per call.
 */
import { z } from 'zod';
import { ruleWords } from '../issue-words.js';
import type { RuleCode } from './rule-codes.js';
import { holdsJsonObject } from './timing.js';

/** Separator of the encoded issue message: a control character no rule text contains. */
export const TAG_SEPARATOR = '\u001f';
/** Prefix of the code of an issue that is a warning, not an error. */
export const WARNING_PREFIX = 'warn:' as const;
/** Code of a tolerated type drift (a number for a string id, a numeric string for a number). */
export const TYPE_DRIFT = 'type_drift' as const;
/**
 * Ends the rule of a drift warning; validate() drops it when the party under test produced
 * the payload and the drift becomes an error.
 */
export const DRIFT_TOLERATED = ' (type drift, accepted)';

/** spec 2.1, 8: message.text up to 1000 characters, longer text is cut. */
export const TEXT_LIMIT = 1000;
/** spec 2.5, 8: at most 3 buttons per BUTTONS message. */
export const MAX_BUTTONS = 3;

type RawIssue = z.core.$ZodRawIssue;

/**
 * The branches that accept drift (a number for a string id, a numeric string for a number):
 * the JSON Schema of a kind the party under test produces leaves them out (json-schema.ts).
 */
export const DRIFT_BRANCHES = new WeakSet<z.core.$ZodType>();
const driftBranch = <T extends z.core.$ZodType>(schema: T): T => {
  DRIFT_BRANCHES.add(schema);
  return schema;
};

/** Encodes a rule into an issue message (decoded by issues.ts). */
export function encodeRule(
  code: RuleCode | `${typeof WARNING_PREFIX}${RuleCode}`,
  spec: string,
  rule: string,
): string {
  return `${code}${TAG_SEPARATOR}${spec}${TAG_SEPARATOR}${rule}`;
}

/** The rule a zod issue breaks, in words and with its code, when the schema gave none. */
export function describeIssue(issue: RawIssue): { code: RuleCode; rule: string } {
  return { code: ruleCodeOf(issue), rule: ruleWords(issue) };
}

function ruleCodeOf(issue: RawIssue): RuleCode {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : 'invalid_type';
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'empty';
      return issue.origin === 'array' ? 'too_few' : 'too_small';
    case 'too_big':
      return issue.origin === 'array' ? 'too_many' : 'too_big';
    case 'invalid_format':
      return 'invalid_format';
    case 'invalid_value':
    case 'invalid_union':
    case 'custom':
    case 'invalid_element':
    case 'invalid_key':
    case 'not_multiple_of':
    case 'unrecognized_keys':
    case undefined:
      return 'invalid_value';
  }
}

export interface TagOptions {
  /** The rule when the value is present but wrong (default: derived from the issue). */
  rule?: string;
  /** Stable code for that rule (default: derived from the issue). */
  code?: RuleCode;
  /** The rule when the value is missing (default: `required`). */
  required?: string;
}

/**
 * The `error` parameter that tags a schema's issues with its spec section.
 * @example z.string({ ...tag('2.1') })
 */
export function tag(
  spec: string,
  options: TagOptions = {},
): { error: (issue: RawIssue) => string } {
  return {
    error: (issue) => {
      // A missing field shows up as invalid_type, invalid_value (literal) or invalid_union.
      if (
        issue.input === undefined &&
        issue.code !== 'unrecognized_keys' &&
        issue.code !== 'custom'
      ) {
        return encodeRule('required', spec, options.required ?? 'required');
      }
      // A discriminator that matches no branch names the allowed values itself.
      if (issue.code === 'invalid_union' && issue.errors.length > 0 && options.rule === undefined) {
        return '';
      }
      const derived = describeIssue(issue);
      return encodeRule(options.code ?? derived.code, spec, options.rule ?? derived.rule);
    },
  };
}

/** `{ required }` only when given (exactOptionalPropertyTypes). */
const requiredRule = (required: string | undefined): { required?: string } =>
  required === undefined ? {} : { required };

/**
 * Pushes a warning from a `.check()`: it never aborts, so sibling rules still run. `path`:
 * the field it is about, below the checked value.
 */
export function pushWarning(
  ctx: z.core.ParsePayload<unknown>,
  code: RuleCode,
  spec: string,
  rule: string,
  path?: PropertyKey[],
): void {
  ctx.issues.push({
    code: 'custom',
    message: encodeRule(`${WARNING_PREFIX}${code}`, spec, rule),
    input: ctx.value,
    continue: true,
    ...(path ? { path } : {}),
  });
}

/**
 * Lets the values `accepts` names skip zod's machinery for a schema: an id that
 * may drift runs a union, two fresh payloads and two check passes per field, and a 100k line
 * stream pays that for every id. `accepts` must hold only for values the schema passes
 * unchanged and with no issue (rules.test.ts holds each fast path to its schema on a spread
 * of values); anything else still runs the schema, so every issue and warning is as before.
 * Apply it last: zod's methods (`.check`, `.describe`) return a new instance without it,
 * while wrappers (`.optional()`, `.nullable()`) keep calling it.
 */
export function fastAccept<T extends z.core.$ZodType>(
  schema: T,
  accepts: (value: unknown) => boolean,
): T {
  const run = schema._zod.run.bind(schema._zod);
  schema._zod.run = (payload, ctx) => (accepts(payload.value) ? payload : run(payload, ctx));
  return schema;
}

/** A string. */
export const str = (spec: string, options?: TagOptions): z.ZodString =>
  z.string(tag(spec, options));

/** A non-empty string. */
export const nonEmpty = (spec: string, options?: TagOptions): z.ZodString =>
  z.string(tag(spec, options)).min(1, tag(spec, { code: 'empty', rule: 'must not be empty' }));

/** A constant string value (`event`, `type`, `result` ...). */
export const lit = <const T extends string>(value: T, spec: string): z.ZodLiteral<T> =>
  z.literal(value, tag(spec, { rule: `must be ${JSON.stringify(value)}` }));

/** One of a closed set of strings. */
export const oneOf = <const T extends readonly [string, ...string[]]>(
  values: T,
  spec: string,
): z.ZodEnum<{ [K in T[number]]: K }> =>
  z.enum(values, tag(spec, { rule: `must be one of ${values.map((v) => `"${v}"`).join(', ')}` }));

/**
 * A string id that real traffic sometimes sends as a number: a `type_drift` warning when
 * the platform wrote it, an error when the party under test did (validate.ts), an error
 * with `strict`.
 */
export function idString(
  spec: string,
  options: { nonEmpty?: boolean; rule?: string; required?: string } = {},
) {
  const rule =
    options.rule ?? (options.nonEmpty ? 'must be a non-empty string' : 'must be a string');
  const text = options.nonEmpty
    ? z.string(tag(spec, { rule })).min(1, tag(spec, { code: 'empty', rule }))
    : z.string(tag(spec, { rule }));
  const union = z
    .union(
      [text, driftBranch(z.number(tag(spec, { rule })))],
      tag(spec, { code: 'invalid_type', rule, ...requiredRule(options.required) }),
    )
    .check((ctx) => {
      if (typeof ctx.value === 'number') {
        pushWarning(ctx, TYPE_DRIFT, spec, `expected a string, got a number${DRIFT_TOLERATED}`);
      }
    });
  return options.nonEmpty
    ? fastAccept(union, (value) => typeof value === 'string' && value !== '')
    : fastAccept(union, (value) => typeof value === 'string');
}

const NUMERIC = /^-?\d+(\.\d+)?$/;
const POSITIVE_INTEGER = /^[1-9]\d*$/;

/** A number that real traffic sometimes sends as a numeric string: accepted with a warning. */
export function numberLike(
  spec: string,
  options: {
    integer?: boolean;
    rule?: string;
    required?: string;
    /** a value outside is a warning (a latitude of 1000000 is a number, not a place) */
    range?: { min: number; max: number; rule: string };
  } = {},
) {
  const rule = options.rule ?? (options.integer ? 'must be an integer' : 'must be a number');
  const num = options.integer ? z.int(tag(spec, { rule })) : z.number(tag(spec, { rule }));
  const text = z
    .string(tag(spec, { rule }))
    .regex(options.integer ? /^-?\d+$/ : NUMERIC, tag(spec, { code: 'invalid_type', rule }));
  const pattern = options.integer ? /^-?\d+$/ : NUMERIC;
  const unionTag = tag(spec, { code: 'invalid_type', rule, ...requiredRule(options.required) });
  const union = z.union([num, driftBranch(text)], unionTag).check((ctx) => {
    // Only a string that is a number drifts; any other string is already an error.
    if (typeof ctx.value === 'string' && pattern.test(ctx.value)) {
      pushWarning(
        ctx,
        TYPE_DRIFT,
        spec,
        `expected a number, got a numeric string${DRIFT_TOLERATED}`,
      );
    }
    const range = options.range;
    const n = typeof ctx.value === 'number' ? ctx.value : Number(ctx.value);
    if (range && Number.isFinite(n) && (n < range.min || n > range.max))
      pushWarning(ctx, 'out_of_range', spec, range.rule);
  });
  const { integer, range } = options;
  // z.int() takes safe integers only; z.number() finite numbers
  return fastAccept(
    union,
    (value) =>
      typeof value === 'number' &&
      (integer ? Number.isSafeInteger(value) : Number.isFinite(value)) &&
      (range === undefined || (value >= range.min && value <= range.max)),
  );
}

/** spec 2.4: bytes, seconds, pixels: positive integers (a numeric string drifts). */
export function positiveInt(spec: string, required?: string) {
  const rule = 'must be a positive integer';
  const num = z
    .int(tag(spec, { code: 'not_positive_integer', rule }))
    .positive(tag(spec, { code: 'not_positive_integer', rule }));
  const text = z
    .string(tag(spec, { code: 'not_positive_integer', rule }))
    .regex(POSITIVE_INTEGER, tag(spec, { code: 'not_positive_integer', rule }));
  const unionTag = tag(spec, { code: 'not_positive_integer', rule, ...requiredRule(required) });
  const union = z.union([num, driftBranch(text)], unionTag).check((ctx) => {
    if (typeof ctx.value === 'string' && POSITIVE_INTEGER.test(ctx.value)) {
      pushWarning(
        ctx,
        TYPE_DRIFT,
        spec,
        `expected a number, got a numeric string${DRIFT_TOLERATED}`,
      );
    }
  });
  return fastAccept(union, (value) => Number.isSafeInteger(value) && (value as number) > 0);
}

/** spec 2.1, 2.4: links must begin with http:// or https:// (a pattern JSON Schema keeps). */
export const httpUrl = (spec: string): z.ZodString =>
  z
    .string(tag(spec, { code: 'not_http_url', rule: 'must be an http(s) URL' }))
    .regex(
      /^https?:\/\/\S+$/i,
      tag(spec, { code: 'not_http_url', rule: 'must be an http(s) URL' }),
    );

/** Counts Unicode code points without allocating (a surrogate pair is one character). */
export function countCodePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // A high surrogate followed by a low one is a single code point.
    if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/**
 * spec 2.1, 8: customer text over 1000 characters is cut by the platform: a `text_cut`
 * warning, not an error. JSON Schema cannot count code points, so this stays zod-only.
 */
export function cutText(spec: string, required: string): z.ZodString {
  return z.string(tag(spec, { required })).check((ctx) => {
    // Code units >= code points, so short strings skip the count.
    if (ctx.value.length > TEXT_LIMIT && countCodePoints(ctx.value) > TEXT_LIMIT) {
      pushWarning(
        ctx,
        'text_cut',
        spec,
        `longer than ${TEXT_LIMIT} characters (${countCodePoints(ctx.value)}); the platform cuts it`,
      );
    }
  });
}

/** Code of the warning a null optional field gets. */
export const NULL_OPTIONAL = 'null_optional' as const;

/**
 * An optional field that also takes `null` (the public samples send `"user_token":
 * null`, `"analytics": null` for "unset"): null is read as absent, with a `null_optional`
 * warning. A field whose spec allows null itself stays as it is, silent.
 */
export function nullAsAbsent(field: z.ZodOptional, spec: string): z.ZodType {
  const inner = field.unwrap() as z.ZodType;
  // The spec allows null there itself (chat.rate, getVisitorNumber's err): no warning.
  if (inner.safeParse(null).success) return field;
  const orNull = inner.nullable().check((ctx) => {
    if (ctx.value === null) {
      pushWarning(ctx, NULL_OPTIONAL, spec, 'null for an optional field (read as absent)');
    }
  });
  // only a null needs the nullable and its check; any other value goes straight to `inner`
  const run = orNull._zod.run.bind(orNull._zod);
  orNull._zod.run = (payload, ctx) =>
    payload.value === null ? run(payload, ctx) : inner._zod.run(payload, ctx);
  return orNull.optional();
}

/**
 * An object whose listed fields are checked; other fields are reported as `unknown_field`
 * warnings; every optional field also takes null (`nullAsAbsent`). Required fields stay
 * required: null there is a type error.
 */
export const shape = <T extends z.core.$ZodLooseShape>(spec: string, fields: T) => {
  const withNulls: Record<string, z.core.$ZodType> = {};
  for (const [key, field] of Object.entries(fields) as [string, z.core.$ZodType][]) {
    withNulls[key] = field instanceof z.ZodOptional ? nullAsAbsent(field, spec) : field;
  }
  // The inferred type stays the spec's (no null): code that reads validated payloads treats
  // null like absent (the channel ingest drops null fields before use).
  const objectTag = tag(spec, { rule: 'must be an object' });
  return z.strictObject(withNulls, {
    error: (issue) =>
      // PHP's json_encode writes an empty array as [] (a public webhook library for the
      // platform sends `"contact_info": []`): say so, and how to send an object
      issue.code === 'invalid_type' && Array.isArray(issue.input) && issue.input.length === 0
        ? encodeRule('invalid_type', spec, EMPTY_ARRAY_RULE)
        : // a handler returning json.dumps(...) whose framework encodes that string again (a
          // public FastAPI integration for the platform answers its hooks so)
          issue.code === 'invalid_type' && holdsJsonObject(issue.input)
          ? encodeRule('invalid_type', spec, TWICE_ENCODED_RULE)
          : objectTag.error(issue),
  }) as unknown as z.ZodObject<T, z.core.$strict>;
};

/** The rule an object field given `[]` breaks. */
export const EMPTY_ARRAY_RULE =
  "must be an object, got an empty array (PHP's json_encode writes [] for an empty array: leave the field out, or send (object) [], which it writes as {})";

/** The rule an object field given a JSON string that holds an object breaks. */
export const TWICE_ENCODED_RULE =
  'must be an object, got a JSON string holding one (encoded twice, as a framework does with a json.dumps(...) return value): send the object itself';

/**
 * A value built on first use, then kept (schemas are built when a run needs them).
 * @example const schemas = once(() => buildAll()); schemas().text
 */
export function once<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}

/**
 * A function of one key whose result is built on first use per key, then kept.
 * @example const media = memo((type: string) => buildMedia(type)); media('photo') === media('photo')
 */
export function memo<K extends string, V>(build: (key: K) => V): (key: K) => V {
  const built = new Map<K, V>();
  return (key) => {
    let value = built.get(key);
    if (value === undefined) built.set(key, (value = build(key)));
    return value;
  };
}
