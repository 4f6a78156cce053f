import type { ContractIssue } from '../contract/types.js';
import type { RequestRejectedEvent } from '../wire-errors.js';
// The bot service's events (interface B) live in bot-events.ts.
import type { BotPlatformEvent } from './bot/bot-events.js';

export type { BotPlatformEvent } from './bot/bot-events.js';
import type { HookPlatformEvent } from './hooks/events.js';
import type { WidgetPlatformEvent } from './widget/events.js';

/**
 * Everything the simulator reports, as one discriminated union on `type`. The CLI renders
 * these (human lines or NDJSON); the simulator itself never prints.
 */
export type PlatformEvent =
  | { type: 'listening'; url: string; channels: ChannelInfo[] }
  | {
      type: 'customer-message';
      channelId: string;
      chatId: number;
      customerId: string;
      /** sender.name, shown to the agent (spec 2.1) */
      customerName?: string;
      kind: string;
      text?: string;
      /** text was longer than 1000 code points and was cut (spec 2.1, 8) */
      cut?: { from: number; to: number };
      protocolMs: number;
    }
  | {
      type: 'customer-typing';
      channelId: string;
      chatId: number;
      customerId: string;
      typing: boolean;
      protocolMs: number;
    }
  | {
      type: 'violation';
      /** where it came from: the channel ingest, a bot webhook, a hook reply ... */
      source: string;
      channelId?: string;
      kind?: string;
      issues: ContractIssue[];
      /**
       * what the simulator did with the payload; `delivered`: errors that do not block
       * delivery, the message went through without the `dropped` fields
       */
      outcome: 'rejected' | 'not-delivered' | 'ignored' | 'warned' | 'delivered';
      dropped?: string[];
      protocolMs: number;
    }
  | {
      type: 'agent-message';
      chatId: number;
      customerId: string;
      deliveryId: string;
      kind: string;
      /** channel.agent.typing: true for typein (started), false for typeout (stopped) */
      typing?: boolean;
      text?: string;
      agent: string;
      protocolMs: number;
    }
  | DeliveryAttemptEvent
  | DeliveryDoneEvent
  | { type: 'agents'; online: boolean; protocolMs: number }
  | {
      type: 'chat-opened';
      chatId: number;
      channelId: string;
      customerId: string;
      protocolMs: number;
    }
  | { type: 'chat-accepted'; chatId: number; agentId: number; protocolMs: number }
  | {
      type: 'chat-closed';
      chatId: number;
      /** set when the simulator closed it: idle too long, or the --max-chats cap */
      reason?: 'idle' | 'max-chats';
      protocolMs: number;
    }
  | {
      type: 'customer-updated';
      chatId: number;
      customerId: string;
      fields: string[];
      protocolMs: number;
    }
  | RequestRejectedEvent
  | { type: 'notice'; level: 'info' | 'warning' | 'error'; message: string; protocolMs: number }
  | BotPlatformEvent
  | HookPlatformEvent
  | WidgetPlatformEvent;

export interface ChannelInfo {
  id: string;
  name: string;
  /** the channel URL the integrator posts to: {base}/<random_string>/<public_id> (spec 4.1) */
  url: string;
  statusUrl: string;
  integratorUrl?: string;
  chunked: boolean;
}

/** Who a delivery goes to: the integrator (A), the bot provider (B) or a hook receiver (D). */
export type DeliveryTarget = 'integrator' | 'bot' | 'hook';

export interface DeliveryAttemptEvent {
  type: 'delivery-attempt';
  deliveryId: string;
  target: DeliveryTarget;
  /** the chat the payload belongs to, when it belongs to one (series of several chats overlap) */
  chatId?: number;
  /** what is delivered, as the journal names it: channel.agent.text, bot.event.CLIENT_MESSAGE, hook.chat_accepted */
  kind?: string;
  url: string;
  attempt: number;
  attempts: number;
  /** protocol ms since the series started when this attempt was sent */
  offsetMs: number;
  /** protocol ms this attempt took */
  durationMs: number;
  wallMs: number;
  /** accepted: the series ends; retry: another attempt follows (or the series fails) */
  outcome: 'accepted' | 'rejected';
  /** why it was rejected: status 500, timeout, refused, reset, invalid JSON, invalid reply shape */
  reason?: string;
  /**
   * what the rejected reply said, for the reader: its error page by title or its start
   * (`HTML page "ValueError at /bot/***" (151440 characters)`), and the way out for a peer that
   * wants a trailing slash; `reason` stays the verdict alone (`HTTP 500`)
   */
  said?: string;
  /** a rejection that ends the series: no redelivery follows (the docs' reading of a 4xx) */
  final?: boolean;
  /** accepted, yet the reply breaks the contract (the docs' reading takes any 2xx) */
  warning?: string;
  status?: number;
  transfer?: 'chunked' | 'content-length';
  protocolMs: number;
}

export interface DeliveryDoneEvent {
  type: 'delivery-done';
  deliveryId: string;
  target: DeliveryTarget;
  chatId?: number;
  kind?: string;
  /**
   * delivered: valid ok reply; error-reply: a valid error object, shown to the agent; failed:
   * attempts exhausted (or the outbound queue was full); interrupted: the platform stopped
   */
  result: 'delivered' | 'error-reply' | 'failed' | 'interrupted';
  attempts: number;
  /** what the agent sees for error-reply and failed (spec 4.2, 7.1) */
  agentNotice?: string;
  /** protocol ms from the first attempt to the verdict */
  elapsedMs: number;
  protocolMs: number;
}

export type PlatformEventType = PlatformEvent['type'];

export type { HookPlatformEvent } from './hooks/events.js';
export type { WidgetPlatformEvent } from './widget/events.js';
