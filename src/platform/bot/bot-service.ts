import type { BotEventSet } from '../../contract/bot.js';
import { ProtocolError } from '../../protocol-error.js';
import { fireOnce } from '../mutants.js';
import { createTokenIssuer, type TokenIssuer } from '../../http/oauth-issuer.js';
import { acceptChat } from '../agent.js';
import { updateVisitor } from '../hooks/actions.js';
import { createBotCustomerMessage } from './bot-message.js';
import { handleProviderRequest, type BotInboundContext } from './bot-inbound.js';
import { createEventIdCheck } from './event-ids.js';
import {
  createBotSender,
  type BotAuthOptions,
  type BotSender,
  type OutboundEventName,
} from './bot-outbound.js';
import { createRateLimiter, DEFAULT_BOT_RATE_LIMIT, type RateLimit } from './bot-rate-limit.js';
import type { PlatformCore } from '../core.js';
import type { LifecycleHooks } from '../lifecycle-hooks.js';
import type { DeliveryPolicy } from '../delivery.js';
import type { Chat, PlatformState } from '../model.js';
import type { PlatformService, Route } from '../types.js';

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
 * Without `--bot-events docs` the bot hears nothing when its chat closes (CHAT_CLOSED is the
 * public Bot API's event, not the spec's): said once per run, at the first bot chat to close,
 * so a bot author waiting for it learns the switch.
 */
function specNotices(core: PlatformCore): Pick<LifecycleHooks, 'chatClosed'> {
  let told = false;
  return {
    chatClosed(_event, chat) {
      if (told || !botState(chat)) return;
      told = true;
      core.emit({
        type: 'notice',
        level: 'info',
        message: `the bot is not told that chat ${chat.id} closes: CHAT_CLOSED is the public Bot API's event, sent with --bot-events docs (spec 6.1)`,
        protocolMs: core.clock.now(),
      });
    },
  };
}

/** What the bot service's pieces share: the core, the options, the send of one event. */
interface BotContext {
  core: PlatformCore;
  options: BotServiceOptions;
  /** sends an event to the provider for a chat (its customer's), tracked; never rejects */
  send: (name: OutboundEventName, chat: Chat, text?: string) => Promise<BotSendResult | undefined>;
  isAttached: (chat: Chat) => boolean;
  /** the chat the bot was last asked about (spec 6.1: a BOT_MESSAGE may name none) */
  lastBotChat: number | undefined;
}

type BotSendResult = Awaited<ReturnType<BotSender['send']>>;

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
  const ctx: BotContext = {
    core,
    options,
    send: (name, chat, text) => {
      const customer = core.state.customers.get(chat.customerKey);
      if (!customer) return Promise.resolve(undefined);
      return core.track(sender.send(name, chat, customer, text)).catch(() => undefined);
    },
    isAttached: (chat) =>
      options.channelIds === undefined || options.channelIds.includes(chat.channelId),
    lastBotChat: undefined,
  };
  const inbound = botInbound(ctx, issuer);
  return {
    name: 'bot',
    lifecycle: botLifecycle(ctx),
    routes: [tokenRoute(core, issuer), ...providerRoutes(inbound)],
  };
}

/**
 * spec 4.3: {base}/webhooks|providers/<provider_id>/<token>, the segments as route params;
 * every other shape under these prefixes is answered (and reported) by the bot service too,
 * with its 404 (the more specific route wins, src/http/router.ts).
 */
function providerRoutes(inbound: BotInboundContext): Route[] {
  return ['webhooks', 'providers'].flatMap((base): Route[] => [
    {
      method: '*',
      path: `/${base}/:provider/:token`,
      serves: ['POST'],
      handler: (request, { provider = '', token = '' }) =>
        handleProviderRequest(inbound, request, { base, provider, token }),
    },
    {
      method: '*',
      path: `/${base}/*`,
      serves: [],
      handler: (request, params) =>
        handleProviderRequest(inbound, request, { base, malformed: params['*'] ?? '' }),
    },
  ]);
}

/** The bot's decisions, at the moments the core announces (events only observe). */
function botLifecycle(ctx: BotContext): Partial<LifecycleHooks> {
  const { core, send } = ctx;
  return {
    // spec 3: with a bot attached, a new chat is the bot's first
    chatOpened(_event, chat) {
      if (!ctx.isAttached(chat) || chat.mode !== 'queue') return;
      chat.ext.bot = { active: true, joined: false } satisfies BotChatState;
      chat.mode = 'bot';
    },
    customerMessage(event, chat) {
      const state = botState(chat);
      // spec 3: with a bot attached the customer message goes to the provider first;
      // after an agent joined the bot is no longer asked.
      if (!state?.active || chat.mode === 'agent' || chat.mode === 'closed') return;
      ctx.lastBotChat = chat.id;
      const text = event.text ?? `[${event.kind.replace('channel.customer.', '')}]`;
      const deliver = (): void => {
        void send('CLIENT_MESSAGE', chat, text).then((result) => {
          if (result?.result !== 'failed' || !botState(chat)?.active) return;
          // spec 3, 8: no regular answer after 2 attempts, 3 s each -> transfer to an agent
          // say what happened: a timeout, a 404 from a wrong path, a refused connection
          handOver(
            ctx,
            chat,
            `no regular answer from the bot in ${result.attempts} attempts (${result.reason ?? result.agentNotice ?? 'failed'})`,
            true,
          );
        });
      };
      // the mutant: AGENT_JOINED before the first CLIENT_MESSAGE, with nothing asking for it
      if (core.mutant === 'agent-joined-unasked' && fireOnce(core, 'agent-joined-unasked'))
        void send('AGENT_JOINED', chat).then(deliver);
      else deliver();
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
    ...(ctx.options.botEvents === 'docs' ? docsNotices(send) : specNotices(core)),
  };
}

/** spec 3: INVITE_AGENT, or no regular answer after 2 attempts: the chat goes to an agent. */
function handOver(ctx: BotContext, chat: Chat, reason: string, botFailed: boolean): void {
  const { core } = ctx;
  const state = botState(chat);
  // an agent has the chat already (an earlier hand-over, the agent's reply): nothing to move
  if (!state || chat.mode === 'closed' || chat.mode === 'agent') return;
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
  if (core.mutant !== 'no-agent-unavailable') void ctx.send('AGENT_UNAVAILABLE', chat);
}

/** What the provider-to-platform routes act on (bot-inbound.ts answers them). */
function botInbound(ctx: BotContext, issuer: TokenIssuer | undefined): BotInboundContext {
  const { core, options } = ctx;
  return {
    core,
    providerId: options.providerId,
    token: options.token,
    limiter: createRateLimiter(core.clock, options.rateLimit ?? DEFAULT_BOT_RATE_LIMIT),
    ...(issuer ? { issuer } : {}),
    isAttached: ctx.isAttached,
    findChat: (json) => findBotChat(core.state, json, ctx.lastBotChat),
    noteEventId: createEventIdCheck(core),
    onBotMessage(chat, message) {
      const customer = core.state.customers.get(chat.customerKey);
      if (!customer) return;
      createBotCustomerMessage(core, chat, customer, message, {
        name: options.senderName ?? 'Bot',
        ...(options.senderPhoto ? { photo: options.senderPhoto } : {}),
      });
    },
    onInviteAgent(chat) {
      handOver(ctx, chat, 'INVITE_AGENT: the bot invited an agent', false);
    },
    ...(options.botEvents === 'docs'
      ? {
          // public Bot API CLIENT_INFO: the contact data the bot collected reaches the visitor
          // (spec 3: visitor data updated -> hook chat_updated)
          onClientInfo(chat: Chat, contact: Record<string, unknown>) {
            updateVisitor(core, { chatId: chat.id }, contactFieldsOf(contact));
          },
        }
      : {}),
  };
}

/**
 * The open chat a provider's event is about: its chat_id, else the open chat of its
 * client_id, else (spec 6.1: the BOT_MESSAGE sample carries neither) the chat last asked about.
 */
export function findBotChat(
  state: Pick<PlatformState, 'chats' | 'customers'>,
  json: Record<string, unknown>,
  lastBotChat: number | undefined,
): Chat | undefined {
  const open = (chat: Chat | undefined) => (chat && chat.mode !== 'closed' ? chat : undefined);
  if (typeof json.chat_id === 'string' || typeof json.chat_id === 'number')
    return open(state.chats.get(Number(json.chat_id)));
  if (typeof json.client_id === 'string') {
    const chat = [...state.chats.values()].find(
      (c) => c.mode !== 'closed' && state.customers.get(c.customerKey)?.clientId === json.client_id,
    );
    if (chat) return chat;
  }
  return lastBotChat === undefined ? undefined : open(state.chats.get(lastBotChat));
}

/** CLIENT_INFO's contact data as visitor fields: the non-empty strings of the four it may set. */
export function contactFieldsOf(contact: Record<string, unknown>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const key of ['name', 'email', 'phone', 'description']) {
    const value = contact[key];
    if (typeof value === 'string' && value !== '') fields[key] = value;
  }
  return fields;
}

/** spec 5.3 (assumed OAuth2 client credentials): the providers path's token endpoint. */
function tokenRoute(core: PlatformCore, issuer: TokenIssuer | undefined): Route {
  return {
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
        throw new ProtocolError(issued.code, issued.message, {
          status: issued.status,
          report: false, // bot-token above says it
        });
      return {
        status: 200,
        body: issued.body,
        headers: { 'cache-control': 'no-store' },
        record: { iface: 'bot', notes: ['token issued'] },
      };
    },
  };
}
