/**
 * The page script's HTTP transport: outbound events are POSTed to the simulator's widget
 * channel (`POST {platformUrl}/_sim/widget/events`), inbound ones arrive as server-sent
 * events (`GET {platformUrl}/_sim/widget/events?visitor=<id>`). Browser-safe: fetch and
 * EventSource only; both can be injected (Node 20 has fetch but no EventSource).
 */
import {
  createVisitorId,
  type WidgetInboundEvent,
  type WidgetTransport,
  type WidgetTransportReply,
} from './transport.js';

/** The part of EventSource the transport uses. */
export interface EventSourceLike {
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: string; lastEventId?: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
  close(): void;
}
export type EventSourceFactory = new (url: string) => EventSourceLike;

export interface HttpTransportOptions {
  /** this visitor's id in every event (default: generated); installWidget takes it over */
  visitorId?: string;
  /** a widget channel's public id (default: the simulator's widget channel) */
  channelId?: string;
  fetch?: typeof fetch;
  EventSource?: EventSourceFactory;
}

export interface HttpTransport extends WidgetTransport {
  readonly visitorId: string;
  readonly platformUrl: string;
  /** Resolves once the event stream is open (the first subscriber opens it). */
  connected(): Promise<void>;
  /** Closes the event stream. */
  close(): void;
}

const LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * Why a send did not reach the platform. A browser says only "Failed to fetch", whether the
 * platform is down or refused the page's origin (CORS: only loopback pages and
 * `--allow-origin` entries are let in), so both are named, with the flag for the second.
 */
export function unreachableText(error: unknown, base: string): string {
  const said = error instanceof Error ? error.message : String(error);
  const location = (globalThis as { location?: { origin?: unknown; hostname?: unknown } }).location;
  const protocol = (globalThis as { location?: { protocol?: unknown } }).location?.protocol;
  // a page opened from a file: Chromium's location.origin reads file://, its requests carry
  // Origin: null, which is what --allow-origin takes
  const fromFile = protocol === 'file:';
  const origin = fromFile
    ? 'null'
    : typeof location?.origin === 'string'
      ? location.origin
      : undefined;
  const host = typeof location?.hostname === 'string' ? location.hostname : '';
  let platformOrigin: string | undefined;
  try {
    platformOrigin = new URL(base).origin;
  } catch {
    platformOrigin = undefined;
  }
  if (fromFile)
    return `${said} (the platform at ${base} is not running, or it refused this page, opened from a file (Origin: null): start it with --allow-origin null, or serve the page from http://localhost)`;
  const crossOrigin =
    origin !== undefined && origin !== 'null' && origin !== platformOrigin && !LOOPBACK.test(host);
  return crossOrigin
    ? `${said} (the platform at ${base} is not running, or it refused this page's origin ${origin}: start it with --allow-origin ${origin})`
    : `${said} (is the platform at ${base} running?)`;
}

/**
 * @example
 * const transport = createHttpTransport('http://127.0.0.1:8800');
 * installWidget(window, { transport }); // or installWidget(window, { platformUrl })
 */
export function createHttpTransport(
  platformUrl: string,
  options: HttpTransportOptions = {},
): HttpTransport {
  const base = platformUrl.replace(/\/+$/, '');
  const visitorId = options.visitorId ?? createVisitorId();
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const Source =
    options.EventSource ??
    (globalThis as unknown as { EventSource?: EventSourceFactory }).EventSource;
  const channel = options.channelId ? `channel=${encodeURIComponent(options.channelId)}` : '';
  const listeners = new Set<(event: WidgetInboundEvent, eventId?: number) => void>();
  let source: EventSourceLike | undefined;
  let opened: Promise<void> | undefined;
  let markOpen: () => void = () => undefined;
  const troubled = new Set<(message: string) => void>();
  // an EventSource retries on its own and errs on each try: said once until it is open again
  let troubleSaid = false;

  const open = (): void => {
    if (source) return;
    if (!Source) {
      throw new Error('createHttpTransport: no EventSource here; pass options.EventSource');
    }
    const query = `visitor=${encodeURIComponent(visitorId)}${channel ? `&${channel}` : ''}`;
    source = new Source(`${base}/_sim/widget/events?${query}`);
    source.onopen = () => {
      troubleSaid = false;
      markOpen();
    };
    source.onerror = () => {
      if (troubleSaid) return;
      troubleSaid = true;
      const message = unreachableText(
        new Error(`the event stream at ${base}/_sim/widget/events did not connect`),
        base,
      );
      for (const listener of [...troubled])
        listener(`${message}; the page gets no agent messages until it does`);
    };
    source.onmessage = (message) => {
      let event: WidgetInboundEvent;
      try {
        event = JSON.parse(message.data) as WidgetInboundEvent;
      } catch {
        return; // not ours; the simulator only sends JSON
      }
      // the stream's id of a pushed event (the backlog's): the page reports callbacks by it
      const id = message.lastEventId ? Number(message.lastEventId) : NaN;
      for (const listener of [...listeners]) {
        if (Number.isInteger(id)) listener(event, id);
        else listener(event);
      }
    };
  };

  const connected = (): Promise<void> => {
    opened ??= new Promise<void>((resolve) => {
      markOpen = resolve;
    });
    return opened;
  };
  void connected();

  return {
    visitorId,
    platformUrl: base,
    async send(event): Promise<WidgetTransportReply> {
      // JSON: the simulator refuses a state-changing text/plain request, which any page could
      // send cross-origin unasked; the preflight this costs is answered for pages on loopback
      // and --allow-origin entries (docs/SECURITY.md)
      let response: Response;
      try {
        response = await doFetch(`${base}/_sim/widget/events${channel ? `?${channel}` : ''}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(event),
        });
      } catch (error) {
        throw new Error(unreachableText(error, base));
      }
      const text = await response.text();
      try {
        const reply = JSON.parse(text) as WidgetTransportReply;
        if (typeof reply.ok === 'boolean') return reply;
      } catch {
        // fall through: not a transport reply
      }
      return { ok: false, error: `platform answered HTTP ${response.status}` };
    },
    subscribe(listener) {
      listeners.add(listener);
      open();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          source?.close();
          source = undefined;
        }
      };
    },
    onTrouble(listener) {
      troubled.add(listener);
    },
    connected,
    close() {
      listeners.clear();
      source?.close();
      source = undefined;
    },
  };
}
