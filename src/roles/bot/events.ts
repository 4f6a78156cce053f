/**
 * What bot-sim (`createBotProvider`) reports: a discriminated union on `type`. The CLI
 * renders these, one aligned line each; `--json` prints them as they are.
 */
import type { RequestRejectedEvent } from '../../wire-errors.js';

export interface BotListeningEvent {
  type: 'listening';
  url: string;
  /** where the platform posts events: POST <url>/<token> (spec 4.3), token redacted */
  eventsUrl: string;
  /** where bot-sim posts its events: <platformUrl>/webhooks|providers/<provider_id>/<token> */
  platformUrl?: string;
  tokenUrl?: string;
}

/** An event from the platform, answered (or not) as the fault plan says. */
export interface BotReceivedEvent {
  type: 'bot-received';
  event: string;
  eventId: string;
  chatId?: string;
  clientId?: string;
  text?: string;
  buttonId?: string;
  /** attempt of this event id, 1-based (the platform retries after 3 s, spec 8) */
  attempt: number;
  /** what went back: a status, or no reply (hang / reset) */
  reply: { status: number } | { noReply: 'reset' | 'hang' };
  fault: string;
  /** the script rule that acts on it; absent on a repeated attempt or when none matched */
  rule?: string;
  protocolMs: number;
}

/** A request bot-sim refused as a strict provider would (spec 7.2 shape). */
export type BotRejectedEvent = RequestRejectedEvent;

/** An event bot-sim sent to the platform, with the platform's answer. */
export interface BotSentEvent {
  type: 'bot-sent';
  event: 'BOT_MESSAGE' | 'INVITE_AGENT' | 'CLIENT_INFO';
  chatId: string;
  messageType?: string;
  text?: string;
  status?: number;
  /** the platform's error body, or why there was no answer */
  error?: string;
  rule?: string;
  protocolMs: number;
}

/** The spec 5.3 token flow as seen by bot-sim: it obtained a token, or issued one. */
export interface BotSimTokenEvent {
  type: 'bot-token';
  action: 'obtained' | 'renewed' | 'failed' | 'issued' | 'refused';
  reason?: string;
  expiresInMs?: number;
  protocolMs: number;
}

export type BotSimEvent = BotReceivedEvent | BotRejectedEvent | BotSentEvent | BotSimTokenEvent;
