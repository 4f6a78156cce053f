import type { ExchangeRecord } from '../journal/record.js';
import { checkConversation, type InvariantOptions, type Violation } from './invariants.js';
import { linkConversation } from './links.js';
import { spanOf, type TraceSpan } from './span.js';

/*
 * The invariants on a stream of exchanges as they happen (`svc-cli proxy`): each record goes
 * to its conversation (a chat of one run, as in read.ts), and a conversation whose end was seen
 * (chat_finished to the hook receiver, CHAT_CLOSED to the bot) is checked on each record that
 * joins it, so a hook after chat_finished is flagged as it passes; the others are checked when
 * they are put away (ended and settled, or idle) and at the end. A violation is reported once.
 */

export interface WatchLimits {
  /** an ended conversation is put away this many records after its end */
  settleRecords: number;
  /** a conversation this many records without one of its own is put away */
  idleRecords: number;
  /** exchanges kept per conversation (the checks link them all) */
  maxSpans: number;
}

const DEFAULT_LIMITS: WatchLimits = { settleRecords: 1_000, idleRecords: 20_000, maxSpans: 2_000 };

export interface InvariantWatch {
  /** One exchange, as the platform would journal it: the violations it shows that are new. */
  add(record: ExchangeRecord): Violation[];
  /** At the end: every conversation still open, checked; the violations not reported yet. */
  finish(): Violation[];
}

interface Watched {
  run: string;
  chat: number;
  spans: TraceSpan[];
  customers: Set<string>;
  /** the watch's record count at this chat's last record, and at its end */
  lastAt: number;
  endedAt?: number;
  reported: Set<string>;
}

const endsTheChat = (s: TraceSpan): boolean =>
  (s.iface === 'hook' && s.event === 'chat_finished') ||
  (s.iface === 'bot' && s.direction === 'out' && s.event === 'CHAT_CLOSED');

/**
 * Watches a stream of exchanges for broken invariants.
 * @example const watch = watchInvariants({ disabled: ['handover-budget'] }); for (const v of watch.add(record)) report(v);
 */
export function watchInvariants(
  options: InvariantOptions & { limits?: Partial<WatchLimits> } = {},
): InvariantWatch {
  const limits = { ...DEFAULT_LIMITS, ...options.limits };
  const open = new Map<string, Watched>();
  const chatOfCustomer = new Map<string, number>();
  let count = 0;

  const check = (watched: Watched): Violation[] => {
    // the links are inferred afresh each time: a later exchange can be an earlier one's cause
    const spans = linkConversation(watched.spans.map((s) => ({ ...s })));
    const found = checkConversation({ run: watched.run, chat: watched.chat, spans }, options);
    return found.filter((v) => {
      const key = `${v.rule} ${v.exchanges.join(' ')}`;
      if (watched.reported.has(key)) return false;
      watched.reported.add(key);
      return true;
    });
  };
  const putAway = (key: string, watched: Watched): Violation[] => {
    open.delete(key);
    for (const customer of watched.customers) chatOfCustomer.delete(customer);
    return check(watched);
  };
  const sweep = (): Violation[] => {
    const found: Violation[] = [];
    for (const [key, watched] of open) {
      const settled =
        watched.endedAt !== undefined && count - watched.endedAt >= limits.settleRecords;
      if (settled || count - watched.lastAt >= limits.idleRecords)
        found.push(...putAway(key, watched));
    }
    return found;
  };

  return {
    add(record) {
      count++;
      const span = spanOf(record);
      const customerKey =
        span.customer === undefined ? undefined : `${span.run}\u0000${span.customer}`;
      if (span.chat === undefined && span.iface === 'control') {
        const inPath = /\/chats\/(\d+)(\/|$)/.exec(span.path)?.[1];
        if (inPath !== undefined) span.chat = Number(inPath);
      }
      const known = customerKey === undefined ? undefined : chatOfCustomer.get(customerKey);
      if (span.chat === undefined && known !== undefined) span.chat = known;
      const found = count % 256 === 0 ? sweep() : [];
      if (span.chat === undefined) return found;
      const key = `${span.run}\u0000${span.chat}`;
      let watched = open.get(key);
      if (!watched) {
        watched = {
          run: span.run,
          chat: span.chat,
          spans: [],
          customers: new Set(),
          lastAt: count,
          reported: new Set(),
        };
        open.set(key, watched);
      }
      if (customerKey !== undefined) {
        chatOfCustomer.set(customerKey, span.chat);
        watched.customers.add(customerKey);
      }
      watched.lastAt = count;
      if (watched.spans.length >= limits.maxSpans) return found;
      watched.spans.push(span);
      if (endsTheChat(span)) watched.endedAt ??= count;
      if (watched.endedAt !== undefined) found.push(...check(watched));
      return found;
    },
    finish() {
      return [...open].flatMap(([key, watched]) => putAway(key, watched));
    },
  };
}
