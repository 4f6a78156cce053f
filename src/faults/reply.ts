import type { Clock } from '../clock.js';
import type { ReplyWire } from '../http/wire.js';

/** What a role would answer without a fault. */
export interface NormalReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Everything a fault needs to act on one request: the wire it answers through. */
export interface FaultContext {
  wire: ReplyWire;
  clock: Clock;
  normal: NormalReply;
}

/** What actually went back, for output and the journal. */
export interface AppliedReply {
  status?: number;
  body?: string;
  /** the connection was reset or left hanging: no HTTP reply */
  noReply?: 'reset' | 'hang';
}

export function writeReply(
  wire: ReplyWire,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): AppliedReply {
  wire.send(status, body, headers);
  return { status, body };
}

export const bodyText = (body: unknown): string =>
  typeof body === 'string' ? body : JSON.stringify(body);
