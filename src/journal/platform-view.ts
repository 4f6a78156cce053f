/**
 * A recording read as the platform saw it. The simulator (`platform`, `replay`) and `proxy`
 * journal each exchange with the platform's direction; the roles facing the platform
 * (`listen`, `hook-target`, `bot-sim`, `send-text`) journal it from their own side, so the
 * direction reads the other way round. `trace`, `record diff` and `record profile` all read a
 * record's direction and times through here.
 */
import type { ExchangeRecord } from './record.js';

/** The bot events the platform sends (spec 6.1; the public docs' CHAT_CLOSED, AGENT_MESSAGE). */
const PLATFORM_BOT_EVENTS = new Set([
  'bot.event.CLIENT_MESSAGE',
  'bot.event.AGENT_JOINED',
  'bot.event.AGENT_UNAVAILABLE',
  'bot.event.CHAT_CLOSED',
  'bot.event.AGENT_MESSAGE',
]);

/**
 * The direction as the platform saw the exchange (`in`: it served the request, `out`: it sent
 * it), by who sends the kind: an agent message the integrator's side recorded as received
 * (`listen --record`), a hook the receiver took (`hook-target --record`), a CLIENT_MESSAGE the
 * bot took (`bot-sim --record`) are ones the platform sent; a BOT_MESSAGE the bot sent and a
 * customer message the integrator sent (`send-text --record`) are ones the platform took. A
 * record with no kind keeps the direction it was recorded with.
 * @example platformDirection({ iface: 'channel', direction: 'in', kind: 'channel.agent.text' }) // 'out'
 */
export function platformDirection(
  record: Pick<ExchangeRecord, 'iface' | 'direction' | 'kind'>,
): ExchangeRecord['direction'] {
  const kind = record.kind;
  if (kind === undefined) return record.direction;
  if (record.iface === 'channel' && kind.startsWith('channel.agent.')) return 'out';
  if (record.iface === 'channel' && kind.startsWith('channel.customer.')) return 'in';
  if (record.iface === 'hook' && kind.startsWith('hook.')) return 'out';
  if (record.iface === 'bot' && kind.startsWith('bot.event.'))
    return PLATFORM_BOT_EVENTS.has(kind) ? 'out' : 'in';
  return record.direction;
}

/**
 * True for a record one of the platform's peers made of its own side (listen, hook-target,
 * bot-sim, send-text): its direction is the platform's reversed.
 */
export const recordedByPeer = (
  record: Pick<ExchangeRecord, 'iface' | 'direction' | 'kind'>,
): boolean => platformDirection(record) !== record.direction;

/**
 * When the exchange started and ended, in the recorder's protocol ms. The recorder stamps a
 * request it served when it came in, and one it sent when its reply came (or it failed), so
 * that one started its duration earlier: the recorder's own direction says which.
 * @example exchangeTimes({ direction: 'out', protocolMs: 3050, durationMs: 50 }) // { startMs: 3000, endMs: 3050 }
 */
export function exchangeTimes(
  record: Pick<ExchangeRecord, 'direction' | 'protocolMs' | 'durationMs'>,
): { startMs: number; endMs: number } {
  const duration = record.durationMs ?? 0;
  const startMs = record.direction === 'out' ? record.protocolMs - duration : record.protocolMs;
  return { startMs, endMs: startMs + duration };
}

/**
 * How long the platform waits for a peer's whole reply before the attempt times out, by
 * interface: spec 8, 3 s per attempt to the integrator (derived from its 9 s) and to the bot;
 * hooks, where the spec gives no figure (6.2, 8), the simulator's assumed 10 s. The
 * `attemptTimeoutMs` of src/contract/timing.ts's policies, which the journal may not import
 * (eslint.config.js); `test/unit/journal/platform-view.test.ts` holds the two together.
 */
export const PLATFORM_WAIT_MS: Readonly<Partial<Record<ExchangeRecord['iface'], number>>> = {
  channel: 3000,
  bot: 3000,
  hook: 10_000,
};

/**
 * How much shorter than the platform's wait a peer measures it: the peer's clock starts when
 * the request came in, after the platform started its own (connect, send), and stops when it
 * saw the connection go (a slow body cut off: 3000 ms on the platform's side, 2991 on listen's
 * on a busy machine).
 */
const PEER_CLOCK_SLACK_MS = 100;

/**
 * True when the platform gave up waiting for the reply a peer recorded: a peer that served
 * what the platform sent and held its reply back (`hang`), or whose reply took as long as the
 * platform waits (spec 8: 3 s per attempt; a `slow-body`, a late 200), recorded an answer the
 * platform never had in full. Its `durationMs` tells: the peer stamps its own record.
 * @example platformTimedOut({ iface: 'channel', direction: 'in', kind: 'channel.agent.text', durationMs: 3000, response: { status: 200 } }) // true
 */
export function platformTimedOut(
  record: Pick<ExchangeRecord, 'iface' | 'direction' | 'kind' | 'failure' | 'durationMs'>,
): boolean {
  // only what the peer served: the platform's wait does not bound its answers to the peer
  if (record.direction !== 'in' || !recordedByPeer(record)) return false;
  if (record.failure?.reason === 'hang') return true;
  const wait = PLATFORM_WAIT_MS[record.iface];
  return (
    wait !== undefined &&
    record.durationMs !== undefined &&
    record.durationMs >= wait - PEER_CLOCK_SLACK_MS
  );
}

/**
 * Why an exchange had no answer, as the platform saw it: a peer that held its reply back
 * (`hang`, its fault) or answered too late left the platform waiting until its attempt timed
 * out (`platformTimedOut`); other reasons (a reset) read the same from both sides. Undefined
 * when the exchange was answered in time.
 * @example platformFailureReason({ iface: 'channel', direction: 'in', kind: 'channel.agent.text', failure: { reason: 'hang', message: '' } }) // 'timeout'
 */
export function platformFailureReason(
  record: Pick<ExchangeRecord, 'iface' | 'direction' | 'kind' | 'failure' | 'durationMs'>,
): string | undefined {
  return platformTimedOut(record) ? 'timeout' : record.failure?.reason;
}

/**
 * The answer the platform had: the recorded one, but none for a reply the platform timed out
 * on (`platformTimedOut`: the peer wrote it, the platform had given up).
 * @example platformResponse({ iface: 'channel', direction: 'in', kind: 'channel.agent.text', durationMs: 4000, response: { status: 200 } }) // undefined
 */
export function platformResponse(
  record: Pick<
    ExchangeRecord,
    'iface' | 'direction' | 'kind' | 'failure' | 'durationMs' | 'response'
  >,
): ExchangeRecord['response'] {
  return platformTimedOut(record) ? undefined : record.response;
}
