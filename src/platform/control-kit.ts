import { z } from 'zod';
import { SvcError } from '../errors.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

/** What every /_sim/ route shares: the ok answer and the body parser (the core maps errors). */
export const controlOk = (body: unknown, status = 200): PlatformResponse => ({
  status,
  body,
  record: { iface: 'control' },
});

/** Parses a control-API body with a zod schema; problems are input errors naming the field. */
export function parseControlBody<T>(schema: z.ZodType<T>, request: PlatformRequest): T {
  const body = request.body;
  if (!body?.ok) {
    throw new SvcError('SVC_E_CONTROL_BODY', body?.message ?? 'a JSON body is required');
  }
  const parsed = schema.safeParse(body.json);
  if (!parsed.success) {
    // "expected string, received undefined" is zod's word for a field left out
    const issues = parsed.error.issues
      .map((i) => {
        const missing = i.code === 'invalid_type' && /received undefined$/.test(i.message);
        const expected = /expected (\w+)/.exec(i.message)?.[1];
        return `${i.path.join('.') || '(body)'}: ${missing ? `required${expected ? ` (a ${expected})` : ''}` : i.message}`;
      })
      .join('; ');
    // the fields the request takes, so the body can be written from the error alone
    const fields = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
    const takes =
      fields.length > 0 ? `; this request takes a JSON object with ${fields.join(', ')}` : '';
    throw new SvcError('SVC_E_CONTROL_BODY', `${issues}${takes}`);
  }
  return parsed.data;
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
