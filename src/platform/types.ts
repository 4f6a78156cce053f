import type { BodyResult } from '../http/body.js';

/** A request as the core sees it, whatever carried it (a socket, msw, the replay runner). */
export interface PlatformRequest {
  method: string;
  /** path without the query, e.g. /k3J.../acme */
  path: string;
  query: URLSearchParams;
  /** lower-case header names */
  headers: Record<string, string>;
  /** the body as read (absent for GET/HEAD) */
  body?: BodyResult;
}

/** What a route answers; `record` adds the contract verdict to the journal entry. */
export interface PlatformResponse {
  status: number;
  /** JSON-serialisable value, or a string sent as is */
  body?: unknown;
  headers?: Record<string, string>;
  record?: {
    iface: 'channel' | 'bot' | 'hook' | 'widget' | 'control';
    kind?: string;
    verdict?: { ok: boolean; errors: string[]; warnings: string[] };
    notes?: string[];
  };
  /** a streaming response (server-sent events); the adapter hands it the raw response */
  stream?: (write: (chunk: string) => boolean, onClose: (fn: () => void) => void) => void;
}

/**
 * One interface's part of the platform (channel, bot service, hooks, widget, control API).
 * Every service extends the same core: it answers its own routes and may react to events.
 */
export interface PlatformService {
  readonly name: string;
  /** Answers a request on one of its routes; undefined when the path is not its own. */
  route?(request: PlatformRequest): Promise<PlatformResponse> | PlatformResponse | undefined;
  /** Called once when the platform stops (abort timers, finish deliveries). */
  close?(): Promise<void> | void;
}
