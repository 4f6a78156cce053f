import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { postJson } from '../../http/client.js';
import type { Journal } from '../../journal/index.js';
import { createBotProvider } from '../../roles/bot/index.js';
import { recordPost } from './observed.js';

/*
 * The bot provider `conform platform --bot-listen-port` serves (interface B, provider side),
 * so the run sees what the platform sends a bot and the agent-joined invariant (spec 3:
 * AGENT_JOINED only after the bot's INVITE_AGENT or a hand-over) has something to judge. It
 * answers every event 200 (the provider's journal records each in the run's observations)
 * and hands each customer's message over with INVITE_AGENT (spec 4.3, 6.1), journaled as
 * sent: every agent join in a conform chat is then asked for, including the one the
 * redelivery case's agent makes by writing into a chat (spec 3 is silent on an agent
 * answering a bot chat nobody handed over). The bot posts to the platform's bot service:
 * `--bot-api-url`, by default the channel URL's base, as an svc simulator serves it. Its token
 * and provider id are the ones set on the platform's bot channel (`--token`, `--provider-id`).
 */

export interface ConformBotOptions {
  /** the port to listen on (0: any) */
  port: number;
  clock: Clock;
  /** the run's observations (observed.ts) */
  journal: Journal;
  /** the token the platform posts to and the bot posts with (spec 5.2) */
  token: string;
  /** the provider id the platform knows the bot by (spec 1.4) */
  providerId: string;
  /** `{bot_service_url}`: the bot posts to `<it>/webhooks/<provider_id>/<token>` (spec 4.3) */
  platformBase: string;
}

export interface ConformBot {
  readonly url: string;
  /**
   * Waits (at most `withinMs` protocol ms) until the chat where the customer wrote `text` was
   * handed over. The text is what links the two sides: CLIENT_MESSAGE names the chat by the
   * platform's client_id (spec 6.1), never by the channel's sender id, and each case writes its
   * own text.
   */
  handedOver(text: string, withinMs: number): Promise<void>;
  /** Waits for the hand-overs in flight. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const TIMEOUT_MS = 10_000;

/** An empty script: the provider only answers; the hand-over is posted (and journaled) here. */
const ANSWER_ONLY = { version: 1 as const, rules: [] };

/**
 * Serves the bot on `options.port` and hands over each chat it is asked about.
 * @example const bot = await startConformBot({ port: 0, clock, journal, token, providerId, platformBase });
 */
export async function startConformBot(options: ConformBotOptions): Promise<ConformBot> {
  const { clock } = options;
  const invited = new Set<string>();
  const acted = new Set<string>();
  const work = new Set<Promise<unknown>>();
  const provider = await createBotProvider({
    token: options.token,
    providerId: options.providerId,
    port: options.port,
    portFlag: '--bot-listen-port',
    clock,
    journal: options.journal,
    script: ANSWER_ONLY,
    onEvent(event) {
      if (event.type !== 'bot-received' || event.event !== 'CLIENT_MESSAGE') return;
      if (!('status' in event.reply) || event.reply.status !== 200) return;
      if (acted.has(event.eventId) || event.chatId === undefined) return;
      acted.add(event.eventId);
      const { chatId, clientId, text } = event;
      const job = inviteAgent(options, chatId, clientId).then(() => {
        if (text !== undefined) invited.add(text);
      });
      work.add(job);
      void job.finally(() => work.delete(job));
    },
  });
  return {
    url: provider.url,
    async handedOver(text, withinMs) {
      const until = clock.now() + withinMs;
      while (!invited.has(text) && clock.now() < until) await clock.sleep(20);
    },
    async idle() {
      while (work.size > 0) await Promise.allSettled([...work]);
    },
    async close() {
      await provider.close(100);
      await Promise.allSettled([...work]);
    },
  };
}

/** spec 4.3, 6.1: INVITE_AGENT for the chat, journaled as sent with the platform's answer. */
async function inviteAgent(
  options: ConformBotOptions,
  chatId: string,
  clientId: string | undefined,
): Promise<void> {
  const { clock, providerId, token } = options;
  const url = `${options.platformBase}/webhooks/${encodeURIComponent(providerId)}/${encodeURIComponent(token)}`;
  const body = {
    event: 'INVITE_AGENT',
    id: randomUUID(),
    ...(clientId === undefined ? {} : { client_id: clientId }),
    chat_id: chatId,
  };
  const startedAt = clock.now();
  const outcome = await postJson({ url, body: JSON.stringify(body), timeoutMs: TIMEOUT_MS, clock });
  recordPost(options.journal, clock, {
    url,
    body,
    startedAt,
    outcome,
    iface: 'bot',
    kind: 'bot.event.INVITE_AGENT',
  });
}
