import type { ExchangeRecord } from '../../journal/journal.js';
import { DEFAULT_WITHIN_MS, type ConversationInput } from '../format.js';
import { compact } from '../../compact.js';

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
    out.agent = compact({ id, name });
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

/** A hook event the receiver failed: no answer, an error status or an unusable reply (spec 6.2). */
export const isHookFailed = (r: ExchangeRecord): boolean => hookFaultOf(r) !== 'none';

const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The recorded reply with the chat's id, where a string holds it (a CRM link
 * `.../deals/1`), matched as any id: a replay numbers its chats afresh against a real
 * receiver (src/conversation/run-ids.ts), and the receiver answers for that chat.
 */
function anyChatIn(value: unknown, chatId: number): unknown {
  if (typeof value === 'string') {
    const parts = value.split(new RegExp(`(?<!\\d)${chatId}(?!\\d)`));
    if (parts.length === 1) return value;
    return { $regex: `^${parts.map(escapeRegex).join('\\d+')}$` };
  }
  if (Array.isArray(value)) return value.map((item) => anyChatIn(item, chatId));
  if (isObject(value))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, anyChatIn(item, chatId)]),
    );
  return value;
}

/**
 * A hook expectation for one recorded hook event, or undefined when its body is not JSON.
 * `afterMs`: how long after its trigger it came (a call's status), added to the default wait.
 */
export function hookExpectation(
  r: ExchangeRecord,
  afterMs = 0,
  keepFailure = true,
): StepInput | undefined {
  const body = parseJson(r.request.body);
  if (!isObject(body) || typeof body.event_name !== 'string') return undefined;
  const reply = replyOf(r);
  // a receiver's error status is part of what it did: replay against it expects it again,
  // unless the conversation is written for a receiver that answers (--peer-failures drop)
  const status =
    keepFailure && r.response && r.response.status !== 200 ? { $status: r.response.status } : {};
  const chatId = typeof body.chat_id === 'number' ? body.chat_id : undefined;
  const expected = reply && chatId !== undefined ? anyChatIn(reply, chatId) : reply;
  const hook = { ...stableFields(body), ...(expected ? { $reply: expected } : {}), ...status };
  return afterMs >= 1000
    ? { expect: { hook, within: DEFAULT_WITHIN_MS + Math.ceil(afterMs / 1000) * 1000 } }
    : { expect: { hook } };
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
 * reply was not usable. The sequence counts the hook-target's requests, so `unrecorded` says
 * how many hooks replay sends that the recording lacks, before which recorded one (its index
 * in `records`): each gets `none`, and the recorded faults stay on their own events.
 * `keepFailures` false: every event answered (`record to-fixture --peer-failures drop`).
 */
export function hooksSetupOf(
  records: readonly ExchangeRecord[],
  notes: string[],
  unrecorded: ReadonlyMap<number, number> = new Map(),
  keepFailures = true,
): HooksSetup {
  const replies: Record<string, unknown> = {};
  const sequence: string[] = [];
  for (const [i, r] of records.entries()) {
    for (let n = unrecorded.get(i) ?? 0; n > 0; n--) sequence.push('none');
    const name = hookEventName(r);
    sequence.push(keepFailures ? hookFaultOf(r) : 'none');
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

/** A recorded call_event's call (spec 2.6 call, 6.2 call_event). */
interface RecordedCall {
  status: string;
  phone: string;
  type: string;
  reason?: string;
  chatId?: number;
}

function callOf(r: ExchangeRecord): RecordedCall | undefined {
  const body = parseJson(r.request.body);
  if (!isObject(body) || body.event_name !== 'call_event' || !isObject(body.call)) return undefined;
  const { status, phone, type, reason } = body.call;
  if (typeof status !== 'string' || typeof phone !== 'string' || typeof type !== 'string')
    return undefined;
  return {
    status,
    phone,
    type,
    ...(typeof reason === 'string' ? { reason } : {}),
    ...(typeof body.chat_id === 'number' ? { chatId: body.chat_id } : {}),
  };
}

/** A chat id as the control API takes it: a number, or a string of digits. */
export const chatIdOf = (value: unknown): number | undefined =>
  typeof value === 'number'
    ? value
    : typeof value === 'string' && /^\d+$/.test(value)
      ? Number(value)
      : undefined;

/**
 * A call's identity across its statuses, within one recorded run: the events carry no call
 * id (spec 2.6), and each run's chat ids start at 1 again.
 */
const callKey = (run: string | undefined, phone: string, chatId: number | undefined): string =>
  `${run ?? ''}|${phone.trim()}|${chatId ?? ''}`;

/** A record's identity in a file: `seq` counts within its run (`--record` appends runs). */
export const recordId = (r: ExchangeRecord): string => `${r.run ?? ''}#${r.seq}`;

/** What `record to-fixture` needs of the recorded calls, by `recordId`. */
export interface RecordedCalls {
  /**
   * By a call's `start` hook: the control step that starts it when nothing in the recording
   * did (the console's /call leaves no control request)
   */
  steps: Map<string, StepInput>;
  /** by each call_event: protocol ms since its call's `start` */
  delays: Map<string, number>;
}

/**
 * The recorded calls. A call the control API started (an accepted `POST /_sim/calls`, no
 * later than its `start` hook) replays through that recorded request; one the agent started
 * in the console gets a control step that starts it the same way: the phone, chat and type of
 * its `start`, and `error` with its reason when it failed. Each call_event's delay lets replay
 * wait for it: a call ends 40 s after it starts, past an expectation's default wait.
 */
export function recordedCalls(
  hooks: readonly ExchangeRecord[],
  controls: readonly ExchangeRecord[],
): RecordedCalls {
  // the calls the control API started, by run, phone and chat, in the order they came
  const controlled = new Map<string, ExchangeRecord[]>();
  for (const r of controls) {
    const path = new URL(r.request.url, 'http://x').pathname;
    if (r.request.method !== 'POST' || path !== '/_sim/calls') continue;
    if (r.response?.status !== 202) continue; // refused: it started no call
    const body = parseJson(r.request.body);
    if (!isObject(body) || typeof body.phone !== 'string') continue;
    const key = callKey(r.run, body.phone, chatIdOf(body.chatId));
    controlled.set(key, [...(controlled.get(key) ?? []), r]);
  }
  /** Takes the control request that started a call: the latest one before its `start`. */
  const takeControl = (key: string, start: ExchangeRecord): boolean => {
    const list = controlled.get(key) ?? [];
    let found = -1;
    for (const [i, r] of list.entries()) if (r.protocolMs <= start.protocolMs) found = i;
    if (found < 0) return false;
    list.splice(found, 1);
    return true;
  };
  const result: RecordedCalls = { steps: new Map(), delays: new Map() };
  const open = new Map<string, { start: ExchangeRecord; call: RecordedCall }>();
  const finish = (key: string, last?: RecordedCall): void => {
    const started = open.get(key);
    if (!started) return;
    open.delete(key);
    if (takeControl(key, started.start)) return;
    const { phone, type, chatId } = started.call;
    const body: Json = {
      phone,
      ...(chatId === undefined ? {} : { chatId }),
      ...(type === 'callback' ? {} : { type }),
      ...(last?.status === 'error' ? { outcome: 'error', reason: last.reason ?? 'error' } : {}),
    };
    result.steps.set(recordId(started.start), {
      control: { method: 'POST', path: '/_sim/calls', body },
      response: { status: 202 }, // accepted: the call goes on on the clock
    });
  };
  for (const r of hooks) {
    const call = callOf(r);
    if (!call) continue;
    const key = callKey(r.run, call.phone, call.chatId);
    if (call.status === 'start') {
      finish(key); // a new start with the same phone and chat: the last call's end is not recorded
      open.set(key, { start: r, call });
    }
    const started = open.get(key);
    if (started) result.delays.set(recordId(r), r.protocolMs - started.start.protocolMs);
    if (call.status === 'end' || call.status === 'error') finish(key, call);
  }
  for (const key of [...open.keys()]) finish(key);
  return result;
}
