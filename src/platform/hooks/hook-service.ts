import type { PostOutcome } from '../../http/client.js';
import type { PlatformCore } from '../core.js';
import {
  deliver,
  HOOK_DELIVERY_POLICY,
  type DeliveryPolicy,
  type ReplyJudgement,
} from '../delivery.js';
import type { LifecycleHooks } from '../lifecycle-hooks.js';
import { shapeSent } from '../payload-forms.js';
import type { Agent, Chat, Customer, PlatformState } from '../model.js';
import type { MutantName } from '../mutants.js';
import type { OfflineMessageEvent } from './events.js';
import type { PlatformService } from '../types.js';
import {
  buildCallEvent,
  buildChatAccepted,
  buildChatAssigned,
  buildChatFinished,
  buildChatUpdated,
  buildOfflineMessage,
  compact,
  type HookBase,
  type HookChatLogItem,
  type HookEventName,
} from '../../hook-events/builders.js';
import { hookDataOf } from './actions.js';
import { useHookReply } from './reply.js';
import { announceHookSent, docsHooksOf, visitorFieldsOf } from './docs-events.js';

/** `createPlatform({ hooks })`: where hook events go and how long each may take. */
export interface HookServiceOptions {
  /** the hook URL set in the admin panel (spec 4.4) */
  url: string;
  /** protocol ms each attempt waits for the reply (assumed: 10 s; spec 8 is silent) */
  timeoutMs?: number;
  /** attempts per event (assumed: 1, no redelivery; spec 6.2 is silent) */
  attempts?: number;
  /** protocol ms between attempts when attempts > 1 (default 3 s, like the channel) */
  intervalMs?: number;
  /** spec 6.2 widget_id (default: the chat's channel public id) */
  widgetId?: string;
  /**
   * `docs`: also the public Webhooks page's client_updated (visitor data changed) and
   * client_attribute_updated (the page's setClientAttributes); default `spec`
   */
  events?: 'spec' | 'docs';
}

/** The hook policy for the options: spec-silent values are the documented assumptions. */
export function hookPolicyOf(options: Omit<HookServiceOptions, 'url'>): DeliveryPolicy {
  const attempts = options.attempts ?? HOOK_DELIVERY_POLICY.attempts;
  return {
    attempts,
    intervalMs: attempts > 1 ? (options.intervalMs ?? 3000) : 0,
    attemptTimeoutMs: options.timeoutMs ?? HOOK_DELIVERY_POLICY.attemptTimeoutMs,
    failAfterMs: 0,
  };
}

/**
 * spec 4.4, 6.2: a hook reply is usable when it is HTTP 200 with a JSON body; its contract
 * check (per event) happens afterwards, so a bad reply is reported, not redelivered.
 * call_event's reply is not shown (spec 6.2): an empty 200 takes it, as hook-fire and
 * conform hooks judge it.
 */
export function judgeHookReply(
  reply: Extract<PostOutcome, { ok: true }>,
  event?: HookEventName,
): ReplyJudgement {
  if (reply.status !== 200) return { accepted: false, reason: `HTTP ${reply.status}` };
  if (reply.body.trim() === '')
    return event === 'call_event'
      ? { accepted: true }
      : { accepted: false, reason: 'reply is empty, not JSON' };
  try {
    return { accepted: true, json: JSON.parse(reply.body) as unknown };
  } catch {
    return { accepted: false, reason: 'reply is not JSON' };
  }
}

/**
 * Interface D on the platform side: at the moments the core announces (its lifecycle hooks)
 * POSTs the matching hook event (spec 3 triggers, 6.2 bodies) with `deliver()`; every reply
 * is checked and used.
 * @example core.use(createHookService(core, { url: 'http://127.0.0.1:9100/hooks' }));
 */
export function createHookService(
  core: PlatformCore,
  options: HookServiceOptions,
): PlatformService {
  const policy = hookPolicyOf(options);
  const url = options.url;
  const send = (name: HookEventName, body: Record<string, unknown>, chatId?: number): void => {
    // spec 6.2: chat_finished follows a closed chat; the mutant never sends it
    if (name === 'chat_finished' && core.mutant === 'no-chat-finished') return;
    // spec 6.2: the field table's spelling, which a receiver must accept too
    if (name === 'offline_message' && core.mutant === 'offline-messages-spelling')
      body = { ...body, event_name: 'offline_messages' };
    const deliveryId = announceHookSent(core, { url, body, ...chatRef(chatId) });
    const work = deliver({
      deliveryId,
      target: 'hook',
      url,
      body: shapeSent(core, `hook.${name}`, JSON.stringify(body)),
      policy,
      clock: core.clock,
      judge: (reply) => judgeHookReply(reply, name),
      emit: core.emit,
      journal: core.journal,
      kind: `hook.${name}`,
      ...chatRef(chatId),
      signal: core.signal,
      stopping: core.stopping,
      limiter: core.limiter,
    }).then((result) => useHookReply(core, { name, deliveryId, result, ...chatRef(chatId) }));
    core.track(work).catch(() => undefined); // stopped mid-delivery
  };
  const baseOf = (chat: Chat, customer: Customer): HookBase =>
    hookBaseOf(core.mutant, options.widgetId ?? chat.channelId, chat, customer);
  const docs = docsHooksOf(core, { ...options, policy, baseOf });
  return { name: 'hooks', lifecycle: hookLifecycle({ core, options, send, baseOf, docs }) };
}

const chatRef = (chatId?: number) => (chatId === undefined ? {} : { chatId });

/** What the hook service's lifecycle hooks act with. */
interface HookContext {
  core: PlatformCore;
  options: HookServiceOptions;
  send: (name: HookEventName, body: Record<string, unknown>, chatId?: number) => void;
  baseOf: (chat: Chat, customer: Customer) => HookBase;
  docs: ReturnType<typeof docsHooksOf>;
}

/** The hook service's decisions, at the moments the core announces (spec 3's triggers). */
function hookLifecycle(ctx: HookContext): Partial<LifecycleHooks> {
  const { core, options, send, baseOf, docs } = ctx;
  const state = core.state;
  const withCustomer = (chat: Chat, fn: (customer: Customer) => void): void => {
    const customer = state.customers.get(chat.customerKey);
    if (customer) fn(customer);
  };
  return {
    // spec 3: agent presses Reply
    chatAccepted: (event, chat) =>
      withCustomer(chat, (customer) => {
        const agent = hookAgentOf(state, chat, event.agentId);
        if (agent) send('chat_accepted', buildChatAccepted(baseOf(chat, customer), agent), chat.id);
      }),
    // spec 3: visitor data updated (docs: client_updated too, with client_id)
    customerUpdated: (_event, chat) =>
      withCustomer(chat, (customer) => {
        const agent = hookAgentOf(state, chat);
        if (agent) send('chat_updated', buildChatUpdated(baseOf(chat, customer), agent), chat.id);
        docs?.clientUpdated(chat, customer);
      }),
    widgetUpdate: (event) => docs?.attributesChanged(event),
    // spec 3: chat linked to the CRM through crm_link
    chatAssigned: (event, chat) =>
      withCustomer(chat, (customer) => {
        const agent = hookAgentOf(state, chat, event.agentId);
        const body = agent && buildChatAssigned(baseOf(chat, customer), agent, event.assignTo);
        if (body) send('chat_assigned', body, chat.id);
      }),
    // spec 3: chat closed in the agent application
    chatClosed: (_event, chat) =>
      withCustomer(chat, (customer) => {
        const agents = chat.agentIds
          .map((id) => state.agents.find((a) => a.id === id))
          .filter((a): a is Agent => a !== undefined);
        const data = hookDataOf(chat);
        const body = buildChatFinished(baseOf(chat, customer), agents, {
          messages: chatLogOf(chat, core.mutant),
          rate: data.rate ?? null,
          blacklisted: data.blacklisted ?? false,
        });
        send('chat_finished', body, chat.id);
      }),
    // spec 3: offline form sent; no chat, no agent, no department (spec 6.2)
    offlineMessage: (event) => {
      const base = offlineBaseOf(core.mutant, options.widgetId ?? event.channelId, event);
      const body = buildOfflineMessage(base, {
        offlineMessageId: event.offlineMessageId,
        message: event.message,
      });
      send('offline_message', body);
    },
    // spec 3: a call begins or its status changes
    callStatus: (event, chat) => {
      const customer = chat ? state.customers.get(chat.customerKey) : undefined;
      const agent = hookAgentOf(state, chat, event.agentId);
      if (!agent) return;
      const base: HookBase =
        chat && customer
          ? baseOf(chat, customer)
          : {
              widgetId: options.widgetId ?? state.channels.keys().next().value ?? '',
              seed: `call/${event.phone}`,
              visitor: { number: 0, phone: event.phone },
            };
      const body = buildCallEvent(base, agent, {
        type: event.callType,
        phone: event.phone,
        status: event.status,
        ...compact({ reason: event.reason, record_url: event.recordUrl }),
      });
      send('call_event', body, event.chatId);
    },
  };
}

/**
 * spec 6.2: the widget, chat and visitor fields every chat's hook event carries (the
 * hook-without-user-token mutant leaves out the user token).
 */
export function hookBaseOf(
  mutant: MutantName | undefined,
  widgetId: string,
  chat: Chat,
  customer: Customer,
): HookBase {
  return {
    widgetId,
    seed: customer.key,
    ...(customer.page ? { page: customer.page } : {}),
    chatId: chat.id,
    visitor: {
      number: customer.visitorNumber,
      ...visitorFieldsOf(customer, mutant !== 'hook-without-user-token'),
      chatsCount: chat.lines.filter((l) => l.type === 'visitor').length,
    },
  };
}

/** spec 6.2 offline_message: the visitor as the offline form gave it; no chat. */
function offlineBaseOf(
  mutant: MutantName | undefined,
  widgetId: string,
  event: OfflineMessageEvent,
): HookBase {
  return {
    widgetId,
    seed: `offline/${event.email ?? event.phone ?? event.offlineMessageId}`,
    ...(event.page ? { page: event.page } : {}),
    visitor: {
      number: event.visitorNumber,
      ...compact({
        name: event.name,
        email: event.email,
        phone: event.phone,
        description: event.description,
        ...(mutant === 'hook-without-user-token' ? {} : { userToken: event.userToken }),
      }),
    },
  };
}

/**
 * The agent a hook event names: the one given, else the chat's, else the first of its
 * channel's agents, else the first agent.
 */
export function hookAgentOf(
  state: Pick<PlatformState, 'agents' | 'channels'>,
  chat: Chat | undefined,
  agentId?: number,
): Agent | undefined {
  const id =
    agentId ??
    chat?.agentId ??
    (chat ? state.channels.get(chat.channelId)?.agentIds[0] : undefined);
  return state.agents.find((a) => a.id === id) ?? state.agents[0];
}

/** spec 2.6: the chat log of chat_finished: visitor and agent lines, agent_id on agent lines. */
function chatLogOf(chat: Chat, mutant: MutantName | undefined): HookChatLogItem[] {
  const items: HookChatLogItem[] = [];
  for (const line of chat.lines) {
    if (line.type === 'bot') continue; // spec 2.6 knows visitor and agent only
    // spec 2.6, 8: a redelivered message is one line; the mutant logs it once per attempt
    const times =
      mutant === 'transcript-repeats-redelivered' && line.type === 'agent'
        ? Math.max(1, line.delivery?.attempts ?? 1)
        : 1;
    for (let i = 0; i < times; i++)
      items.push({
        timestamp: line.timestamp,
        type: line.type,
        ...(line.type === 'agent' && line.agentId !== undefined ? { agent_id: line.agentId } : {}),
        // spec 2.6 does not show the text's field; the public samples name it `message`
        ...(line.text === undefined ? {} : { message: line.text, text: line.text }),
      });
  }
  return items;
}
