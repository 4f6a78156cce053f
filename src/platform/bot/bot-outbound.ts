import { mutateBotPolicy } from '../mutants.js';
import { createTokenClient, type TokenClient } from '../../http/oauth-client.js';
import type { BotEventSentEvent } from './bot-events.js';
import type { PlatformCore } from '../core.js';
import { buildVisitorProfile } from '../../hook-events/profile.js';
import {
  BOT_DELIVERY_POLICY,
  deliver,
  type DeliveryPolicy,
  type DeliveryResult,
} from '../delivery.js';
import { createMessageId } from '../ids.js';
import { shapeSent } from '../payload-forms.js';
import type { Chat, Customer } from '../model.js';

/** Credentials of the spec 5.3 temporary-token flow, both directions. */
export interface BotAuthOptions {
  /** the provider's token endpoint: the platform obtains a token there (outbound) */
  tokenUrl?: string;
  clientId: string;
  clientSecret: string;
  /** protocol ms a token issued by the platform's POST /oauth/token lives (default 3600 s) */
  issuedTokenTtlMs?: number;
}

export interface BotOutboundOptions {
  providerUrl: string;
  token: string;
  auth?: BotAuthOptions;
  policy?: DeliveryPolicy;
}

export type OutboundEventName = BotEventSentEvent['event'];

export interface BotSender {
  /** Sends one event to `POST {bot_provider_url}/<token>` (spec 4.3) with 2 x 3 s attempts (spec 8). */
  send(
    name: OutboundEventName,
    chat: Chat,
    customer: Customer,
    text?: string,
  ): Promise<DeliveryResult>;
}

/**
 * The platform-to-provider half of the bot service: builds the events of spec 6.1 and
 * delivers them; with `auth.tokenUrl` every request carries `Authorization: Bearer <token>`,
 * obtained, renewed on expiry and renewed after a 401 (spec 5.3).
 * @example const sender = createBotSender(core, { providerUrl, token }); await sender.send('CLIENT_MESSAGE', chat, customer, 'hi');
 */
export function createBotSender(core: PlatformCore, options: BotOutboundOptions): BotSender {
  const url = `${options.providerUrl.replace(/\/+$/, '')}/${encodeURIComponent(options.token)}`;
  // the token is a secret (spec 5.2): events and the console show it masked, as the journal does
  const shownUrl = `${options.providerUrl.replace(/\/+$/, '')}/***`;
  const auth = options.auth;
  const tokens: TokenClient | undefined = auth?.tokenUrl
    ? createTokenClient({
        tokenUrl: auth.tokenUrl,
        clientId: auth.clientId,
        clientSecret: auth.clientSecret,
        clock: core.clock,
        signal: core.signal,
        onToken: (report) =>
          core.emit({ type: 'bot-token', ...report, protocolMs: core.clock.now() }),
      })
    : undefined;
  // a bot written as a chat webhook answers in its HTTP reply, which the platform never reads:
  // said once, or the customer waits for an answer that is never sent (a public sample does)
  let warnedInline = false;
  // the chats whose CLIENT_MESSAGE the bot took: a notice it then drops is the bot's own bug
  const tookMessage = new WeakSet<Chat>();
  const warnInlineAnswer = (name: OutboundEventName, body: string): void => {
    const answer = inlineAnswerOf(body);
    if (answer === undefined) return;
    warnedInline = true;
    core.emit({
      type: 'notice',
      level: 'warning',
      message: `the bot answered ${name} with ${answer} in its HTTP reply: the platform reads only the 200 (spec 4.3); a bot answers the customer with a BOT_MESSAGE POSTed to the bot webhook in the banner (spec 6.1)`,
      protocolMs: core.clock.now(),
    });
  };
  // a bot that does not handle an event may say so in the body of its 200 (a public Python
  // framework answers `{"error": {"code": "unsupported_event", ...}}`): the platform takes the
  // 200 as delivered, so its author would never learn the event went unhandled. Once per event.
  const refused = new Set<OutboundEventName>();
  const noteErrorReply = (name: OutboundEventName, body: string): void => {
    if (refused.has(name)) return;
    const error = errorReplyOf(body);
    if (error === undefined) return;
    refused.add(name);
    core.emit({
      type: 'notice',
      level: 'warning',
      message: `the bot answered ${name} with HTTP 200 and an error (${error}): the platform reads only the status, so the event counts as delivered (spec 4.3); does the bot handle ${name}?`,
      protocolMs: core.clock.now(),
    });
  };
  return {
    async send(name, chat, customer, text) {
      const eventId = createMessageId();
      // spec 2.5, 6.1: event, id, client_id, chat_id (+ message for CLIENT_MESSAGE)
      const numeric = core.mutant === 'numeric-bot-ids';
      const body = {
        event: name,
        // spec 2.5: ids are strings; the mutant sends numbers
        id: numeric ? parseInt(eventId.replace(/-/g, '').slice(0, 12), 16) : eventId,
        client_id: customer.clientId,
        chat_id: numeric ? chat.id : String(chat.id),
        ...(name === 'CLIENT_MESSAGE' || name === 'AGENT_MESSAGE'
          ? {
              // the fields the public Bot API sample adds beyond spec 6.1 (docs/FIDELITY.md):
              // what a provider written for the real platform reads (the brand from sender.url)
              ...(name === 'CLIENT_MESSAGE' ? clientMessageExtras(core, chat, customer) : {}),
              message: {
                type: 'TEXT',
                text: text ?? '',
                // spec 2.5: unix time in seconds; the mutant stamps milliseconds
                timestamp:
                  core.mutant === 'millisecond-timestamps'
                    ? core.clock.epochSeconds() * 1000
                    : core.clock.epochSeconds(),
              },
            }
          : {}),
      };
      const result = await deliver({
        deliveryId: eventId,
        target: 'bot',
        url,
        shownUrl,
        secret: options.token,
        body: shapeSent(core, `bot.event.${name}`, JSON.stringify(body)),
        policy: mutateBotPolicy(options.policy ?? BOT_DELIVERY_POLICY, core.mutant),
        clock: core.clock,
        // spec 4.3, 8: the regular answer is HTTP 200 within the attempt's 3 s
        judge: (reply) => {
          if (reply.status === 200) {
            if (!warnedInline) warnInlineAnswer(name, reply.body);
            noteErrorReply(name, reply.body);
            return { accepted: true };
          }
          if (reply.status === 401) tokens?.invalidate('refused with 401');
          return { accepted: false, reason: `HTTP ${reply.status}` };
        },
        ...(tokens ? { headersFor: () => tokens.headers() } : {}),
        emit: core.emit,
        journal: core.journal,
        kind: `bot.event.${name}`,
        chatId: chat.id,
        signal: core.signal,
        stopping: core.stopping,
        limiter: core.limiter,
      });
      if (name === 'CLIENT_MESSAGE' && result.result === 'delivered') tookMessage.add(chat);
      // the reader's reason: what the bot's reply said, and why a bot drops a notice
      const said =
        result.dropped && name !== 'CLIENT_MESSAGE' && tookMessage.has(chat)
          ? [result.said, droppedNoticeHint(name)].filter(Boolean).join('; ')
          : result.said;
      core.emit({
        type: 'bot-event-sent',
        event: name,
        eventId,
        chatId: chat.id,
        clientId: customer.clientId,
        ...(text === undefined ? {} : { text }),
        result:
          result.result === 'failed' || result.result === 'interrupted' ? 'failed' : 'delivered',
        attempts: result.attempts,
        ...(result.agentNotice === undefined ? {} : { reason: result.agentNotice }),
        ...(said === undefined ? {} : { said }),
        elapsedMs: result.elapsedMs,
        protocolMs: core.clock.now(),
      });
      return result;
    },
  };
}

/**
 * Why a bot that took CLIENT_MESSAGE drops a notice (closes the connection, or a 5xx): the
 * notices carry no `message` (spec 2.5, 6.1: event, id, client_id, chat_id), and a bot that
 * reads the message of every event as a CLIENT_MESSAGE's fails on them, as an open-source Java
 * bot written for the real platform does. Said by the platform's log and by `conform bot`.
 */
export function droppedNoticeHint(name: string): string {
  return `the bot took CLIENT_MESSAGE (HTTP 200), but ${name} carries no message, only event, id, client_id and chat_id (spec 2.5, 6.1): does the bot read message of every event? Check event first, and answer 200 to the events it does not act on`;
}

/**
 * The page URL of a customer's visitor profile, built once per customer: the profile is a
 * function of the customer's key, and building it (a SHA-256 and a dozen objects) for every
 * CLIENT_MESSAGE was 1 % of the bot round trip's CPU. Weak: an evicted customer's
 * entry goes with it.
 */
const pageUrls = new WeakMap<Customer, string>();
function pageUrlOf(customer: Customer): string {
  let url = pageUrls.get(customer);
  if (url === undefined) {
    url = buildVisitorProfile(customer.key).page.url;
    pageUrls.set(customer, url);
  }
  return url;
}

/**
 * site_id, agents_online, sender {id, name, url, has_contacts} and channel {id, type}: the
 * public Bot API's CLIENT_MESSAGE fields the spec does not list; the page URL is the one the
 * chat's hook events show (the same visitor profile), so both interfaces agree.
 */
function clientMessageExtras(
  core: PlatformCore,
  chat: Chat,
  customer: Customer,
): Record<string, unknown> {
  const channel = core.state.channels.get(chat.channelId);
  const pageUrl = customer.page?.url ?? pageUrlOf(customer);
  return {
    site_id: chat.channelId,
    agents_online: core.state.agentsOnline,
    sender: {
      id: customer.senderId,
      ...(customer.name === undefined ? {} : { name: customer.name }),
      url: pageUrl,
      has_contacts: customer.phone !== undefined || customer.email !== undefined,
    },
    channel: { id: chat.channelId, type: channel?.kind === 'widget' ? 'widget' : 'custom' },
  };
}

/**
 * The error object in a reply body (`{"error": {"code", "message"}}`, the contract's error
 * form), as `code: message`; undefined for any other body.
 * @example errorReplyOf('{"error":{"code":"unsupported_event","message":"no"}}') // 'unsupported_event: no'
 */
export function errorReplyOf(body: string): string | undefined {
  if (!body.includes('"error"') || body.length > 64 * 1024) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  const error = (json as { error?: unknown } | null)?.error;
  if (error === null || typeof error !== 'object') return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' && typeof message !== 'string') return undefined;
  const said = [code, message].filter((v): v is string => typeof v === 'string').join(': ');
  return said.length > 120 ? `${said.slice(0, 119)}…` : said;
}

/** Keys an answer written into the reply body goes by (`{"message": "..."}`, a BOT_MESSAGE). */
const ANSWER_KEYS = ['message', 'messages', 'text', 'answer', 'reply', 'event'];

/** a `status` or `result` that acknowledges the request: its `message` is about the request */
const ACK = /^(ok|success|accepted|received)$/i;

/**
 * The reply body of a bot that answers inline, shortened for a notice; undefined for an empty
 * body or an acknowledgement (`{}`, `{"result":"ok"}`).
 * @example inlineAnswerOf('{"message":"Hi"}') // '{"message":"Hi"}'
 */
export function inlineAnswerOf(body: string): string | undefined {
  const text = body.trim();
  if (text === '' || text.length > 64 * 1024) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return undefined;
  const keys = Object.keys(json).filter((key) => ANSWER_KEYS.includes(key));
  if (keys.length === 0) return undefined;
  // `{"status": "ok", "message": "CLIENT_MESSAGE received and processing initiated."}`: an
  // acknowledgement whose message describes the status (a public Python bot framework's
  // reply, which posts its BOT_MESSAGEs as it should), no answer to the customer
  const ack = (json as Record<string, unknown>).status ?? (json as Record<string, unknown>).result;
  if (keys.length === 1 && keys[0] === 'message' && typeof ack === 'string' && ACK.test(ack))
    return undefined;
  return text.length > 80 ? `${text.slice(0, 79)}…` : text;
}
