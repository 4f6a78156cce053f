import { createParser } from 'eventsource-parser';
import { atLeastWallMs, type Clock } from '../clock.js';
import { postJson, type PostOutcome } from '../http/client.js';
import { SocketEventSource } from '../http/event-stream.js';
import { callInProcess, isInProcessUrl } from '../http/in-process.js';
import {
  CALLBACK_NAMES,
  createHttpTransport,
  installWidget,
  type EventSourceLike,
  type HttpTransport,
  type Widget,
  type WidgetInboundEvent,
  type WidgetTransport,
} from '../widget/index.js';
import type { WIDGET_METHODS } from '../contract/widget-protocol.js';

/** A method of `svc_api` (spec 4.5). */
type WidgetMethod = (typeof WIDGET_METHODS)[number];

/**
 * A fixture's page: the page-script double (src/widget/install.ts, interface C, spec 4.5, 6.4)
 * attached to the simulator's widget channel (`/_sim/widget/events`) as a browser's page would
 * be, in process or over a socket. It reports each callback a push caused (`type: callback`
 * with the push's stream id), so the platform journals it in the push's chat and the
 * `callback-order` invariant (spec 6.4) reads it after the steps.
 */

/** What the page does wrong on purpose (a planted page bug): `setup.page.hold`. */
export interface PageHold {
  /** the inbound event type held back (`agent_accepted`) */
  event: string;
  /** handed over once this came: an inbound type, or `type:status` (`call_status:end`) */
  until: string;
}

export interface PageOptions {
  /** the simulator's base URL (in process or a socket) */
  baseUrl: string;
  clock: Clock;
  visitorId: string;
  hold?: PageHold | undefined;
  /** each callback the page script ran: its name and arguments */
  onCallback: (name: string, args: unknown[]) => void;
  /**
   * each POST the page made (its events and callback reports) with its answer, for a run that
   * keeps its own observations (conform platform's page case)
   */
  onPost?: (post: PagePost) => void;
}

/** One POST of the page to the widget channel: the body it sent, when, and the answer. */
export interface PagePost {
  url: string;
  body: unknown;
  startedAt: number;
  outcome: PostOutcome;
}

export interface Page {
  readonly widget: Widget;
  /** The visitor writes in the widget (opening it first). */
  say(text: string): void;
  /** `svc_api.startCall(phone)`: its result. */
  call(phone: string): unknown;
  /**
   * `svc_api[method](...args)`: its result, or for a method that answers through a callback
   * (getVisitorNumber, isCallbackEnabled) what the callback got, once `flush()` settled.
   */
  api(method: WidgetMethod, args: readonly unknown[]): { value: () => unknown };
  /** The visitor fills the contacts form (spec 6.4 svc_onIntroduction). */
  contacts(info: {
    name?: string | undefined;
    email?: string | undefined;
    phone?: string | undefined;
  }): void;
  /** Resolves once every send and callback report of the page has settled. */
  flush(): Promise<void>;
  close(): void;
}

/** fetch as the widget transport calls it, through postJson (in process or a socket; tracked). */
function pageFetch(clock: Clock, onPost?: (post: PagePost) => void): typeof fetch {
  return (async (url: string | URL, init?: { body?: unknown }) => {
    const body = typeof init?.body === 'string' ? init.body : '';
    const startedAt = clock.now();
    const out = await postJson({
      url: String(url),
      body,
      timeoutMs: atLeastWallMs(10_000, clock),
      clock,
    });
    onPost?.({ url: String(url), body: parsedOrText(body), startedAt, outcome: out });
    return new Response(out.ok ? out.body : '', { status: out.ok ? out.status : 502 });
  }) as typeof fetch;
}

const parsedOrText = (body: string): unknown => {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return body;
  }
};

/** An EventSource on the in-process transport (no socket: the platform's stream route as is). */
class InProcessEventSource implements EventSourceLike {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: string; lastEventId?: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  private readonly abort: (reason: Error) => void;

  constructor(url: string) {
    let opened = false;
    let lastEventId = '';
    const parser = createParser({
      onEvent: (event) => {
        if (event.id !== undefined) lastEventId = event.id;
        this.onmessage?.({ data: event.data, lastEventId });
      },
    });
    const call = callInProcess(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream' },
      body: undefined,
      onPiece: (piece) => {
        if (!opened) {
          opened = true;
          this.onopen?.({});
        }
        parser.feed(piece);
      },
    });
    call.reply.catch((error: unknown) => this.onerror?.(error));
    this.abort = (reason) => call.abort(reason);
  }

  close(): void {
    this.abort(new Error('the page closed its event stream'));
  }
}

const matches = (event: WidgetInboundEvent, what: string): boolean => {
  const [type, status] = what.split(':');
  if (event.type !== type) return false;
  return status === undefined || (event as { status?: unknown }).status === status;
};

/**
 * The planted page bug of `setup.page.hold`: the page's event handling keeps one event type
 * back until another came, then hands it over (svc_onCallEnd before svc_onAccept).
 */
function holding(inner: WidgetTransport, hold: PageHold): WidgetTransport {
  return {
    ...(inner.visitorId === undefined ? {} : { visitorId: inner.visitorId }),
    send: (event) => inner.send(event),
    subscribe(listener) {
      let held: Array<[WidgetInboundEvent, number | undefined]> = [];
      return inner.subscribe((event, id) => {
        if (matches(event, hold.event)) {
          held.push([event, id]);
          return;
        }
        listener(event, id);
        if (matches(event, hold.until)) {
          for (const [e, i] of held) listener(e, i);
          held = [];
        }
      });
    },
  };
}

/**
 * Every send of the page (its events and callback reports, each through postJson) answered:
 * no wall-clock turn as `widget.flush()` waits, so a step ends at the same protocol ms each run.
 */
async function settled(widget: Widget): Promise<void> {
  while (widget.session.pending.size > 0) await Promise.allSettled([...widget.session.pending]);
}

/** The methods of spec 4.5 that answer through the callback they are given. */
const ANSWER_BY_CALLBACK: ReadonlySet<WidgetMethod> = new Set([
  'getVisitorNumber',
  'isCallbackEnabled',
]);

/**
 * Calls a method of `svc_api` as the page would. A method that answers through a callback
 * (spec 4.5 getVisitorNumber, isCallbackEnabled) is given one, unless the fixture passed its
 * own arguments: its value is what the callback got (getVisitorNumber's number, or
 * `{result: 'fail', error}` when it got an error).
 */
function callApi(
  widget: Widget,
  method: WidgetMethod,
  args: readonly unknown[],
): { value: () => unknown } {
  const fn = (widget.api as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
  if (ANSWER_BY_CALLBACK.has(method) && args.length === 0) {
    let got: unknown;
    fn?.((...answer: unknown[]) => {
      got =
        method !== 'getVisitorNumber'
          ? answer[0]
          : answer[0] instanceof Error
            ? { result: 'fail', error: answer[0].message }
            : answer[1];
    });
    return { value: () => got };
  }
  const result = fn?.(...args);
  return { value: () => result };
}

/**
 * Attaches the page to the simulator's widget channel; resolves once its event stream is open.
 * @example const page = await attachPage({ baseUrl: core.baseUrl, clock, visitorId: 'v-1', onCallback });
 */
export async function attachPage(options: PageOptions): Promise<Page> {
  const transport: HttpTransport = createHttpTransport(options.baseUrl, {
    visitorId: options.visitorId,
    fetch: pageFetch(options.clock, options.onPost),
    EventSource: isInProcessUrl(options.baseUrl) ? InProcessEventSource : SocketEventSource,
  });
  // the page defines every callback (spec 6.4) and tells the fixture each time one runs
  const win: Record<string, unknown> = { location: { origin: 'https://page.svc-cli.invalid' } };
  for (const name of CALLBACK_NAMES)
    win[name] = (...args: unknown[]) => options.onCallback(name, args);
  const widget = installWidget(win, {
    transport: options.hold ? holding(transport, options.hold) : transport,
    visitorId: options.visitorId,
  });
  // the stream is open once the platform wrote its head (in process: within this turn's
  // microtasks); svc_onLoadCallback follows a wall turn later and is not waited for, so the
  // virtual clock never waits on the wall clock
  await options.clock.track(transport.connected());
  return {
    widget,
    say: (text) => widget.visitor.send(text),
    call: (phone) => widget.api.startCall(phone),
    api: (method, args) => callApi(widget, method, args),
    // fields the fixture left out are not there, rather than there as undefined
    contacts: (info) =>
      widget.visitor.fillContacts(
        Object.fromEntries(Object.entries(info).filter(([, v]) => v !== undefined)),
      ),
    flush: () => options.clock.track(settled(widget)),
    close() {
      widget.uninstall();
      transport.close();
    },
  };
}
