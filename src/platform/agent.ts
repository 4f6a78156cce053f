import type { MediaType } from '../contract/media-types.js';
import { formatIssue } from '../contract/issues.js';
import { validateAuto } from '../contract/validate.js';
import { SvcError } from '../errors.js';
import { closestNames } from '../suggest.js';
import type { PlatformCore } from './core.js';
import { deliverToCustomer, type CustomerDeliveryResult } from './channel/customer-delivery.js';
import { createMessageId } from './ids.js';
import type { Agent, Chat, Customer } from './model.js';

/** What an agent sends: text, a typing notice, or a media message (spec 2.2, 2.3, 2.4). */
export type AgentMessageInput =
  | { type: 'text'; text: string }
  | { type: 'typein' | 'typeout' }
  | ({ type: MediaType } & Record<string, unknown>);

export interface SendAgentMessageOptions {
  /** the chat; or the customer's sender.id (with channelId when several channels exist) */
  chatId?: number;
  customerId?: string;
  channelId?: string;
  message: AgentMessageInput;
  /** default: the chat's agent, else the first agent of the channel */
  agentId?: number;
}

export type AgentMessageResult = CustomerDeliveryResult;

/** Finds the chat an agent action is about; input errors name what was not found. */
export function findChat(
  core: PlatformCore,
  target: { chatId?: number; customerId?: string; channelId?: string },
): { chat: Chat; customer: Customer } {
  let chat: Chat | undefined;
  if (target.chatId !== undefined) {
    chat = core.state.chats.get(target.chatId);
  } else if (target.customerId !== undefined) {
    // a sender id, or the customer key `/_sim/chats` shows (`<channel id>/<sender id>`)
    const byKey = core.state.customers.has(target.customerId);
    const candidates = [...core.state.chats.values()].filter((c) => {
      if (byKey) return c.customerKey === target.customerId;
      const customer = core.state.customers.get(c.customerKey);
      return (
        customer?.senderId === target.customerId &&
        (!target.channelId || c.channelId === target.channelId)
      );
    });
    chat = candidates.find((c) => c.mode !== 'closed') ?? candidates.at(-1);
  } else {
    chat = [...core.state.chats.values()]
      .filter((c) => c.mode !== 'closed')
      .sort((a, b) => b.lastActivityMs - a.lastActivityMs)[0];
  }
  const customer = chat ? core.state.customers.get(chat.customerKey) : undefined;
  if (!chat || !customer) {
    const what =
      target.chatId !== undefined
        ? `chat ${target.chatId}`
        : target.customerId !== undefined
          ? `a chat with customer "${target.customerId}"`
          : 'an open chat';
    // a customer id typed wrong (a fixture's `to`, a control request): the known one it is near
    const [near] =
      target.chatId === undefined && target.customerId !== undefined
        ? closestNames(target.customerId, senderIdsOf(core))
        : [];
    throw new SvcError(
      'SVC_E_NO_CHAT',
      `Could not find ${what}${near === undefined ? '' : ` (did you mean "${near}"?)`}.`,
      startsHint(core),
    );
  }
  return { chat, customer };
}

/** How a chat starts, on this simulator's channels: a widget visitor writes in a page. */
function startsHint(core: PlatformCore): string {
  const kinds = new Set([...core.state.channels.values()].map((c) => c.kind));
  const widget =
    'a widget visitor writes in the page (a fixture\'s page step "say", the demo page, svc_widget.visitor.send)';
  if (!kinds.has('widget'))
    return 'A chat starts when a customer sends a message to the channel URL.';
  return kinds.size === 1
    ? `A chat starts when ${widget}.`
    : `A chat starts when a customer sends a message to the channel URL, or ${widget}.`;
}

/** The sender ids of the customers who have a chat, each once. */
function senderIdsOf(core: PlatformCore): Set<string> {
  const ids = new Set<string>();
  for (const chat of core.state.chats.values()) {
    const customer = core.state.customers.get(chat.customerKey);
    if (customer) ids.add(customer.senderId);
  }
  return ids;
}

function agentFor(core: PlatformCore, chat: Chat, agentId?: number): Agent {
  const id = agentId ?? chat.agentId ?? core.state.channels.get(chat.channelId)?.agentIds[0];
  const agent = core.state.agents.find((a) => a.id === id) ?? core.state.agents[0];
  if (!agent)
    throw new SvcError(
      'SVC_E_NO_AGENT',
      'Could not send as an agent: the simulator has no agents.',
    );
  return agent;
}

/**
 * An agent writes in a chat: the platform builds the agent message (spec 2.2) and delivers it
 * to the integrator with the redelivery policy (spec 4.2, 8). The first agent message of a
 * chat accepts it (the agent pressed Reply).
 * @example await sendAgentMessage(core, { customerId: 'c-42', message: { type: 'text', text: 'Hi' } });
 */
export async function sendAgentMessage(
  core: PlatformCore,
  options: SendAgentMessageOptions,
): Promise<AgentMessageResult> {
  return startAgentMessage(core, options).delivered;
}

/**
 * sendAgentMessage without waiting: what would refuse the message (no such chat, a closed
 * chat, a message the contract refuses) throws now; the delivery runs on. For the control
 * API's `"wait": false`, which answers 202 with the message id the delivery goes by.
 * @example const { deliveryId } = startAgentMessage(core, { customerId: 'c-42', message: { type: 'text', text: 'Hi' } });
 */
export function startAgentMessage(
  core: PlatformCore,
  options: SendAgentMessageOptions,
): { deliveryId: string; chatId: number; delivered: Promise<AgentMessageResult> } {
  checkAgentOptions(options);
  const { chat, customer } = findChat(core, options);
  if (chat.mode === 'closed')
    throw new SvcError('SVC_E_CHAT_CLOSED', `Could not send: chat ${chat.id} is closed.`);
  const agent = agentFor(core, chat, options.agentId);
  const messageId = createMessageId();
  checkAgentMessage(agent, customer, options.message, messageId);
  const isTyping = options.message.type === 'typein' || options.message.type === 'typeout';
  if (!isTyping) acceptChat(core, chat, agent);
  const kind = isTyping ? 'channel.agent.typing' : `channel.agent.${options.message.type}`;
  core.moment({
    type: 'agent-message',
    chatId: chat.id,
    customerId: customer.senderId,
    deliveryId: messageId,
    kind,
    ...(isTyping ? { typing: options.message.type === 'typein' } : {}),
    ...('text' in options.message && typeof options.message.text === 'string'
      ? { text: options.message.text }
      : {}),
    agent: agent.name,
    protocolMs: core.clock.now(),
  });
  const delivered = deliverToCustomer(core, {
    chat,
    customer,
    sender: {
      name: agent.name,
      ...(agent.photo ? { photo: agent.photo } : {}),
      lineType: 'agent',
      agentId: agent.id,
    },
    message: options.message,
    messageId,
    kind,
  });
  return { deliveryId: messageId, chatId: chat.id, delivered };
}

/**
 * A caller in code (msw's or the platform's `sendAgentMessage`) without a type checker gives
 * what it guesses: `{ customerId, text }` is refused saying what the message looks like, not
 * with a TypeError from deep inside the delivery.
 */
function checkAgentOptions(options: SendAgentMessageOptions): void {
  const given = options as unknown;
  const message = (given as { message?: unknown } | null)?.message;
  if (message !== null && typeof message === 'object' && !Array.isArray(message)) return;
  const text = (given as { text?: unknown } | null)?.text;
  throw new SvcError(
    'SVC_E_AGENT_MESSAGE',
    `Could not send the agent message: ${
      given === null || typeof given !== 'object'
        ? `the options are ${JSON.stringify(given) ?? String(given)}, not an object`
        : message === undefined
          ? 'the options have no message'
          : `message is ${JSON.stringify(message)}, not an object`
    }.`,
    `Give the message as the platform sends it (spec 2.2): sendAgentMessage({ customerId: 'c-1', message: { type: 'text', text: ${typeof text === 'string' ? JSON.stringify(text) : "'Hi'"} } }).`,
  );
}

/**
 * The agent application sends only what spec 2.2 and 2.4 describe: a message the contract
 * refuses (a type it does not know, a photo without its file fields) is refused here, before
 * the chat is touched, instead of reaching the integrator as no real platform would send it.
 */
function checkAgentMessage(
  agent: Agent,
  customer: Customer,
  message: SendAgentMessageOptions['message'],
  messageId: string,
): void {
  const checked = validateAuto({
    sender: { name: agent.name },
    recipient: { id: customer.senderId },
    message: { ...message, id: messageId },
  });
  if (checked.ok) return;
  if (checked.kind === 'unknown')
    throw new SvcError(
      'SVC_E_AGENT_MESSAGE',
      `Could not send the agent message: message.type ${JSON.stringify(message.type)} is not one the platform sends: text, typein, typeout or a media type (spec 2.2, 2.4).`,
      'svc-cli schema --list names every kind (channel.agent.*).',
    );
  throw new SvcError(
    'SVC_E_AGENT_MESSAGE',
    `Could not send the agent message: ${checked.errors.map(formatIssue).join('; ')}.`,
    `The platform sends what spec 2.2 and 2.4 describe; the fields of this type: svc-cli schema --kind ${checked.kind}`,
  );
}

/** The agent presses Reply: the chat is the agent's from now on (spec 3: chat_accepted). */
export function acceptChat(core: PlatformCore, chat: Chat, agent: Agent): void {
  if (!chat.agentIds.includes(agent.id)) chat.agentIds.push(agent.id);
  if (chat.mode === 'agent' && chat.agentId !== undefined) return;
  chat.mode = 'agent';
  chat.agentId = agent.id;
  core.moment({
    type: 'chat-accepted',
    chatId: chat.id,
    agentId: agent.id,
    protocolMs: core.clock.now(),
  });
}

/** Agents go online or offline (spec 3: channel availability). */
export function setAgentsOnline(core: PlatformCore, online: boolean): void {
  core.state.agentsOnline = online;
  core.emit({ type: 'agents', online, protocolMs: core.clock.now() });
}

/** The agent closes a chat in the agent application (spec 3: chat_finished). */
export function closeChat(
  core: PlatformCore,
  target: { chatId?: number; customerId?: string },
): Chat {
  const { chat } = findChat(core, target);
  core.finishChat(chat);
  return chat;
}
