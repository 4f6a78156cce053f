import type { z } from 'zod';
import { ERRORS, type ErrorCode } from '../error-codes.js';
import { SvcError } from '../errors.js';
import { errorBody } from '../http/body.js';
import type { PlatformRequest, PlatformResponse } from './types.js';

/** What every /_sim/ route shares: the ok answer, the body parser, the error mapping. */
export const controlOk = (body: unknown, status = 200): PlatformResponse => ({
  status,
  body,
  record: { iface: 'control' },
});

/** Parses a control-API body with a zod schema; problems are input errors naming the field. */
export function parseControlBody<T>(schema: z.ZodType<T>, request: PlatformRequest): T {
  const body = request.body;
  if (!body?.ok) {
    throw new SvcError('SVC_E_CONTROL_BODY', 'input', body?.message ?? 'a JSON body is required');
  }
  const parsed = schema.safeParse(body.json);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`)
      .join('; ');
    throw new SvcError('SVC_E_CONTROL_BODY', 'input', issues);
  }
  return parsed.data;
}

/** The catalogue's HTTP status for a code (src/error-codes.ts), else 400. */
function statusOf(code: ErrorCode): number {
  const entry = ERRORS[code];
  return 'status' in entry ? entry.status : 400;
}

/** Maps an input error to its HTTP answer (404 unknown chat, 409 conflict, else 400); rethrows others. */
export function answerControlError(error: unknown): PlatformResponse {
  if (error instanceof SvcError && error.category === 'input') {
    return {
      status: statusOf(error.code),
      body: errorBody(error.code, error.message),
      record: { iface: 'control' },
    };
  }
  throw error;
}
