import type { PlatformCore } from '../core.js';
import {
  deliver,
  judgeChannelReply,
  judgeChannelReplyByStatus,
  type DeliverOptions,
  type DeliveryResult,
} from '../delivery.js';
import type { Channel, Chat, ChatLine, Customer } from '../model.js';
import type { MutantName } from '../mutants.js';
import { appendChatLine, mediaOf } from '../model.js';
import type { DirectDeliveryService } from '../types.js';
import { shapeSent } from '../payload-forms.js';
import { CHANNEL_CONTENT_TYPE } from '../../contract/channel.js';
import { integratorDeliveryUrl } from '../../contract/integrator-url.js';

/** Who speaks to the customer: an agent or the bot (spec 2.2 sender.name, sender.photo). */
export interface CustomerSender {
  name: string;
  photo?: string;
  /** the chat-log line type (spec 2.6: agent; bot lines are the simulator's addition) */
  lineType: 'agent' | 'bot';
  agentId?: number;
}

/** A message on the custom chat channel: text, typing or media (spec 2.2, 2.3, 2.4). */
export type ChannelMessage = { type: string } & Record<string, unknown>;

export interface DeliverToCustomerOptions {
  chat: Chat;
  customer: Customer;
  sender: CustomerSender;
  message: ChannelMessage;
  /** the platform message id (spec 2.2 message.id), also the delivery id */
  messageId: string;
  /** the contract kind, for the journal */
  kind: string;
}

export interface CustomerDeliveryResult extends DeliveryResult {
  deliveryId: string;
  chatId: number;
  payload: unknown;
  /** a widget visitor's: the message was kept for their page, none of which is open */
  note?: string;
}

/**
 * Delivers a message to the customer on the customer's channel, whoever sends it (agent or
 * bot): builds the agent-message payload (spec 2.2), logs the chat line and hands it to the
 * integrator with the channel's redelivery policy (spec 4.2, 8).
 * @example await deliverToCustomer(core, { chat, customer, sender: { name: 'Bot', lineType: 'bot' }, message: { type: 'text', text: 'Hi' }, messageId, kind: 'channel.agent.text' });
 */
export function deliverToCustomer(
  core: PlatformCore,
  options: DeliverToCustomerOptions,
): Promise<CustomerDeliveryResult> {
  const { chat, customer, message, messageId, kind } = options;
  const channel = core.state.channels.get(chat.channelId);
  const sent = { deliveryId: messageId, chatId: chat.id };
  const payload = customerPayload(core.mutant, options);
  const line = logSentLine(core, options);
  // spec 4.5: a widget visitor is reached through the page's event stream, not over HTTP
  const direct = channel ? core.service<DirectDeliveryService>(channel.kind) : undefined;
  if (direct?.deliverToCustomer) {
    const pushed = direct.deliverToCustomer({
      chatId: chat.id,
      customerKey: customer.key,
      messageId,
      kind,
      senderName: options.sender.name,
      message,
    });
    if (line) line.delivery = lineDelivery(pushed.result === 'delivered' ? 1 : 0, pushed);
    return Promise.resolve({ ...sent, payload, attempts: 1, elapsedMs: 0, ...pushed });
  }
  if (!channel?.integratorUrl) {
    const agentNotice = 'no integrator URL is configured for this channel';
    if (line) line.delivery = { result: 'failed', attempts: 0, agentNotice };
    core.emit({
      type: 'delivery-done',
      deliveryId: messageId,
      target: 'integrator',
      chatId: chat.id,
      kind,
      result: 'failed',
      attempts: 0,
      agentNotice,
      elapsedMs: 0,
      protocolMs: core.clock.now(),
    });
    return Promise.resolve({
      ...sent,
      payload,
      result: 'failed',
      attempts: 0,
      agentNotice,
      elapsedMs: 0,
    });
  }
  const typing = message.type === 'typein' || message.type === 'typeout';
  if (typing && core.mutant === 'drop-agent-typing') {
    // spec 2.3: the mutant never sends the notice, and says it did
    return Promise.resolve({ ...sent, payload, result: 'delivered', attempts: 1, elapsedMs: 0 });
  }
  const work = deliverToIntegrator(core, channel, channel.integratorUrl, options, {
    payload,
    line,
  });
  return core.track(work);
}

/**
 * spec 2.2: the agent-message payload the integrator gets: sender name and photo, the
 * customer's id returned unchanged, the message with its platform id (a mutant drops or
 * changes a field).
 */
export function customerPayload(
  mutant: MutantName | undefined,
  options: Pick<DeliverToCustomerOptions, 'customer' | 'sender' | 'message' | 'messageId'>,
): {
  sender: { name?: string; photo?: string };
  recipient: { id: string };
  message: ChannelMessage;
} {
  const { customer, sender, message, messageId } = options;
  return {
    sender: {
      ...(mutant === 'drop-agent-name' ? {} : { name: sender.name }),
      ...(sender.photo && mutant !== 'drop-agent-photo' ? { photo: sender.photo } : {}),
    },
    recipient: { id: customer.senderId }, // spec 2.2: returned unchanged
    message: {
      ...message,
      // spec 2.2: message.id is a string; the mutant sends a number made from it
      id:
        mutant === 'numeric-message-ids'
          ? parseInt(messageId.replace(/-/g, '').slice(0, 12), 16)
          : messageId,
    },
  };
}

/** The chat-log line of a sent message (typing leaves none); its delivery is filled in later. */
function logSentLine(core: PlatformCore, options: DeliverToCustomerOptions): ChatLine | undefined {
  const { chat, sender, message, messageId, kind } = options;
  if (message.type === 'typein' || message.type === 'typeout') return undefined;
  const line: ChatLine = {
    timestamp: core.clock.epochSeconds(),
    type: sender.lineType,
    kind,
    ...(sender.agentId === undefined ? {} : { agentId: sender.agentId }),
    ...(typeof message.text === 'string' ? { text: message.text } : {}),
    deliveryId: messageId,
  };
  const media = mediaOf(message);
  if (media) line.media = media;
  appendChatLine(chat, line);
  core.touchChat(chat);
  return line;
}

/** What a chat line keeps of its delivery's outcome. */
function lineDelivery(
  attempts: number,
  outcome: { result: DeliveryResult['result']; agentNotice?: string | undefined },
): NonNullable<ChatLine['delivery']> {
  return {
    result: outcome.result,
    attempts,
    ...(outcome.agentNotice === undefined ? {} : { agentNotice: outcome.agentNotice }),
  };
}

/**
 * spec 4.2, 8: POST to `<integrator URL>/<channel id>` with the channel's redelivery policy
 * (the delivery mutants hold, flip or repeat it).
 */
function deliverToIntegrator(
  core: PlatformCore,
  channel: Channel,
  integratorUrl: string,
  options: DeliverToCustomerOptions,
  sent: { payload: unknown; line: ChatLine | undefined },
): Promise<CustomerDeliveryResult> {
  const { chat, messageId, kind } = options;
  const mutant = core.mutant;
  // the first agent line of a chat waits 1 s under the mutant, so the next one overtakes it
  const held =
    mutant === 'reorder-agent-messages' &&
    options.message.type !== 'typein' &&
    options.message.type !== 'typeout' &&
    chat.lines.filter((l) => l.type !== 'visitor').length === 1;
  const delivery: DeliverOptions = {
    deliveryId: messageId,
    target: 'integrator',
    url: integratorDeliveryUrl(integratorUrl, channel.id), // spec 4.2
    // the forms a profile asks for (payload-forms.ts); the spec's when none
    body: shapeSent(core, kind, JSON.stringify(sent.payload)),
    // spec 8: a redelivery repeats the message, id included; the mutant renames each retry
    ...(mutant === 'redeliver-new-id'
      ? {
          bodyFor: (attempt: number) =>
            shapeSent(core, kind, JSON.stringify(withMessageId(sent.payload, messageId, attempt))),
        }
      : {}),
    chunked: mutant === 'flip-chunked' ? !channel.chunked : channel.chunked,
    headers: { 'content-type': CHANNEL_CONTENT_TYPE },
    policy: core.channelPolicy,
    clock: core.clock,
    // spec 2.2, 8: only a valid reply ends the series; docs: by the status class
    judge: core.channelReplies === 'docs' ? judgeChannelReplyByStatus : judgeChannelReply,
    emit: core.emit,
    journal: core.journal,
    kind,
    chatId: chat.id,
    signal: core.signal,
    stopping: core.stopping,
    limiter: core.limiter,
  };
  const delivered = held
    ? core.clock
        .sleep(1000, core.signal)
        // a stop during the hold: deliver() sees the aborted signal and reports it
        .catch(() => undefined)
        .then(() => deliver(delivery))
    : deliver(delivery);
  return delivered.then(async (result) => {
    if (mutant === 'duplicate-agent-message' && result.result === 'delivered')
      await deliver({ ...delivery, deliveryId: `${messageId}.again` });
    if (sent.line) sent.line.delivery = lineDelivery(result.attempts, result);
    return { ...result, deliveryId: messageId, chatId: chat.id, payload: sent.payload };
  });
}

/** The payload with the id attempt n carries under the redeliver-new-id mutant. */
function withMessageId(payload: unknown, messageId: string, attempt: number): unknown {
  if (attempt < 2) return payload;
  const sent = payload as { message: ChannelMessage };
  return { ...sent, message: { ...sent.message, id: `${messageId}-retry-${attempt}` } };
}
