import type { ContractIssue } from '../../contract/types.js';
import type { TransferMode } from '../../http/body.js';
import type { RequestRejectedEvent } from '../../wire-errors.js';

/**
 * What the integrator's agent-message endpoint (`createListener`) reports: a discriminated
 * union on `type`. The CLI renders these; `--json` prints them as they are.
 */

/** The endpoint is bound; give `url` to the platform as the integrator URL (spec 1.3, 4.2). */
export interface ListeningEvent {
  type: 'listening';
  url: string;
  /** only this channel public id is served, when set */
  channel?: string;
}

/** A verdict without the parsed data (the body is in the journal). */
export interface EventVerdict {
  ok: boolean;
  errors: ContractIssue[];
  warnings: ContractIssue[];
}

/** What went back: an HTTP status, or no reply at all (connection reset or left hanging). */
export type EventReply = { status: number } | { noReply: 'reset' | 'hang' };

/** One agent message (or one redelivery attempt of it) received on `POST /<channel_public_id>`. */
export interface AgentMessageEvent {
  type: 'agent-message';
  /** arrival number of the request, 1-based */
  request: number;
  /** attempt of this message, 1-based: same `message.id`, else same body (spec 8 redelivery) */
  attempt: number;
  channel: string;
  /** contract kind (`channel.agent.text`, ...), `unknown` when none matches */
  kind: string;
  messageId?: string;
  /** how the platform framed the body (spec 4.2: Content-Length or chunked) */
  transfer: TransferMode;
  bytes: number;
  verdict: EventVerdict;
  /** the fault applied, in --fault syntax (`none` for a normal reply) */
  fault: string;
  delayMs: number;
  reply: EventReply;
  /** protocol ms since the listener started, at arrival */
  protocolMs: number;
  /** protocol ms from arrival to the end of the reply */
  durationMs: number;
}

/** A request that is not an agent message: unknown path, wrong method, too large, bad JSON. */
export interface RejectedRequestEvent extends RequestRejectedEvent {
  status: 400 | 404 | 405 | 413 | 415;
  transfer: TransferMode;
}

/** The listener failed to handle a request (a bug); it answered 500 and keeps serving. */
export interface ListenerErrorEvent {
  type: 'listener-error';
  message: string;
}

export type ListenerEvent = AgentMessageEvent | RejectedRequestEvent | ListenerErrorEvent;
