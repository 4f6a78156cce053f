import type { ExchangeRecord } from '../journal/record.js';

/**
 * A bot's answers to one event, read from the platform's journal (spec 4.3, 6.1, 8): the
 * `redeliver` step finds the event it sends again here, and the `answers` expectation counts
 * what the bot sent back for it. A bot's BOT_MESSAGE names the chat, not the event it answers,
 * so an answer belongs to an event when it is for the event's chat and came after the event's
 * first attempt began and before the next CLIENT_MESSAGE of that chat was sent.
 *
 * Protocol time alone cannot order what happened at one instant: on replay's virtual clock
 * every exchange of a step is at the same protocol ms, and the journal writes an attempt when
 * its answer came, after what a bot answering at once posted. The customer's message is
 * journaled before the platform sends it on, so at one instant an answer belongs to the
 * CLIENT_MESSAGE of the customer message journaled last before it. A recording may hold
 * several runs (`--record` appends), each with chats and a clock of its own: an event and its
 * answers are of one run.
 */
type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

function bodyOf(r: ExchangeRecord): Json | undefined {
  try {
    const value: unknown = JSON.parse(r.request.body ?? '');
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The events a bot sends the platform as answers (spec 6.1). */
const ANSWERS = new Set(['BOT_MESSAGE', 'INVITE_AGENT']);

/** One bot event the platform sent: its id, chat, body and the attempts made so far. */
export interface SentBotEvent {
  id: string;
  event: string;
  chatId: number | undefined;
  body: string;
  /** the journal's attempts of it, in order (the platform's own and redeliveries) */
  attempts: ExchangeRecord[];
  /** protocol ms its first attempt began */
  startedMs: number;
  /** the run the event was sent in (`--record` appends runs to one file) */
  run: string | undefined;
  /**
   * the journal index of the customer message of its chat journaled last before its first
   * attempt (-1: none): what orders events and answers of one protocol instant
   */
  anchor: number;
}

const chatOf = (r: ExchangeRecord, body: Json | undefined): number | undefined => {
  if (r.chat !== undefined) return r.chat;
  const id = Number(body?.chat_id);
  return Number.isFinite(id) ? id : undefined;
};

/** protocol ms an attempt began: the journal stamps an attempt when its answer came */
const beganMs = (r: ExchangeRecord): number => r.protocolMs - (r.durationMs ?? 0);

/**
 * The bot events the platform sent (direction `out`), by id, oldest first.
 * @example sentBotEvents(core.journal.entries()).at(-1)?.id
 */
export function sentBotEvents(records: readonly ExchangeRecord[]): SentBotEvent[] {
  const byId = new Map<string, SentBotEvent>();
  const lastCustomer = new Map<string, number>();
  const runOrder = new Map<string | undefined, number>();
  for (const [index, r] of records.entries()) {
    if (!runOrder.has(r.run)) runOrder.set(r.run, runOrder.size);
    if (isCustomerMessage(r)) lastCustomer.set(chatKey(r.run, r.chat), index);
    if (r.iface !== 'bot' || r.direction !== 'out') continue;
    // the platform stopped before an answer (a recording ended mid-series): no attempt of it
    if (r.failure?.reason === 'interrupted') continue;
    const body = bodyOf(r);
    if (!body || typeof body.event !== 'string') continue;
    // spec 2.5: a string (a numeric id is read as its digits)
    if (typeof body.id !== 'string' && typeof body.id !== 'number') continue;
    const id = String(body.id);
    const known = byId.get(id);
    if (known) {
      known.attempts.push(r);
      known.startedMs = Math.min(known.startedMs, beganMs(r));
    } else {
      const chatId = chatOf(r, body);
      byId.set(id, {
        id,
        event: body.event,
        chatId,
        body: r.request.body ?? '',
        attempts: [r],
        startedMs: beganMs(r),
        run: r.run,
        anchor: lastCustomer.get(chatKey(r.run, chatId)) ?? -1,
      });
    }
  }
  const runOf = (e: SentBotEvent): number => runOrder.get(e.run) ?? 0;
  return [...byId.values()].sort(
    (a, b) => runOf(a) - runOf(b) || a.startedMs - b.startedMs || a.anchor - b.anchor,
  );
}

/** A chat of one run: chat ids count from 1 again in each run of a recording. */
const chatKey = (run: string | undefined, chat: number | undefined): string =>
  `${run ?? ''}\u0000${String(chat)}`;

/** A customer's message the platform served (spec 4.1): journaled before it goes on. */
const isCustomerMessage = (r: ExchangeRecord): boolean =>
  r.iface === 'channel' &&
  r.direction === 'in' &&
  typeof r.kind === 'string' &&
  r.kind.startsWith('channel.customer.');

/**
 * The event `id`, or without one the last CLIENT_MESSAGE the bot was sent; undefined when
 * there is none.
 */
export function findBotEvent(
  records: readonly ExchangeRecord[],
  id: string | undefined,
): SentBotEvent | undefined {
  const sent = sentBotEvents(records);
  if (id !== undefined) return sent.find((e) => e.id === id);
  return sent.filter((e) => e.event === 'CLIENT_MESSAGE').at(-1);
}

export interface BotAnswers {
  event: SentBotEvent;
  /** the answers the bot service accepted (HTTP 200): what reaches the customer */
  accepted: Array<{ event: string; text?: string; protocolMs: number }>;
  /** answers the bot service refused, with their status */
  refused: Array<{ event: string; status: number | undefined }>;
}

/**
 * What the bot answered to one event it was sent: BOT_MESSAGE and INVITE_AGENT for the
 * event's chat, from its first attempt until the next CLIENT_MESSAGE of that chat.
 * @example countBotAnswers(records, findBotEvent(records, undefined)!).accepted.length // 1
 */
export function countBotAnswers(
  records: readonly ExchangeRecord[],
  event: SentBotEvent,
): BotAnswers {
  const next = sentBotEvents(records).find(
    (e) =>
      e.id !== event.id &&
      e.event === 'CLIENT_MESSAGE' &&
      e.run === event.run &&
      e.chatId === event.chatId &&
      (e.startedMs > event.startedMs ||
        (e.startedMs === event.startedMs && e.anchor > event.anchor)),
  );
  // at the instant an event began, an answer journaled after its customer message is its own
  const after = (ms: number, index: number, e: SentBotEvent): boolean =>
    ms > e.startedMs || (ms === e.startedMs && index > e.anchor);
  const accepted: BotAnswers['accepted'] = [];
  const refused: BotAnswers['refused'] = [];
  for (const [index, r] of records.entries()) {
    if (r.iface !== 'bot' || r.direction !== 'in' || r.run !== event.run) continue;
    if (!after(r.protocolMs, index, event) || (next && after(r.protocolMs, index, next))) continue;
    const body = bodyOf(r);
    if (!body || typeof body.event !== 'string' || !ANSWERS.has(body.event)) continue;
    if (chatOf(r, body) !== event.chatId) continue;
    if (r.response?.status === 200) {
      const message = body.message;
      const text = isObject(message) && typeof message.text === 'string' ? message.text : undefined;
      accepted.push({
        event: body.event,
        ...(text === undefined ? {} : { text }),
        protocolMs: r.protocolMs,
      });
    } else refused.push({ event: body.event, status: r.response?.status });
  }
  return { event, accepted, refused };
}
