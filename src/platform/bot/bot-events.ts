/**
 * What the bot service (interface B) reports. Part of the `PlatformEvent` union; the CLI
 * renders these (src/cli/render/platform-events.ts), the simulator never prints.
 * The attempts of an outgoing event are `delivery-attempt` events with target `bot`.
 */
export type BotPlatformEvent =
  | BotEventSentEvent
  | BotEventReceivedEvent
  | BotMessageEvent
  | BotHandoverEvent
  | BotAgentJoinedEvent
  | BotAgentUnavailableEvent
  | BotTokenEvent;

/**
 * An event the platform sent to the provider (spec 4.3: CLIENT_MESSAGE, AGENT_JOINED,
 * AGENT_UNAVAILABLE; CHAT_CLOSED of the public docs with `--bot-events docs`).
 */
export interface BotEventSentEvent {
  type: 'bot-event-sent';
  event: 'CLIENT_MESSAGE' | 'AGENT_JOINED' | 'AGENT_UNAVAILABLE' | 'CHAT_CLOSED' | 'AGENT_MESSAGE';
  /** the event's `id` (spec 2.5); also the delivery id of its attempts */
  eventId: string;
  chatId: number;
  clientId: string;
  text?: string;
  /** delivered: a regular answer (HTTP 200 within 3 s); failed: both attempts failed */
  result: 'delivered' | 'failed';
  attempts: number;
  reason?: string;
  /** what the last failed attempt's reply said (its error page by title ...), for the reader */
  said?: string;
  elapsedMs: number;
  protocolMs: number;
}

/** A request the provider sent to the bot service, with the status it got (spec 7.2). */
export interface BotEventReceivedEvent {
  type: 'bot-event-received';
  /** the event name as sent, when there was one */
  event?: string;
  path: string;
  chatId?: number;
  status: number;
  /** spec 7.2 error code, when not 200 */
  code?: string;
  message?: string;
  /** what the service did: handled, rejected (4xx), or accepted but not delivered */
  outcome: 'handled' | 'rejected' | 'not-delivered';
  /** the contract's warnings on an accepted event (`path: rule (spec X)`), as validate gives them */
  warnings?: string[];
  protocolMs: number;
}

/** A BOT_MESSAGE goes to the customer on the customer's channel, as the bot (spec 3). */
export interface BotMessageEvent {
  type: 'bot-message';
  chatId: number;
  customerId: string;
  deliveryId: string;
  /** the bot message type (spec 2.5) */
  messageType: 'TEXT' | 'MARKDOWN' | 'BUTTONS';
  /** what the customer sees: the text, or the fallback `text` of MARKDOWN / BUTTONS */
  text: string;
  /** true when a MARKDOWN / BUTTONS message arrived as its plain-text fallback */
  fallback: boolean;
  sender: string;
  protocolMs: number;
}

/** The chat left the bot: INVITE_AGENT, or no regular answer after 2 attempts (spec 3, 8). */
export interface BotHandoverEvent {
  type: 'bot-handover';
  chatId: number;
  reason: string;
  /**
   * agent: an agent took the chat; bot: no agent online, the bot keeps the chat (spec 3: it
   * then asks for contact data); queue: no agent online and the bot failed, the chat waits
   */
  to: 'agent' | 'bot' | 'queue';
  protocolMs: number;
}

/** An agent joined a bot chat; AGENT_JOINED goes to the provider (spec 3, 6.1). */
export interface BotAgentJoinedEvent {
  type: 'bot-agent-joined';
  chatId: number;
  agentId: number;
  protocolMs: number;
}

/** A hand-over found no agent; AGENT_UNAVAILABLE goes to the provider (spec 3, 6.1). */
export interface BotAgentUnavailableEvent {
  type: 'bot-agent-unavailable';
  chatId: number;
  protocolMs: number;
}

/** The temporary-token flow (spec 5.3): obtained, renewed, refused, or issued by the platform. */
export interface BotTokenEvent {
  type: 'bot-token';
  action: 'obtained' | 'renewed' | 'failed' | 'issued' | 'refused';
  /** why it was renewed or what failed */
  reason?: string;
  /** protocol ms the token is valid for */
  expiresInMs?: number;
  protocolMs: number;
}
