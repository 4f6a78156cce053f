import type { BotEventSet } from '../../contract/bot.js';
import { ProtocolError } from '../../protocol-error.js';
import { createTokenIssuer, type TokenIssuer } from '../../http/oauth-issuer.js';
import { acceptChat } from '../agent.js';
import { updateVisitor } from '../hooks/actions.js';
import { createBotCustomerMessage } from './bot-message.js';
import { handleProviderRequest, type BotInboundContext } from './bot-inbound.js';
import { createBotSender, type BotAuthOptions, type OutboundEventName } from './bot-outbound.js';
import { createRateLimiter, DEFAULT_BOT_RATE_LIMIT, type RateLimit } from './bot-rate-limit.js';
import type { PlatformCore } from '../core.js';
import type { LifecycleHooks } from '../lifecycle-hooks.js';
import type { DeliveryPolicy } from '../delivery.js';
import type { Chat, Customer } from '../model.js';
import type { PlatformRequest, PlatformService } from '../types.js';

/** A bot attached to the platform (spec 1.4, 4.3, 5.2). */
export interface BotServiceOptions {
  /** `{bot_provider_url}`: events go to POST <providerUrl>/<token> */
  providerUrl: string;
  /** the token the provider generated (spec 5.2): last path segment both ways */
  token: string;
  /** the provider id issued per provider (spec 1.4) */
  providerId: string;
  /** channels the bot is attached to (default: every channel) */
  channelIds?: string[];
  /** the sender name the customer sees on bot messages (default "Bot") */
  senderName?: string;
  senderPhoto?: string;
  /** the temporary-token flow of spec 5.3 (OAuth2 client credentials, an assumption) */
  auth?: BotAuthOptions;
  /** requests per token and window before 429 (default 100 per second, an assumption) */
  rateLimit?: RateLimit;
  /** default spec 8: 2 attempts, 3 s each */
  policy?: DeliveryPolicy;
  /**
   * `docs` adds the public Bot API's CHAT_CLOSED (sent when a bot chat closes) and
   * CLIENT_INFO (taken: the contact data updates the visitor, hook chat_updated). Default
   * `spec`: the five events of spec 6.1 (docs/FIDELITY.md).
   */
  botEvents?: BotEventSet;
}

/** Per-chat bot state, kept in `chat.ext.bot`. */
interface BotChatState {
  /** the bot is still asked about customer messages */
  active: boolean;
  /** AGENT_JOINED went (or is going) to the provider */
  joined: boolean;
}

const botState = (chat: Chat): BotChatState | undefined => chat.ext.bot as BotChatState | undefined;

/**
 * The public Bot API's notices (--bot-events docs): CHAT_CLOSED to the bot of a chat that
 * closed; AGENT_MESSAGE, an agent's text the bot should take into account, in a chat the bot
 * is part of (after AGENT_JOINED).
 */
function docsNotices(
  send: (name: OutboundEventName, chat: Chat, text?: string) => unknown,
): Pick<LifecycleHooks, 'chatClosed' | 'agentMessage'> {
  return {
    chatClosed(_event, chat) {
      if (botState(chat)) void send('CHAT_CLOSED', chat);
    },
    agentMessage(event, chat) {
      if (botState(chat)?.joined && event.text !== undefined)
        void send('AGENT_MESSAGE', chat, event.text);
    },
  };
}

/**
 * The bot service: customer messages on a bot-attached channel go to the provider first
 * (CLIENT_MESSAGE), the provider answers on the webhooks / providers paths (BOT_MESSAGE,
 * INVITE_AGENT); hand-over to an agent on INVITE_AGENT or after 2 failed attempts (spec 3, 8).
 * @example core.use(createBotService(core, { providerUrl, token: 't0k', providerId: 'acme' }));
 */
export function createBotService(core: PlatformCore, options: BotServiceOptions): PlatformService {
  const sender = createBotSender(core, {
    providerUrl: options.providerUrl,
    token: options.token,
    ...(options.auth ? { auth: options.auth } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
  });
  const issuer: TokenIssuer | undefined = options.auth
    ? createTokenIssuer({
        clientId: options.auth.clientId,
        clientSecret: options.auth.clientSecret,
        clock: core.clock,
        ...(options.auth.issuedTokenTtlMs === undefined
          ? {}
          : { ttlMs: options.auth.issuedTokenTtlMs }),
      })
    : undefined;
  const senderName = options.senderName ?? 'Bot';
  let lastBotChat: number | undefined;

  const isAttached = (chat: Chat): boolean =>
    options.channelIds === undefined || options.channelIds.includes(chat.channelId);
  const customerOf = (chat: Chat): Customer | undefined =>
    core.state.customers.get(chat.customerKey);
  const send = (name: Parameters<typeof sender.send>[0], chat: Chat, text?: string) => {
    const customer = customerOf(chat);
    if (!customer) return Promise.resolve(undefined);
    return core.track(sender.send(name, chat, customer, text)).catch(() => undefined);
  };

  /** spec 3: INVITE_AGENT, or no regular answer after 2 attempts: the chat goes to an agent. */
  const handOver = (chat: Chat, reason: string, botFailed: boolean): void => {
    const state = botState(chat);
    if (!state || chat.mode === 'closed') return;
    const channel = core.state.channels.get(chat.channelId);
    const agent = core.state.agentsOnline
      ? core.state.agents.find((a) => channel?.agentIds.includes(a.id))
      : undefined;
    const now = core.clock.now();
    if (agent) {
      state.active = false;
      core.emit({ type: 'bot-handover', chatId: chat.id, reason, to: 'agent', protocolMs: now });
      acceptChat(core, chat, agent); // the chatAccepted hook sends AGENT_JOINED
      return;
    }
    // spec 3: no agent available -> AGENT_UNAVAILABLE; the bot keeps the chat to ask for
    // contact data, unless it is the bot that failed (then the chat waits for an agent).
    state.active = !botFailed;
    chat.mode = botFailed ? 'queue' : 'bot';
    core.emit({
      type: 'bot-handover',
      chatId: chat.id,
      reason,
      to: botFailed ? 'queue' : 'bot',
      protocolMs: now,
    });
    core.emit({ type: 'bot-agent-unavailable', chatId: chat.id, protocolMs: now });
    if (core.mutant !== 'no-agent-unavailable') void send('AGENT_UNAVAILABLE', chat);
  };

  const docsEvents = options.botEvents === 'docs';
  // the bot's decisions, at the moments the core announces (events only observe)
  const lifecycle: Partial<LifecycleHooks> = {
    // spec 3: with a bot attached, a new chat is the bot's first
    chatOpened(_event, chat) {
      if (!isAttached(chat) || chat.mode !== 'queue') return;
      chat.ext.bot = { active: true, joined: false } satisfies BotChatState;
      chat.mode = 'bot';
    },
    customerMessage(event, chat) {
      const state = botState(chat);
      // spec 3: with a bot attached the customer message goes to the provider first;
      // after an agent joined the bot is no longer asked.
      if (!state?.active || chat.mode === 'agent' || chat.mode === 'closed') return;
      lastBotChat = chat.id;
      const text = event.text ?? `[${event.kind.replace('channel.customer.', '')}]`;
      void send('CLIENT_MESSAGE', chat, text).then((result) => {
        if (result?.result !== 'failed' || !botState(chat)?.active) return;
        // spec 3, 8: no regular answer after 2 attempts, 3 s each -> transfer to an agent
        // say what happened: a timeout, a 404 from a wrong path, a refused connection
        handOver(
          chat,
          `no regular answer from the bot in ${result.attempts} attempts (${result.reason ?? result.agentNotice ?? 'failed'})`,
          true,
        );
      });
    },
    // spec 3: an agent connects after the hand-over (or answers in a bot chat) -> AGENT_JOINED
    chatAccepted(event, chat) {
      const state = botState(chat);
      if (!state || state.joined) return;
      state.active = false;
      state.joined = true;
      core.emit({
        type: 'bot-agent-joined',
        chatId: chat.id,
        agentId: event.agentId,
        protocolMs: core.clock.now(),
      });
      if (core.mutant !== 'no-agent-joined') void send('AGENT_JOINED', chat);
    },
    ...(docsEvents ? docsNotices(send) : {}),
  };

  const inbound: BotInboundContext = {
    core,
    providerId: options.providerId,
    token: options.token,
    limiter: createRateLimiter(core.clock, options.rateLimit ?? DEFAULT_BOT_RATE_LIMIT),
    ...(issuer ? { issuer } : {}),
    isAttached,
    findChat(json) {
      const open = (chat: Chat | undefined) => (chat && chat.mode !== 'closed' ? chat : undefined);
      if (typeof json.chat_id === 'string' || typeof json.chat_id === 'number')
        return open(core.state.chats.get(Number(json.chat_id)));
      if (typeof json.client_id === 'string') {
        const chat = [...core.state.chats.values()].find(
          (c) => c.mode !== 'closed' && customerOf(c)?.clientId === json.client_id,
        );
        if (chat) return chat;
      }
      // spec 6.1: the BOT_MESSAGE sample carries neither: the chat last asked about
      return lastBotChat === undefined ? undefined : open(core.state.chats.get(lastBotChat));
    },
    onBotMessage(chat, message) {
      const customer = customerOf(chat);
      if (!customer) return;
      createBotCustomerMessage(core, chat, customer, message, {
        name: senderName,
        ...(options.senderPhoto ? { photo: options.senderPhoto } : {}),
      });
    },
    onInviteAgent(chat) {
      handOver(chat, 'INVITE_AGENT: the bot invited an agent', false);
    },
    ...(docsEvents
      ? {
          // public Bot API CLIENT_INFO: the contact data the bot collected reaches the visitor
          // (spec 3: visitor data updated -> hook chat_updated)
          onClientInfo(chat: Chat, contact: Record<string, unknown>) {
            const text = (key: string) =>
              typeof contact[key] === 'string' && contact[key] !== ''
                ? { [key]: contact[key] }
                : {};
            updateVisitor(
              core,
              { chatId: chat.id },
              { ...text('name'), ...text('email'), ...text('phone'), ...text('description') },
            );
          },
        }
      : {}),
  };

  return {
    name: 'bot',
    lifecycle,
    routes: [
      {
        // spec 5.3 (assumed OAuth2 client credentials): the providers path's token endpoint
        method: 'POST',
        path: '/oauth/token',
        handler(request) {
          if (!issuer)
            throw new ProtocolError(
              'not_found',
              'no token endpoint: start the platform with client credentials (spec 5.3)',
            );
          const issued = issuer.issue(request.body);
          core.emit({
            type: 'bot-token',
            action: issued.ok ? 'issued' : 'refused',
            ...(issued.ok
              ? { expiresInMs: issued.body.expires_in * 1000 }
              : { reason: issued.message }),
            protocolMs: core.clock.now(),
          });
          // RFC 6749 5.2: a refused token request is answered with its own status
          if (!issued.ok)
            throw new ProtocolError(issued.code, issued.message, { status: issued.status });
          return {
            status: 200,
            body: issued.body,
            headers: { 'cache-control': 'no-store' },
            record: { iface: 'bot', notes: ['token issued'] },
          };
        },
      },
      // spec 4.3: {base}/webhooks|providers/<provider_id>/<token>; every shape under these
      // prefixes is answered (and reported) by the bot service, a wrong one with its 404
      ...['/webhooks/*', '/providers/*'].map((path) => ({
        method: '*',
        path,
        handler: (request: PlatformRequest) =>
          handleProviderRequest(inbound, request, request.path.split('/').filter(Boolean)),
      })),
    ],
  };
}
