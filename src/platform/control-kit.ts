import { z } from 'zod';
import { issueLine } from '../issue-words.js';
import { SvcError } from '../errors.js';
import { nearAllowedValue } from '../suggest.js';
import { unknownKeyLines } from '../unknown-keys.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

/** What every /_sim/ route shares: the ok answer and the body parser (the core maps errors). */
export const controlOk = (body: unknown, status = 200): PlatformResponse => ({
  status,
  body,
  record: { iface: 'control' },
});

/**
 * The strict twin of a control body's schema that drops unknown keys (zod's default): a key
 * the request does not take is a typo far more often than a field from elsewhere, and
 * stripped it went unseen (`{"txt": "hi"}` was told only to give "text"). Made once each.
 */
const strictTwins = new WeakMap<z.ZodType, z.ZodObject | undefined>();
function strictTwinOf(schema: z.ZodType): z.ZodObject | undefined {
  if (!strictTwins.has(schema)) {
    const catchall = schema instanceof z.ZodObject ? schema._zod.def.catchall : undefined;
    strictTwins.set(
      schema,
      !(schema instanceof z.ZodObject)
        ? undefined
        : catchall === undefined
          ? schema.strict()
          : // already strict: its own unknown-key issues get the did-you-mean
            catchall instanceof z.ZodNever
            ? schema
            : undefined,
    );
  }
  return strictTwins.get(schema);
}

/**
 * The object a body is written as: the schema itself, or the input side of an object that
 * is transformed once parsed (`PUT /_sim/faults`), so its keys are named too.
 */
const objectOf = (schema: z.ZodType): z.ZodType =>
  schema instanceof z.ZodPipe && schema.in instanceof z.ZodObject ? schema.in : schema;

/**
 * Parses a control-API body with a zod schema; problems are input errors naming the field,
 * and a key the request does not take is refused with the known key closest to it.
 */
export function parseControlBody<T>(schema: z.ZodType<T>, request: PlatformRequest): T {
  const body = request.body;
  if (!body?.ok) {
    throw new SvcError('SVC_E_CONTROL_BODY', body?.message ?? 'a JSON body is required');
  }
  // the fields the request takes, so the body can be written from the error alone
  const object = objectOf(schema);
  const fields = object instanceof z.ZodObject ? Object.keys(object.shape) : [];
  const takes =
    fields.length > 0 ? `; this request takes a JSON object with ${fields.join(', ')}` : '';
  const strict = strictTwinOf(object);
  const checked = strict?.safeParse(body.json);
  const unknown =
    strict && checked && !checked.success
      ? unknownKeyLines(strict, checked.error.issues, body.json)
      : [];
  // a key with no near name lists the known ones itself: not twice
  if (unknown.length > 0) {
    const listed = unknown.some((line) => line.includes('known keys:'));
    throw new SvcError('SVC_E_CONTROL_BODY', `${unknown.join('; ')}${listed ? '' : takes}`);
  }
  const parsed = schema.safeParse(body.json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${issueLine(i, '(body)')}${meant(i, body.json)}`)
      .join('; ');
    throw new SvcError('SVC_E_CONTROL_BODY', `${issues}${takes}`);
  }
  return parsed.data;
}

/**
 * ` (did you mean "error"?)` for a string one typo away from a value an enum takes (`"eror"`),
 * as an unknown key gets; empty for anything else.
 */
function meant(issue: z.core.$ZodIssue, json: unknown): string {
  if (issue.code !== 'invalid_value') return '';
  const near = nearAllowedValue(json, issue.path, issue.values);
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}

/**
 * The chat id of a `:id` path segment (`/_sim/chats/:id/...`); not a number is no such chat,
 * said with the segment as given (`Number("abc")` made "Could not find chat NaN.").
 */
export function chatIdOfPath(params: Readonly<Record<string, string>>): number {
  const id = Number(params.id);
  if (!Number.isInteger(id)) {
    throw new SvcError('SVC_E_NO_CHAT', `Could not find chat ${params.id ?? ''}.`);
  }
  return id;
}

/** A chat id as the control API takes it everywhere: a number, or its digits as a string. */
export const chatIdField = z.union(
  [
    z.number().int().positive(),
    z
      .string()
      .regex(/^[1-9]\d*$/)
      .transform(Number),
  ],
  { error: 'must be a chat id: a positive whole number, 7 or "7"' },
);

/** Which chat a control call is about: its id, or the customer (and channel) in it. */
export const controlTarget = {
  chatId: chatIdField.optional(),
  customerId: z.string().min(1).optional(),
  channelId: z.string().min(1).optional(),
};
