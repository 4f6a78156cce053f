import { USER_TOKEN_FIELD } from '../contract/hooks.js';
import { buildVisitorProfile } from './profile.js';
import { compact } from '../compact.js';

/**
 * The ONE set of hook-event builders (spec 6.2 with the shared objects of 2.6). The
 * platform's hook service and `hook-fire` both build their bodies here, so what the
 * simulator sends and what a synthetic event looks like cannot drift apart.
 */
export type HookEventName =
  | 'call_event'
  | 'chat_accepted'
  | 'chat_assigned'
  | 'chat_finished'
  | 'chat_updated'
  | 'offline_message';

/** spec 2.6 agent: id (int), name, email, phone (optional). */
export interface HookAgent {
  id: number;
  name: string;
  email: string;
  phone?: string;
}

/** The visitor as the platform knows them (spec 2.6 visitor; 4.5 setUserToken). */
export interface HookVisitor {
  /** the sequential visitor number (spec 4.5 getVisitorNumber) */
  number: number;
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
  /** spec 2.6 chats_count, "described as a count of messages" */
  chatsCount?: number;
  /** spec 4.5, 6.2: the setUserToken value, carried in every event when set */
  userToken?: string;
}

/** What every event of one chat shares. */
export interface HookBase {
  /** spec 6.2 widget_id: the channel's widget id */
  widgetId: string;
  /** seeds the session, page and department: the same seed, the same visitor context */
  seed: string;
  /** the visitor's real page (a widget's location and title), in place of the seeded one */
  page?: { url: string; title?: string };
  visitor: HookVisitor;
  /** absent in offline_message (spec 6.2) */
  chatId?: number;
}

/** spec 2.6 chat-log item: agent_id only on agent lines; text is the simulator's addition. */
export interface HookChatLogItem {
  timestamp: number;
  type: 'visitor' | 'agent';
  agent_id?: number;
  /** the line's text where the public Webhooks samples carry it (docs/FIDELITY.md) */
  message?: string;
  /** the same text under svc-cli's earlier name, kept for receivers written against it */
  text?: string;
  blacklisted?: boolean;
}

/** spec 2.6 call. */
export interface HookCall {
  type: 'callback' | 'incoming' | 'outgoing';
  phone: string;
  status: 'start' | 'end' | 'agent_connected' | 'client_connected' | 'error';
  reason?: string;
  record_url?: string;
}

type Body = Record<string, unknown>;

const agentOf = (agent: HookAgent): HookAgent => ({
  id: agent.id,
  name: agent.name,
  email: agent.email,
  ...(agent.phone === undefined ? {} : { phone: agent.phone }),
});

/** spec 6.2 common fields; `withDepartment` false for offline_message (no department). */
function buildCommon(name: string, base: HookBase, withDepartment: boolean): Body {
  const profile = buildVisitorProfile(base.seed);
  const v = base.visitor;
  return {
    event_name: name,
    ...(base.chatId === undefined ? {} : { chat_id: base.chatId }),
    widget_id: base.widgetId,
    visitor: {
      ...compact({ name: v.name, email: v.email, phone: v.phone }),
      number: String(v.number), // spec 2.6: a string
      description: v.description ?? '',
      // the public Webhooks samples carry it as an empty object (docs/FIDELITY.md)
      social: {},
      chats_count: v.chatsCount ?? 0,
    },
    session: profile.session,
    page: base.page ?? profile.page,
    ...(withDepartment ? { department: profile.department } : {}),
    // shown empty in every public sample; contents not shown (spec 2.6)
    analytics: {},
    // spec 4.5, 6.2: the setUserToken value is included in the parameters (name assumed)
    ...(v.userToken === undefined ? {} : { [USER_TOKEN_FIELD]: v.userToken }),
  };
}

/** spec 6.2 chat_accepted: the agent pressed Reply. @example buildChatAccepted(base, agent).event_name */
export function buildChatAccepted(base: HookBase, agent: HookAgent): Body {
  return { ...buildCommon('chat_accepted', base, true), agent: agentOf(agent) };
}

/** spec 6.2 chat_updated: visitor info changed. @example buildChatUpdated(base, agent) */
export function buildChatUpdated(base: HookBase, agent: HookAgent): Body {
  return { ...buildCommon('chat_updated', base, true), agent: agentOf(agent) };
}

/** spec 6.2 chat_assigned: assign_to is the crm_link of the chat_accepted reply. */
export function buildChatAssigned(base: HookBase, agent: HookAgent, assignTo: string): Body {
  return {
    ...buildCommon('chat_assigned', base, true),
    agent: agentOf(agent),
    assign_to: assignTo,
  };
}

/** spec 6.2 chat_finished: every agent of the chat and the chat log (spec 2.6 chat). */
export function buildChatFinished(
  base: HookBase,
  agents: HookAgent[],
  chat: { messages: HookChatLogItem[]; rate: 'positive' | 'negative' | null; blacklisted: boolean },
): Body {
  return {
    ...buildCommon('chat_finished', base, true),
    agents: agents.map(agentOf),
    chat: {
      messages: chat.messages.map((m) => ({ ...m })),
      rate: chat.rate,
      blacklisted: chat.blacklisted,
    },
  };
}

/**
 * spec 6.2 offline_message: no chat_id, agent or department; `name` may be the field table's
 * spelling `offline_messages`.
 */
export function buildOfflineMessage(
  base: HookBase,
  offline: { offlineMessageId: string; message: string },
  name: 'offline_message' | 'offline_messages' = 'offline_message',
): Body {
  const { chatId: _chatId, ...rest } = base;
  return {
    ...buildCommon(name, rest, false),
    offline_message_id: offline.offlineMessageId,
    message: offline.message,
  };
}

/** spec 6.2 call_event: a call began or changed status (spec 2.6 call). */
export function buildCallEvent(base: HookBase, agent: HookAgent, call: HookCall): Body {
  return {
    ...buildCommon('call_event', base, true),
    agent: agentOf(agent),
    call: {
      type: call.type,
      phone: call.phone,
      status: call.status,
      ...compact({ reason: call.reason, record_url: call.record_url }),
    },
  };
}

// compact() lives in src/compact.ts, where every folder may import it
export { compact, type Compact } from '../compact.js';

/**
 * Hook events of the public Webhooks page that the contract does not list (docs profile,
 * docs/FIDELITY.md): `client_updated` (a client's data changed) and `client_attribute_updated`
 * (its attributes changed). Neither carries a chat_id.
 */
export type DocsHookEventName = 'client_updated' | 'client_attribute_updated';

/** The visitor object of the docs events: the contract's, without social (the sample's). */
function docsVisitorOf(v: HookVisitor): Body {
  return {
    ...compact({ name: v.name, email: v.email, phone: v.phone }),
    description: v.description ?? '',
    number: String(v.number),
    chats_count: v.chatsCount ?? 0,
  };
}

/**
 * client_updated (public Webhooks page): a client's data changed; with `client_id`.
 * @example buildClientUpdated(base, '501').client_id // '501'
 */
export function buildClientUpdated(base: HookBase, clientId: string): Body {
  const v = base.visitor;
  return {
    event_name: 'client_updated',
    widget_id: base.widgetId,
    ...(v.userToken === undefined ? {} : { [USER_TOKEN_FIELD]: v.userToken }),
    visitor: docsVisitorOf(v),
    client_id: clientId,
  };
}

/**
 * client_attribute_updated (public Webhooks page): the client's attributes changed (the page
 * called setClientAttributes); `attributes` a key/value map, as the sample lists them.
 * @example buildClientAttributeUpdated(base, '501', { plan: 'pro' }).attributes
 */
export function buildClientAttributeUpdated(
  base: HookBase,
  clientId: string,
  attributes: Record<string, unknown>,
): Body {
  const v = base.visitor;
  return {
    event_name: 'client_attribute_updated',
    widget_id: base.widgetId,
    ...(v.userToken === undefined ? {} : { [USER_TOKEN_FIELD]: v.userToken }),
    client_id: clientId,
    attributes,
  };
}
