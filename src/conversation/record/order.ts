import type { ExchangeRecord } from '../../journal/journal.js';
import type { ConversationInput } from '../format.js';
import { hookEventName, isHookSent } from './hooks.js';

/*
 * `record to-fixture`: the order the parties saw things in, as one `order` expectation
 * (`{"expect": {"order": ["hook:chat_accepted", "integrator:text", ...]}}`, format.ts). Only
 * what came well apart in the recording is kept: things a single step set off in the same
 * moment may reach the parties in either order, and a replay must not fail on that.
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

/**
 * The recorded order as labels (first occurrences, each at least ORDER_GAP_MS after the one
 * kept before it), or undefined when fewer than two are that far apart. Records of one run,
 * as the platform journaled them; a delivery is placed where it started.
 * @example orderOf(records) // ['hook:chat_accepted', 'integrator:text', 'hook:chat_finished']
 */
export function orderOf(records: readonly ExchangeRecord[]): string[] | undefined {
  const firsts = new Map<string, number>();
  for (const r of records) {
    const label = labelOf(r);
    if (label === undefined || firsts.has(label)) continue;
    const startMs = r.direction === 'out' ? r.protocolMs - (r.durationMs ?? 0) : r.protocolMs;
    firsts.set(label, startMs);
  }
  const kept: string[] = [];
  let last = Number.NEGATIVE_INFINITY;
  for (const [label, at] of [...firsts].sort((a, b) => a[1] - b[1])) {
    if (at - last < ORDER_GAP_MS) continue;
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
