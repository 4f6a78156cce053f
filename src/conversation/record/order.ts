import type { ExchangeRecord } from '../../journal/journal.js';
import type { ConversationInput } from '../format.js';
import { hookEventName, isHookSent } from './hooks.js';

/*
 * `record to-fixture`: the order the parties saw things in, as one `order` expectation
 * (`{"expect": {"order": ["hook:chat_accepted", "integrator:text", ...]}}`, format.ts). Only
 * what came well apart in the recording is kept: things a single step set off in the same
 * moment may reach the parties in either order, and a replay must not fail on that. Time alone
 * does not tell them apart: a delivery is placed where its POST started, and on a busy machine
 * one of two POSTs a single moment set off can start more than ORDER_GAP_MS after the other.
 * So a pair the platform's rules say one moment sets off is never ordered (`oneMomentPairs`).
 */

/** First occurrences closer than this (protocol ms) are left out of the order. */
export const ORDER_GAP_MS = 1000;

type Json = Record<string, unknown>;

function bodyOf(r: ExchangeRecord): Json | undefined {
  try {
    const body = JSON.parse(r.request.body ?? '') as unknown;
    return body !== null && typeof body === 'object' ? (body as Json) : undefined;
  } catch {
    return undefined;
  }
}

/** The `order` label of what a party got: a hook event, or an agent message's type. */
function labelOf(r: ExchangeRecord): string | undefined {
  if (isHookSent(r)) {
    const name = hookEventName(r);
    return name === undefined
      ? undefined
      : `hook:${name === 'offline_messages' ? 'offline_message' : name}`;
  }
  if (
    r.iface === 'channel' &&
    r.direction === 'out' &&
    (r.attempt ?? 1) === 1 &&
    (r.kind ?? '').startsWith('channel.agent.')
  ) {
    const message = bodyOf(r)?.message as Json | undefined;
    return typeof message?.type === 'string' ? `integrator:${message.type}` : undefined;
  }
  return undefined;
}

/** Where a record is placed: a delivery where it started, a served request where it came. */
const startOf = (r: ExchangeRecord): number =>
  r.direction === 'out' ? r.protocolMs - (r.durationMs ?? 0) : r.protocolMs;

/** The two labels of a pair, as one key whichever comes first. */
const pairKey = (a: string, b: string): string => (a < b ? `${a}\n${b}` : `${b}\n${a}`);

/**
 * The label pairs one moment sets off, whatever their recorded times: the agent's first
 * message in a chat (not a typing notice) is the agent pressing Reply, which accepts the
 * chat (spec 3: hook chat_accepted), so the hook and that message are sent in one turn, and
 * neither is the other's cause. A chat accepted earlier (a bot's hand-over) loses nothing
 * true: the pair is just not ordered.
 */
function oneMomentPairs(records: readonly ExchangeRecord[]): Set<string> {
  const accepted = new Set<number>();
  const firstMessage = new Map<number, { label: string; at: number }>();
  for (const r of records) {
    const label = labelOf(r);
    if (label === undefined || r.chat === undefined) continue;
    if (label === 'hook:chat_accepted') accepted.add(r.chat);
    else if (label.startsWith('integrator:') && !/^integrator:type(in|out)$/.test(label)) {
      const seen = firstMessage.get(r.chat);
      if (!seen || startOf(r) < seen.at) firstMessage.set(r.chat, { label, at: startOf(r) });
    }
  }
  const pairs = new Set<string>();
  for (const chat of accepted) {
    const message = firstMessage.get(chat);
    if (message) pairs.add(pairKey('hook:chat_accepted', message.label));
  }
  return pairs;
}

/**
 * The recorded order as labels (first occurrences, each at least ORDER_GAP_MS after the one
 * kept before it and not set off in one moment with one kept before it), or undefined when
 * fewer than two are left. Records of one run, as the platform journaled them; a delivery is
 * placed where it started.
 * @example orderOf(records) // ['hook:chat_accepted', 'hook:chat_finished']
 */
export function orderOf(records: readonly ExchangeRecord[]): string[] | undefined {
  const firsts = new Map<string, number>();
  for (const r of records) {
    const label = labelOf(r);
    if (label === undefined || firsts.has(label)) continue;
    firsts.set(label, startOf(r));
  }
  const oneMoment = oneMomentPairs(records);
  const kept: string[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const [label, at] of [...firsts].sort((a, b) => a[1] - b[1])) {
    if (at - last < ORDER_GAP_MS) continue;
    if (kept.some((k) => oneMoment.has(pairKey(k, label)))) continue;
    kept.push(label);
    last = at;
  }
  return kept.length >= 2 ? kept : undefined;
}

/** The `order` expectation step of a recording, or none. */
export function orderSteps(
  records: readonly ExchangeRecord[],
): ConversationInput['steps'][number][] {
  const order = orderOf(records);
  return order ? [{ expect: { order } }] : [];
}
