import { z } from 'zod';
import { HOOK_EVENTS, HOOK_RESULTS, hookSchemas, type HookEventName } from './hooks.js';
import type { ContractIssue, ValidateOptions, ValidationResult } from './types.js';
import { validate } from './validate.js';

/**
 * The smallest reply to `event` that conforms (spec 6.2), read from its reply schema: each
 * required field holds the first of the contract's results (`ok`, `FAILURE`) it takes, and
 * the whole is checked against the schema. Undefined when none can be built that way
 * (call_event's reply is not shown: any object).
 * @example minimalHookReply('chat_finished') // { result: 'ok' }
 */
export function minimalHookReply(event: HookEventName): Record<string, unknown> | undefined {
  const schema = hookSchemas().hookReplySchemas[event];
  if (!(schema instanceof z.ZodObject)) return undefined;
  const fields: Readonly<Record<string, z.ZodType>> = schema.shape;
  const reply: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(fields)) {
    if (field.safeParse(undefined).success) continue; // optional: the smallest leaves it out
    const value = HOOK_RESULTS.find((result) => field.safeParse(result).success);
    if (value === undefined) return undefined;
    reply[key] = value;
  }
  return validate(`hook.${event}.reply`, reply).ok ? reply : undefined;
}

/**
 * A hook reply checked against `hook.<event>.reply` (spec 6.2); when it lacks a required
 * field, that issue says what the smallest reply that conforms is, so a receiver answering
 * `{"ok":true}` learns the shape wanted, not only that `result` is missing.
 * @example validateHookReply('chat_finished', { ok: true }).errors[0].rule // 'required; a minimal valid reply is {"result":"ok"}'
 */
export function validateHookReply(
  event: HookEventName,
  reply: unknown,
  options: ValidateOptions = {},
): ValidationResult {
  const verdict = validate(`hook.${event}.reply`, reply, options);
  const missing = (issue: ContractIssue): boolean =>
    issue.code === 'required' && /^\w+$/.test(issue.path);
  const first = verdict.errors.findIndex(missing);
  if (first === -1) return verdict;
  const minimal = minimalHookReply(event);
  if (minimal === undefined || !(verdict.errors[first]!.path in minimal)) return verdict;
  const hint = `a minimal valid reply is ${JSON.stringify(minimal)}`;
  return {
    ...verdict,
    errors: verdict.errors.map((issue, i) =>
      i === first ? { ...issue, rule: `${issue.rule}; ${hint}` } : issue,
    ),
  };
}

/**
 * A payload checked against `kind`, with the hint of `validateHookReply` when it is the reply
 * to one of spec 6.2's events: what stands between a receiver and the platform (the proxy)
 * says the same as what fires at it.
 * @example validateMaybeHookReply('hook.chat_finished.reply', { ok: true }).errors[0].rule // 'required; a minimal valid reply is {"result":"ok"}'
 */
export function validateMaybeHookReply(
  kind: string,
  value: unknown,
  options: ValidateOptions = {},
): ValidationResult {
  const event = /^hook\.(\w+)\.reply$/.exec(kind)?.[1];
  return event !== undefined && (HOOK_EVENTS as readonly string[]).includes(event)
    ? validateHookReply(event as HookEventName, value, options)
    : validate(kind, value, options);
}
