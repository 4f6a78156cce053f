import type { ContractIssue } from '../../contract/types.js';
import { deliverToCustomer } from '../channel/customer-delivery.js';
import type { PlatformCore } from '../core.js';
import { createMessageId } from '../ids.js';
import type { Chat, Customer } from '../model.js';

type BotMessageType = 'TEXT' | 'MARKDOWN' | 'BUTTONS';

/**
 * What a bot message becomes on the custom chat channel, which carries only text and media
 * (spec 2.2, 2.4): TEXT goes as text, MARKDOWN and BUTTONS as their plain-text fallback
 * `text` (spec 2.5). Without a fallback there is nothing to deliver.
 * @example channelTextOf({ type: 'BUTTONS', text: 'Pick one', buttons: [] }) // { text: 'Pick one', fallback: true }
 */
export function channelTextOf(
  message: Record<string, unknown>,
): { type: BotMessageType; text: string; fallback: boolean } | { issue: ContractIssue } {
  const type = message.type as BotMessageType;
  const text = message.text;
  if (typeof text === 'string' && text !== '') return { type, text, fallback: type !== 'TEXT' };
  return {
    issue: {
      path: 'message.text',
      code: 'no_fallback',
      rule: `a ${type} message without its plain-text fallback "text" is not delivered to the customer`,
      spec: '2.5',
      severity: 'error',
    },
  };
}

/**
 * Delivers a BOT_MESSAGE to the customer on the customer's channel, as the bot (spec 3).
 * Returns the issues when it is not delivered (and reports them as a violation).
 * @example createBotCustomerMessage(core, chat, customer, { type: 'TEXT', text: 'Hi', timestamp: 1 }, { name: 'Bot' });
 */
export function createBotCustomerMessage(
  core: PlatformCore,
  chat: Chat,
  customer: Customer,
  message: Record<string, unknown>,
  sender: { name: string; photo?: string },
): ContractIssue[] {
  const converted = channelTextOf(message);
  const now = core.clock.now();
  if ('issue' in converted) {
    core.emit({
      type: 'violation',
      source: 'bot',
      channelId: chat.channelId,
      kind: 'bot.event.BOT_MESSAGE',
      issues: [converted.issue],
      outcome: 'not-delivered',
      protocolMs: now,
    });
    return [converted.issue];
  }
  const messageId = createMessageId();
  core.emit({
    type: 'bot-message',
    chatId: chat.id,
    customerId: customer.senderId,
    deliveryId: messageId,
    messageType: converted.type,
    text: converted.text,
    fallback: converted.fallback,
    sender: sender.name,
    protocolMs: now,
  });
  void deliverToCustomer(core, {
    chat,
    customer,
    sender: { ...sender, lineType: 'bot' },
    message: { type: 'text', text: converted.text },
    messageId,
    kind: 'channel.agent.text',
  }).catch(() => undefined);
  return [];
}
