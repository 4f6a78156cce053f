/**
 * installWidget: puts the `svc_api` double on a window (jsdom, happy-dom, a real browser)
 * and returns the handle a test drives the platform side with.
 */
import { createSvcApi } from './api.js';
import {
  createMemoryTransport,
  createVisitorId,
  type WidgetInboundEvent,
  type WidgetTransport,
} from './transport.js';
import { createHttpTransport } from './http-transport.js';
import {
  applyInbound,
  fireCallback,
  noteIssue,
  noteUnknownCallbacks,
  type ChatMessage,
  type WidgetSession,
} from './session.js';
import { createWidgetDriver, type WidgetDriver } from './driver.js';
import type {
  CallRecord,
  CallbackName,
  CallbackRecord,
  SvcApi,
  WidgetIssue,
  WidgetOptions,
  WidgetState,
} from './types.js';

export interface Widget extends WidgetDriver {
  /** The object installed as `window.svc_api`. */
  readonly api: SvcApi;
  readonly transport: WidgetTransport;
  readonly visitorId: string;
  /** Every svc_api call: method, args, result, time. */
  readonly calls: CallRecord[];
  /** Every moment a spec 6.4 callback was due, whether or not the page defined it. */
  readonly callbacks: CallbackRecord[];
  /** Input the real script would ignore, dropped links, callbacks that threw, transport failures. */
  readonly issues: WidgetIssue[];
  /** The chat as the visitor sees it. */
  readonly messages: ChatMessage[];
  /** Live view of the double's state (spec 3 widget state, contacts, custom data ...). */
  readonly session: Readonly<WidgetSession>;
  readonly state: WidgetState;
  /** Resolves once svc_onLoadCallback has run (asynchronously after install, like the real script). */
  readonly ready: Promise<void>;
  /** Resolves once every transport send and pending page callback has settled. */
  flush(): Promise<void>;
  /** Arguments of each firing of one callback, in order. */
  fired(name: CallbackName): unknown[][];
  /** Removes `svc_api` and stops listening to the transport. */
  uninstall(): void;
}

function readOrigin(win: Record<string, unknown>): string {
  const location = win.location as { origin?: unknown } | undefined;
  return typeof location?.origin === 'string' ? location.origin : '';
}

const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Installs the page-script double on `win` (offline by default: an in-memory platform).
 * @example
 * const widget = installWidget(window, { online: false, callback: 'disabled' });
 * await widget.ready;
 * window.svc_api.startCall('+1 555 0100'); // { result: 'fail', reason: 'Callback disabled' }
 */
export function installWidget(win: object, options: WidgetOptions = {}): Widget {
  const host = win as Record<string, unknown>;
  const visitorId = options.visitorId ?? options.transport?.visitorId ?? createVisitorId();
  // spec 4.5 against the simulator: the HTTP transport when a platform URL is given
  const transport =
    options.transport ??
    (options.platformUrl
      ? createHttpTransport(options.platformUrl, { visitorId })
      : createMemoryTransport());
  const session: WidgetSession = {
    win: host,
    transport,
    visitorId,
    now: options.now ?? Date.now,
    linkPolicy: {
      safeUrl: options.safeUrl ?? false,
      pageOrigin: options.pageOrigin ?? readOrigin(host),
    },
    // the public JS API: 10 setClientAttributes calls per visitor and hour (docs profile)
    // and getContactInfo answers the name as client_name
    ...(options.profile === 'docs'
      ? { attributeCallsPerHour: 10, customDataFields: 10, contactNameKey: 'client_name' as const }
      : {}),
    attributeCalls: [],
    attributes: {},
    online: options.online ?? true,
    callback: options.callback ?? 'enabled',
    callBalance: options.callBalance ?? 100,
    state: 'label',
    chatStarted: false,
    firstOfChat: undefined,
    contact: {},
    customData: [],
    rules: undefined,
    userToken: undefined,
    callActive: false,
    callStatus: undefined,
    size: { width: 0, height: 0 },
    messages: [],
    calls: [],
    callbacks: [],
    issues: [],
    pending: new Set(),
    loaded: options.noteEarlyCalls === true ? false : undefined,
    console: options.console,
  };
  const api = createSvcApi(session);
  host.svc_api = api;
  let installed = true;
  transport.onTrouble?.((message) => {
    if (installed) noteIssue(session, 'transport', 'unreachable', message);
  });
  const unsubscribe = transport.subscribe((event: WidgetInboundEvent, eventId?: number) => {
    if (installed) applyInbound(session, event, eventId);
  });
  // spec 6.4: svc_onLoadCallback once initialisation is finished, never synchronously. The
  // real script loads asynchronously, after the page's own scripts: a page that defines its
  // callbacks below the script tag still gets them (the double waits for the parse to end)
  const ready = new Promise<void>((resolve) => {
    const fire = (): void => {
      setTimeout(() => {
        if (session.loaded === false) session.loaded = true;
        if (installed) noteUnknownCallbacks(session);
        if (installed) fireCallback(session, 'svc_onLoadCallback');
        resolve();
      }, 0);
    };
    const document = host.document as
      | { readyState?: string; addEventListener?: (type: string, fn: () => void) => void }
      | undefined;
    const on = host.addEventListener as
      ((type: string, fn: () => void, options?: { once: boolean }) => void) | undefined;
    if (document?.readyState === 'loading' && document.addEventListener)
      document.addEventListener('DOMContentLoaded', fire);
    // a deferred or module script runs while 'interactive', DOMContentLoaded maybe still to
    // come (and maybe gone): the window's load is sure to come after the page's scripts
    else if (document?.readyState === 'interactive' && on)
      on.call(host, 'load', fire, { once: true });
    else fire();
  });
  const driver = createWidgetDriver(session);
  return {
    ...driver,
    api,
    transport,
    visitorId: session.visitorId,
    calls: session.calls,
    callbacks: session.callbacks,
    issues: session.issues,
    messages: session.messages,
    session,
    get state() {
      return session.state;
    },
    ready,
    async flush() {
      for (;;) {
        if (session.pending.size === 0) {
          await turn();
          if (session.pending.size === 0) return;
        }
        await Promise.allSettled([...session.pending]);
      }
    },
    fired: (name) => session.callbacks.filter((c) => c.name === name).map((c) => c.args),
    uninstall() {
      installed = false;
      unsubscribe();
      if (host.svc_api === api) delete host.svc_api;
    },
  };
}
