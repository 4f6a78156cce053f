import type { ContractIssue } from '../../contract/types.js';

/**
 * What the simulator reports about interface D (event hooks, spec 6.2): the triggers
 * (assign, offline form, call status) and the hook exchanges. Part of `PlatformEvent`.
 */
export type HookPlatformEvent =
  | ChatAssignedEvent
  | OfflineMessageEvent
  | CallStatusEvent
  | HookSentEvent
  | HookReplyEvent
  | CrmDataEvent;

/** spec 3: the agent linked the chat to the CRM through the crm_link button. */
export interface ChatAssignedEvent {
  type: 'chat-assigned';
  chatId: number;
  agentId: number;
  /** the CRM link from the chat_accepted reply (spec 6.2 assign_to) */
  assignTo: string;
  protocolMs: number;
}

/** spec 3: a visitor sent the offline form while agents were offline. */
export interface OfflineMessageEvent {
  type: 'offline-message';
  offlineMessageId: string;
  channelId: string;
  /** a new sequential visitor number (spec 4.5) */
  visitorNumber: number;
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
  /** spec 4.5 setUserToken, carried into the hook */
  userToken?: string;
  /** the widget page the form was sent from (spec 6.2 page) */
  page?: { url: string; title?: string };
  message: string;
  protocolMs: number;
}

/** spec 2.6, 3: a callback call changed status. */
export interface CallStatusEvent {
  type: 'call-status';
  callId: string;
  chatId?: number;
  callType: 'callback' | 'incoming' | 'outgoing';
  phone: string;
  status: 'start' | 'end' | 'agent_connected' | 'client_connected' | 'error';
  agentId: number;
  reason?: string;
  recordUrl?: string;
  protocolMs: number;
}

/** A hook event is about to be POSTed to the hook URL (attempts follow as delivery events). */
export interface HookSentEvent {
  type: 'hook-sent';
  deliveryId: string;
  /** event_name as sent (spec 6.2) */
  event: string;
  chatId?: number;
  url: string;
  payload: unknown;
  protocolMs: number;
}

/** The receiver's reply to a hook event, checked against `hook.<event>.reply` (spec 6.2). */
export interface HookReplyEvent {
  type: 'hook-reply';
  deliveryId: string;
  event: string;
  chatId?: number;
  /** ok: the reply conforms; no-reply: no usable HTTP 200 JSON reply (see the attempts) */
  verdict: 'ok' | 'violation' | 'no-reply';
  /** the reply's `result` when it has one */
  result?: string;
  reply?: unknown;
  errors: ContractIssue[];
  warnings: ContractIssue[];
  protocolMs: number;
}

/**
 * spec 6.2: what the chat_accepted reply shows the agent: custom_data, contact_info,
 * the assign button (enable_assign) and the crm_link button. Not shown when result is not ok.
 */
export interface CrmDataEvent {
  type: 'crm-data';
  chatId: number;
  shown: boolean;
  /** why the data is not shown */
  reason?: string;
  customData?: Array<{ title?: string; content?: string }>;
  contactInfo?: { name: string; phone?: string; email?: string };
  enableAssign?: boolean;
  crmLink?: string;
  protocolMs: number;
}
