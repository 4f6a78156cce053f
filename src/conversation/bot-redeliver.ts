import type { Clock } from '../clock.js';
import { postJson } from '../http/client.js';
import type { Journal } from '../journal/journal.js';
import { BOT_DELIVERY_POLICY } from '../contract/timing.js';
import { findBotEvent } from './bot-answers.js';
import { recordExchange } from '../journal/index.js';

/** What the bot answered the redelivered event: its HTTP answer, or why none came. */
export type RedeliverOutcome =
  | { ok: true; id: string; attempt: number; status: number; body: string }
  | { ok: false; id?: string; message: string };

/**
 * The `redeliver` step (spec 8): the platform sends the bot an event it sent before once
 * more, the same body and id, as the attempt after a lost or late 200 would be. Recorded in
 * the platform's journal as that event's next attempt, so expectations (`$attempt`) and the
 * `answers` count see it as they see the platform's own attempts.
 * @example const redeliver = botRedeliverer({ journal, clock, botUrl, token }); await redeliver();
 */
export function botRedeliverer(options: {
  journal: Journal;
  clock: Clock;
  /** the bot provider's URL (`<url>/<token>` is where events go, spec 4.3) */
  botUrl: string;
  token: string;
}): (id?: string) => Promise<RedeliverOutcome> {
  const url = `${options.botUrl.replace(/\/+$/, '')}/${encodeURIComponent(options.token)}`;
  return async (id) => {
    const event = findBotEvent(options.journal.entries(), id);
    if (!event)
      return {
        ok: false,
        message:
          id === undefined
            ? 'the bot was sent no CLIENT_MESSAGE yet: redeliver follows a customer step'
            : `the bot was sent no event with id ${id}`,
      };
    const attempt = Math.max(...event.attempts.map((r) => r.attempt ?? 1)) + 1;
    const last = event.attempts.at(-1);
    const outcome = await postJson({
      url,
      body: event.body,
      timeoutMs: BOT_DELIVERY_POLICY.attemptTimeoutMs,
      clock: options.clock,
    });
    recordExchange(options.journal, {
      protocolMs: options.clock.now(),
      iface: 'bot',
      direction: 'out',
      ...(last?.kind ? { kind: last.kind } : {}),
      attempt,
      ...(event.chatId === undefined ? {} : { chat: event.chatId }),
      ...(last ? { cause: last.seq } : {}),
      request: {
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: event.body,
      },
      ...(outcome.ok
        ? { response: { status: outcome.status, headers: outcome.headers, body: outcome.body } }
        : { failure: { reason: outcome.reason, message: outcome.message } }),
      durationMs: outcome.durationMs,
      wallMs: outcome.wallMs,
      notes: ['redelivered by the fixture (spec 8)'],
    });
    return outcome.ok
      ? { ok: true, id: event.id, attempt, status: outcome.status, body: outcome.body }
      : { ok: false, id: event.id, message: `${outcome.reason}: ${outcome.message}` };
  };
}
