/**
 * The double's state and the moments callbacks fire (spec 3 widget states, spec 6.4).
 * Callbacks are looked up on the window when due, so a page may define them at any time.
 */
import { WIDGET_CALLBACKS } from '../contract/widget-protocol.js';
import { closestNames } from '../suggest.js';
import type { LinkPolicy } from './custom-data.js';
import type {
  CallStatus,
  WidgetInboundEvent,
  WidgetOutboundEvent,
  WidgetTransport,
  WidgetTransportReply,
} from './transport.js';
import type {
  CallEndResult,
  CallRecord,
  CallbackName,
  CallbackRecord,
  CallbackSetting,
  ContactInfo,
  CustomDataField,
  WidgetIssue,
  WidgetMedia,
  WidgetPage,
  WidgetState,
} from './types.js';

export interface ChatMessage {
  /** `notice`: a line of the widget's own (the chat was closed), not a message of anyone's */
  from: 'visitor' | 'agent' | 'invitation' | 'notice';
  text: string;
  time: number;
  /** an agent's media message (spec 2.4): the file's link, name, size or the coordinates */
  media?: WidgetMedia;
  /**
   * A visitor message the platform did not take, and why; absent once it is taken. A page
   * shows it as not sent and offers `visitor.resend(message)`, so the visitor's text is not lost.
   */
  notSent?: SendFailure;
}

/** Why an event did not reach the platform: no answer at all, or an answer that refused it. */
export interface SendFailure {
  code: 'unreachable' | 'refused';
  message: string;
}

export interface WidgetSession {
  readonly win: Record<string, unknown>;
  readonly transport: WidgetTransport;
  readonly visitorId: string;
  readonly now: () => number;
  readonly linkPolicy: LinkPolicy;
  /** setClientAttributes calls allowed per visitor and hour; undefined: no such method */
  readonly attributeCallsPerHour?: number | undefined;
  /** setCustomData fields allowed per call (the public JS API: 10, docs); undefined: no limit */
  readonly customDataFields?: number | undefined;
  /** `client_name`: getContactInfo answers the name under the public JS API's key (docs) */
  readonly contactNameKey?: 'name' | 'client_name';
  /** when each accepted setClientAttributes call was made (the last hour's only) */
  attributeCalls: number[];
  /** the visitor attributes set so far */
  attributes: Record<string, unknown>;
  online: boolean;
  callback: CallbackSetting;
  callBalance: number;
  state: WidgetState;
  /**
   * Whether svc_onLoadCallback has run, when calls before it are noted (`noteEarlyCalls`, on
   * in the browser bundle); undefined: not followed.
   */
  loaded: boolean | undefined;
  /** A message or invitation exists: closing then minimizes to `chat/min`, not `label`. */
  chatStarted: boolean;
  /**
   * The visitor's first message of the chat under way (spec 6.4 svc_onMessageSent fires for
   * it); undefined until the visitor writes, and again once the chat is closed.
   */
  firstOfChat: ChatMessage | undefined;
  contact: ContactInfo;
  customData: CustomDataField[];
  rules: Record<string, unknown> | undefined;
  userToken: string | undefined;
  callActive: boolean;
  callStatus: CallStatus | undefined;
  size: { width: number; height: number };
  readonly messages: ChatMessage[];
  readonly calls: CallRecord[];
  readonly callbacks: CallbackRecord[];
  readonly issues: WidgetIssue[];
  readonly pending: Set<Promise<unknown>>;
  /** Told of each issue as it is noted (WidgetOptions.console). */
  readonly console?: Pick<Console, 'warn' | 'error'> | undefined;
}

/** spec 3: `chat`, `call`, `chat/call` show the window; `label`, `chat/min` are minimized. */
export const isOpenState = (state: WidgetState): boolean =>
  state === 'chat' || state === 'call' || state === 'chat/call';

export function noteIssue(
  session: WidgetSession,
  method: string,
  code: string,
  message: string,
): void {
  session.issues.push({ method, code, message });
  session.console?.warn(`svc_api double: ${message}`);
}

/**
 * Notes a page's function that threw (`what`: the callback, or the method's callback): the
 * issue says the error's text; the console gets the error itself, which prints its text and
 * stack, after a line that does not repeat it.
 */
export function noteThrown(
  session: WidgetSession,
  method: string,
  what: string,
  error: unknown,
): void {
  session.issues.push({
    method,
    code: 'callback_threw',
    message: `${what} threw: ${String(error)}`,
  });
  session.console?.error(`svc_api double: ${what} threw:`, error);
}

const KNOWN_CALLBACKS: ReadonlySet<string> = new Set(WIDGET_CALLBACKS);

/**
 * Notes each function on the window named like a callback that spec 6.4 does not have
 * (`svc_onAcept`, `svc_onReady`): the real script never calls it, and says nothing, so a
 * typo costs an afternoon. Looked at when the script has loaded, where the page has defined
 * its callbacks (a page that defines one later is not told).
 */
export function noteUnknownCallbacks(session: WidgetSession): void {
  for (const name of Object.keys(session.win)) {
    if (!/^svc_?on/i.test(name) || KNOWN_CALLBACKS.has(name)) continue;
    if (typeof session.win[name] !== 'function') continue;
    // compared without the common prefix: `svc_onReady` is no near miss of `svc_onOpen`
    const typed = name.replace(/^svc_?on/i, '');
    const near = /ready|load|init/i.test(typed)
      ? ['svc_onLoadCallback']
      : typed === ''
        ? []
        : closestNames(
            typed,
            WIDGET_CALLBACKS.map((c) => c.slice('svc_on'.length)),
            {
              limit: 1,
              maxDistance: 2,
            },
          ).map((c) => `svc_on${c}`);
    const hint =
      near.length > 0
        ? `did you mean ${near.join(', ')}?`
        : `the callbacks it calls: ${WIDGET_CALLBACKS.join(', ')}`;
    noteIssue(
      session,
      name,
      'unknown_callback',
      `window.${name} is no callback the script calls (spec 6.4); ${hint}`,
    );
  }
}

/** Runs `window[name]` if the page defined it; a throwing callback is recorded, never rethrown. */
export function fireCallback(
  session: WidgetSession,
  name: CallbackName,
  ...args: unknown[]
): CallbackRecord {
  const fn = session.win[name];
  const record: CallbackRecord = {
    name,
    args,
    time: session.now(),
    defined: typeof fn === 'function',
  };
  session.callbacks.push(record);
  if (typeof fn !== 'function') return record;
  try {
    (fn as (...a: unknown[]) => unknown).apply(session.win, args);
  } catch (error) {
    record.error = error;
    record.thrown = String(error);
    noteThrown(session, name, name, error);
  }
  return record;
}

/**
 * Moves to `next`. Crossing from minimized to shown fires svc_onOpen, the other way
 * svc_onClose; then svc_onChangeState(state) (spec 6.4). Same state: nothing fires.
 */
export function changeState(session: WidgetSession, next: WidgetState): void {
  const previous = session.state;
  if (previous === next) return;
  session.state = next;
  if (!isOpenState(previous) && isOpenState(next)) fireCallback(session, 'svc_onOpen');
  if (isOpenState(previous) && !isOpenState(next)) fireCallback(session, 'svc_onClose');
  fireCallback(session, 'svc_onChangeState', next);
}

/**
 * The page the visitor is on now (read at each send: a single-page app moves on), for the
 * hooks' `page` (spec 6.2); only an http(s) page, so jsdom's `about:blank` sends none.
 */
export function pageOf(session: WidgetSession): { page?: WidgetPage } {
  const win = session.win as {
    location?: { href?: unknown };
    document?: { title?: unknown };
  };
  const url = win.location?.href;
  if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) return {};
  const title = win.document?.title;
  return {
    page: { url, ...(typeof title === 'string' && title.trim() !== '' ? { title } : {}) },
  };
}

/** Keeps a promise in `pending` until it settles, so `widget.flush()` can await it. */
export function track<T>(session: WidgetSession, work: Promise<T>): Promise<T> {
  session.pending.add(work);
  const done = (): void => {
    session.pending.delete(work);
  };
  work.then(done, done);
  return work;
}

/**
 * Sends one event; never rejects: a refusal or an unreachable platform is noted and returned,
 * and told to `onFailure` (which of the two it was, as a caller that shows it must say).
 */
export function sendEvent(
  session: WidgetSession,
  event: WidgetOutboundEvent,
  onFailure?: (failure: SendFailure) => void,
): Promise<WidgetTransportReply> {
  const fail = (code: SendFailure['code'], message: string): void => {
    noteIssue(session, 'transport', code, `${event.type}: ${message}`);
    onFailure?.({ code, message });
  };
  const work = session.transport.send(event).then(
    (reply) => {
      if (!reply.ok) fail('refused', reply.error);
      return reply;
    },
    (error: unknown): WidgetTransportReply => {
      const message = error instanceof Error ? error.message : String(error);
      fail('unreachable', message);
      return { ok: false, error: message };
    },
  );
  return track(session, work);
}

/** Ends the active call and fires svc_onCallEnd(res) (spec 6.4). */
export function endCall(session: WidgetSession, res: CallEndResult): void {
  if (!session.callActive) return;
  session.callActive = false;
  fireCallback(session, 'svc_onCallEnd', res);
}

/**
 * Tells the platform a callback ran for its pushed event `eventId` (spec 6.4): the journal
 * then shows the page's callbacks against the pushes they reflect (the trace's
 * `callback-order` invariant). Events without an id (a memory transport's) are not reported.
 */
function reportCallback(
  session: WidgetSession,
  name: CallbackName,
  event: WidgetInboundEvent,
  eventId: number | undefined,
): void {
  if (eventId === undefined) return;
  // a callback that threw is reported so: the platform's log and timeline show the page's bug
  const last = session.callbacks[session.callbacks.length - 1];
  const ran = last?.name === name ? last : undefined;
  const threw = ran?.thrown?.slice(0, 500);
  void sendEvent(session, {
    type: 'callback',
    visitorId: session.visitorId,
    name,
    eventId,
    event: event.type,
    ...(threw === undefined ? {} : { threw }),
  });
}

/** Applies a platform-side event (from the transport or a driver helper). */
export function applyInbound(
  session: WidgetSession,
  event: WidgetInboundEvent,
  eventId?: number,
): void {
  if (event.visitorId !== undefined && event.visitorId !== session.visitorId) return;
  switch (event.type) {
    case 'agent_accepted':
      fireCallback(session, 'svc_onAccept'); // spec 6.4: agent pressed Reply
      reportCallback(session, 'svc_onAccept', event, eventId);
      return;
    case 'agent_message':
      session.messages.push({
        from: 'agent',
        text: event.text,
        time: session.now(),
        ...(event.media ? { media: event.media } : {}),
      });
      session.chatStarted = true;
      return;
    case 'transcript':
      // the chat before this page loaded (a reload): history, not news, so no callback fires
      // the page's own invitations (shown before the stream opened) stay, first
      session.messages.splice(
        0,
        session.messages.length,
        ...session.messages.filter((m) => m.from === 'invitation'),
        ...event.messages.map((m) => ({
          from: m.from,
          text: m.text,
          time: session.now(),
          ...(m.media ? { media: m.media } : {}),
        })),
      );
      if (event.messages.length === 0) return;
      session.chatStarted = true;
      // the visitor wrote in this chat before the reload: their next message is not its first
      session.firstOfChat = session.messages.find((m) => m.from === 'visitor');
      // the real widget comes back with the visitor's chat, not the bare label; whether its
      // window was open is not known here, so minimized (spec 3 `chat/min`), and silently, as
      // the transcript: the page saw that state's callbacks when it was first entered
      if (session.state === 'label') session.state = 'chat/min';
      return;
    case 'chat_closed':
      // the history stays on the page, as the real widget keeps it; the next message opens a
      // new chat on the platform, and is that chat's first (spec 6.4 svc_onMessageSent); a
      // page with no chat on it (a simulator restarted under an idle page) shows no notice
      if (session.messages.length > 0 && session.messages.at(-1)?.from !== 'notice')
        session.messages.push({
          from: 'notice',
          text: 'The chat was closed; a new message starts a new chat.',
          time: session.now(),
        });
      session.firstOfChat = undefined;
      return;
    case 'chat_mode':
      session.online = event.online;
      return;
    case 'callback_setting':
      session.callback = event.callback;
      return;
    case 'call_status':
      session.callStatus = event.status;
      // spec 2.6 statuses; `end` and `error` close the call (spec 6.4 svc_onCallEnd)
      if (event.status !== 'end' && event.status !== 'error') return;
      if (!session.callActive) return;
      if (event.status === 'end') endCall(session, { result: 'ok' });
      else endCall(session, { result: 'fail', reason: event.reason ?? 'call error' });
      reportCallback(session, 'svc_onCallEnd', event, eventId);
      return;
    default: {
      const never: never = event;
      throw new Error(`unknown inbound event ${JSON.stringify(never)}`);
    }
  }
}
