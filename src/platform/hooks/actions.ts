import { randomUUID } from 'node:crypto';
import { SvcError } from '../../errors.js';
import { findChat } from '../agent.js';
import type { PlatformCore } from '../core.js';
import type { Chat, Customer } from '../model.js';
import { compact } from '../../compact.js';

/** What the hook service keeps on a chat (`chat.ext.hooks`), from the chat_accepted reply. */
export interface ChatHookData {
  /** spec 6.2: shown to the agent when the reply's result is ok */
  customData?: Array<{ title?: string; content?: string }>;
  contactInfo?: { name: string; phone?: string; email?: string };
  enableAssign?: boolean;
  crmLink?: string;
  page?: { url: string; title?: string };
  /** the CRM link the chat was assigned to (spec 6.2 chat_assigned) */
  assignedTo?: string;
  /** spec 2.6 chat.rate and chat.blacklisted, for chat_finished */
  rate?: 'positive' | 'negative' | null;
  blacklisted?: boolean;
}

/** The hook data of a chat, created empty on first use. */
export function hookDataOf(chat: Chat): ChatHookData {
  const ext = chat.ext as { hooks?: ChatHookData };
  ext.hooks ??= {};
  return ext.hooks;
}

type Target = { chatId?: number; customerId?: string; channelId?: string };

/**
 * The agent presses the crm_link button a chat_accepted reply asked for (spec 3, 6.2):
 * the chat is linked to the CRM and chat_assigned follows.
 * @example assignChat(core, { chatId: 1 }).assignTo
 */
export function assignChat(core: PlatformCore, target: Target): { chat: Chat; assignTo: string } {
  const { chat } = findChat(core, target);
  const data = hookDataOf(chat);
  if (data.crmLink === undefined) {
    throw new SvcError(
      'SVC_E_NO_CRM_LINK',
      `Could not assign chat ${chat.id}: no chat_accepted reply gave it a crm_link button.`,
      'The hook receiver must reply to chat_accepted with {"result":"ok","crm_link":"..."} (spec 6.2).',
    );
  }
  data.assignedTo = data.crmLink;
  const agentId = chat.agentId ?? core.state.agents[0]?.id ?? 0;
  core.moment({
    type: 'chat-assigned',
    chatId: chat.id,
    agentId,
    assignTo: data.crmLink,
    protocolMs: core.clock.now(),
  });
  return { chat, assignTo: data.crmLink };
}

export interface VisitorUpdate {
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
  /** spec 4.5 setUserToken */
  userToken?: string;
}

const VISITOR_FIELDS = ['name', 'email', 'phone', 'description', 'userToken'] as const;

/**
 * Visitor data changes, e.g. the contacts form is filled (spec 3: chat_updated). Emits
 * `customer-updated` with the fields that changed; nothing when none did.
 * @example updateVisitor(core, { chatId: 1 }, { email: 'jane@example.com' })
 */
export function updateVisitor(
  core: PlatformCore,
  target: Target,
  update: VisitorUpdate,
): { chat: Chat; customer: Customer; fields: string[] } {
  const { chat, customer } = findChat(core, target);
  const fields: string[] = [];
  for (const field of VISITOR_FIELDS) {
    const value = update[field];
    if (value !== undefined && value !== customer[field]) {
      customer[field] = value;
      fields.push(field);
    }
  }
  if (fields.length > 0) {
    core.moment({
      type: 'customer-updated',
      chatId: chat.id,
      customerId: customer.senderId,
      fields,
      protocolMs: core.clock.now(),
    });
  }
  return { chat, customer, fields };
}

/** The agent (or visitor) rates the chat; kept for chat_finished (spec 2.6 chat). */
export function rateChat(
  core: PlatformCore,
  target: Target,
  rating: { rate?: 'positive' | 'negative' | null; blacklisted?: boolean },
): Chat {
  const { chat } = findChat(core, target);
  const data = hookDataOf(chat);
  if (rating.rate !== undefined) data.rate = rating.rate;
  if (rating.blacklisted !== undefined) data.blacklisted = rating.blacklisted;
  return chat;
}

export interface OfflineForm {
  name?: string;
  email?: string;
  phone?: string;
  description?: string;
  message: string;
  channelId?: string;
  userToken?: string;
  /** the page the form was sent from (a widget's), for the hook's `page` (spec 6.2) */
  page?: { url: string; title?: string };
}

/**
 * A visitor sends the offline form (spec 3, 4.5 sendOfflineMessage): only while agents are
 * offline; otherwise an input error (the form is not shown when agents are online).
 * @example sendOfflineForm(core, { name: 'Jane', message: 'Call me back' }).offlineMessageId
 */
export function sendOfflineForm(
  core: PlatformCore,
  form: OfflineForm,
): { offlineMessageId: string; visitorNumber: number } {
  if (core.state.agentsOnline && core.mutant !== 'offline-form-while-online') {
    throw new SvcError(
      'SVC_E_AGENTS_ONLINE',
      'Could not send the offline form: agents are online, so the widget shows the chat instead.',
      'Set agents offline first: POST /_sim/agents {"online":false} or /offline in the console.',
    );
  }
  const channelId = form.channelId ?? core.state.channels.keys().next().value ?? '';
  const offlineMessageId = randomUUID();
  const visitorNumber = core.state.nextVisitorNumber++;
  core.moment({
    type: 'offline-message',
    offlineMessageId,
    channelId,
    visitorNumber,
    ...compact({
      name: form.name,
      email: form.email,
      phone: form.phone,
      description: form.description,
      userToken: form.userToken,
      page: form.page,
    }),
    message: form.message,
    protocolMs: core.clock.now(),
  });
  return { offlineMessageId, visitorNumber };
}
