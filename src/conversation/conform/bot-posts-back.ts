import type { ExchangeRecord } from '../../journal/journal.js';
import type { BotHarness } from './bot-harness.js';
import type { CheckOutcome } from './case.js';

/**
 * Protocol ms a bot's posts after a notice are waited for: a bot that answers AGENT_UNAVAILABLE
 * with a BOT_MESSAGE to the customer ("no one is free, leave a message") posts it once it has
 * answered the notice 200. Ends early at the first refusal.
 */
export const POST_BACK_MS = 500;

type Json = Record<string, unknown>;

/** A JSON object in `text`, else undefined (not JSON, or an array or a scalar). */
export const parseObject = (text: string | undefined): Json | undefined => {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Json)
      : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The posts the bot made to the bot service since `since` that were refused (4xx, 5xx), each
 * as a reason naming the notice it followed: what the bot sent there never reached the
 * customer, though the notice itself was answered 200 (spec 4.3, 7.2).
 * @example await judgePostsBack(harness, since, 'AGENT_UNAVAILABLE') // [] when all were taken
 */
export async function judgePostsBack(
  harness: BotHarness,
  since: number,
  event: string,
  withinMs = POST_BACK_MS,
): Promise<CheckOutcome> {
  const refused = (): ExchangeRecord[] | undefined => {
    const found = harness.received(since).filter((r) => (r.response?.status ?? 0) >= 400);
    return found.length > 0 ? found : undefined;
  };
  const records = (await harness.waitFor(refused, withinMs)) ?? [];
  return records.map((record) => {
    const sent = parseObject(record.request.body)?.event;
    const what = typeof sent === 'string' ? sent : 'an event';
    const status = record.response?.status ?? 0;
    const error = parseObject(record.response?.body)?.error as Json | undefined;
    const why = error ? `: ${String(error.code)}: ${String(error.message)}` : '';
    return `after ${event} the bot posted ${what} to the bot service, which refused it with HTTP ${status}${why}; the customer never gets it (spec 4.3, 7.2)`;
  });
}
