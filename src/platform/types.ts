import type { LifecycleHooks } from './lifecycle-hooks.js';
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
    /** the chat the request was about, for the journal's conversation id */
    chat?: number;
    verdict?: { ok: boolean; errors: string[]; warnings: string[] };
    notes?: string[];
  };
  /** a streaming response (server-sent events); the adapter hands it the raw response */
  stream?: (write: (chunk: string) => boolean, onClose: (fn: () => void) => void) => void;
}

/** A route handler: the request and the pattern's params (router.ts matches them). */
export type RouteHandler = (
  request: PlatformRequest,
  params: Readonly<Record<string, string>>,
) => PlatformResponse | Promise<PlatformResponse>;

export interface Route {
  /** one method, several (`['GET', 'HEAD']`), or `*`: the handler answers every method */
  method: string | readonly string[];
  /** `/_sim/chats/:id/close`, `/:random/:channel`, `/_sim/console/*` */
  path: string;
  handler: RouteHandler;
  /**
   * with `*`: the methods the route serves, where its handler answers the others 405 itself
   * (after a 404 that takes every method): a fault plan acts on these alone (spec 8)
   */
  serves?: readonly string[];
}

/**
 * One interface's part of the platform (channel, bot service, hooks, widget, control API).
 * Every service extends the same core: it answers its own routes and may react to events.
 */
export interface PlatformService {
  readonly name: string;
  /** Its routes, as data (router.ts): the core matches them, answers 404/405 and errors. */
  readonly routes?: readonly Route[];
  /** Called once when the platform stops (abort timers, finish deliveries). */
  close?(): Promise<void> | void;
  /**
   * What the service decides at the moments of a chat's life (lifecycle-hooks.ts): the core
   * calls these for every service, in `use()` order, where the moment happens and before its
   * event is emitted; listeners (`core.on`) only observe. The bot service takes a new chat
   * here (spec 3), so what `openChat` returns never depends on who listens to events.
   */
  readonly lifecycle?: Partial<LifecycleHooks>;
}

/** What a direct channel delivers: the spec 2.2 agent message as built for the integrator. */
export interface DirectDeliveryInput {
  chatId: number;
  /** the customer's key in the state (`<channel id>/<sender id>`) */
  customerKey: string;
  messageId: string;
  kind: string;
  senderName: string;
  message: { type: string } & Record<string, unknown>;
}

/**
 * A service for a channel whose customers are not reached over HTTP (the widget: the page
 * listens to the simulator). Named after the channel kind; agent messages to its customers go
 * through `deliverToCustomer` instead of the integrator URL.
 */
export interface DirectDeliveryService extends PlatformService {
  deliverToCustomer(input: DirectDeliveryInput): {
    result: 'delivered' | 'failed';
    agentNotice?: string;
    /** how it was delivered, when `delivered` alone would mislead (kept for a page not open) */
    note?: string;
  };
}
