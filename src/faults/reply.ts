import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Clock } from '../clock.js';

/** What a role would answer without a fault. */
export interface NormalReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Everything a fault needs to act on one request. */
export interface FaultContext {
  req: IncomingMessage;
  res: ServerResponse;
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
  res: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): AppliedReply {
  if (!res.headersSent && !res.destroyed) {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(body);
  }
  return { status, body };
}

export const bodyText = (body: unknown): string =>
  typeof body === 'string' ? body : JSON.stringify(body);
