import type { ExchangeRecord } from '../../journal/journal.js';
import type { ConversationInput } from '../format.js';

/**
 * The hook half of `record to-fixture` (spec 4.4, 6.2): each hook event the platform sent
 * becomes a `hook` expectation (event_name and the fields that do not depend on chat ids or
 * times) with the recorded reply as `$reply`; the replies become the embedded hook-target's
 * `setup.hooks.replies`, failed replies its fault sequence. Control-API actions that trigger
 * hooks (assign, rate, close, visitor update, offline form, calls) become control steps.
 */
type Json = Record<string, unknown>;
type StepInput = ConversationInput['steps'][number];
type HooksSetup = NonNullable<NonNullable<ConversationInput['setup']>['hooks']>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

export function parseJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The hook exchanges the platform sent (first attempts: replay's hook policy has one). */
export const isHookSent = (r: ExchangeRecord): boolean =>
  r.iface === 'hook' && r.direction === 'out' && (r.attempt ?? 1) === 1;

/** spec 2.6: what identifies an event without chat ids, times or random ids. */
function stableFields(body: Json): Json {
  const out: Json = { event_name: body.event_name };
  if (isObject(body.agent)) {
    const { id, name } = body.agent;
    out.agent = { ...(id === undefined ? {} : { id }), ...(name === undefined ? {} : { name }) };
  }
  if (isObject(body.visitor)) {
    const visitor: Json = {};
    for (const key of ['name', 'email', 'phone'] as const)
      if (typeof body.visitor[key] === 'string') visitor[key] = body.visitor[key];
    if (Object.keys(visitor).length > 0) out.visitor = visitor;
  }
  if (typeof body.message === 'string') out.message = body.message; // offline_message
  if (isObject(body.call)) out.call = { type: body.call.type, status: body.call.status };
  return out;
}

/** The recorded reply, when it was a usable one (HTTP 200 with JSON, spec 6.2). */
function replyOf(r: ExchangeRecord): Json | undefined {
  if (r.response?.status !== 200) return undefined;
  const reply = parseJson(r.response.body);
  return isObject(reply) ? reply : undefined;
}

/** The hook-target fault that answers like the recorded receiver did. */
function hookFaultOf(r: ExchangeRecord): string {
  if (!r.response)
    return r.failure?.reason === 'timeout' || r.failure?.reason === 'hang' ? 'hang' : 'reset';
  if (r.response.status !== 200) return `status:${r.response.status}`;
  return replyOf(r) ? 'none' : 'bad-json';
}

/** A hook expectation for one recorded hook event, or undefined when its body is not JSON. */
export function hookExpectation(r: ExchangeRecord): StepInput | undefined {
  const body = parseJson(r.request.body);
  if (!isObject(body) || typeof body.event_name !== 'string') return undefined;
  const reply = replyOf(r);
  return { expect: { hook: { ...stableFields(body), ...(reply ? { $reply: reply } : {}) } } };
}

/** The chat id a hook event is about (spec 6.2 chat_id), if any. */
export function hookChatId(r: ExchangeRecord): number | undefined {
  const body = parseJson(r.request.body);
  return isObject(body) && typeof body.chat_id === 'number' ? body.chat_id : undefined;
}

export const hookEventName = (r: ExchangeRecord): string | undefined => {
  const body = parseJson(r.request.body);
  return isObject(body) && typeof body.event_name === 'string' ? body.event_name : undefined;
};

/**
 * `setup.hooks` from the recorded replies: the first usable reply per event (later different
 * ones are noted: the hook-target answers one reply per event), and a fault sequence when a
 * reply was not usable.
 */
export function hooksSetupOf(records: readonly ExchangeRecord[], notes: string[]): HooksSetup {
  const replies: Record<string, unknown> = {};
  const sequence: string[] = [];
  for (const r of records) {
    const name = hookEventName(r);
    const fault = hookFaultOf(r);
    sequence.push(fault);
    const reply = replyOf(r);
    if (!name || !reply) continue;
    const key = name === 'offline_messages' ? 'offline_message' : name;
    if (!(key in replies)) replies[key] = reply;
    else if (JSON.stringify(replies[key]) !== JSON.stringify(reply))
      notes.push(`${key}: a later, different reply was replaced by the first one`);
  }
  return {
    ...(Object.keys(replies).length > 0 ? { replies } : {}),
    ...(sequence.some((f) => f !== 'none') ? { faults: { sequence } } : {}),
  };
}

/** Control-API actions that trigger hooks (spec 3), replayed as control steps. */
const HOOK_TRIGGERS =
  /^\/_sim\/(chats\/\d+\/(assign|rate|close)|visitor\/(update|offline-message)|calls)$/;

/** A control step for a recorded control POST that triggers hooks, or undefined. */
export function controlStepOf(r: ExchangeRecord): StepInput | undefined {
  const path = new URL(r.request.url, 'http://x').pathname;
  if (r.request.method !== 'POST' || !HOOK_TRIGGERS.test(path)) return undefined;
  const body = parseJson(r.request.body);
  return {
    control: { method: 'POST', path, ...(body === undefined ? {} : { body }) },
    ...(r.response ? { response: { status: r.response.status } } : {}),
  };
}

/** The chat a recorded control assign (crm_link, spec 6.2 chat_assigned) is about. */
export function assignedChatOf(r: ExchangeRecord): number | undefined {
  const match = /^\/_sim\/chats\/(\d+)\/assign$/.exec(new URL(r.request.url, 'http://x').pathname);
  return match ? Number(match[1]) : undefined;
}

/** The chat a recorded control close is about. */
export function closedChatOf(r: ExchangeRecord): number | undefined {
  const match = /^\/_sim\/chats\/(\d+)\/close$/.exec(new URL(r.request.url, 'http://x').pathname);
  return match ? Number(match[1]) : undefined;
}
