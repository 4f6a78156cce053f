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
 * Why an exchange had no answer, as the platform saw it: a peer that held its reply back
 * (`hang`, its fault) left the platform waiting until its attempt timed out; other reasons
 * (a reset) read the same from both sides. Undefined when the exchange was answered.
 * @example platformFailureReason({ iface: 'channel', direction: 'in', kind: 'channel.agent.text', failure: { reason: 'hang', message: '' } }) // 'timeout'
 */
export function platformFailureReason(
  record: Pick<ExchangeRecord, 'iface' | 'direction' | 'kind' | 'failure'>,
): string | undefined {
  const reason = record.failure?.reason;
  return reason === 'hang' && recordedByPeer(record) ? 'timeout' : reason;
}
