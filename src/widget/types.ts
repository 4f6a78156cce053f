/**
 * Types of the page-script double (spec 4.5 methods, 6.4 callbacks, 3 widget states).
 * Plain TS only: this code also ships in the browser bundle, which must stay small (no zod).
 */

/** spec 3: `chat`; `call` and `chat/call` (callback form open); `label` and `chat/min` (minimized). */
export type WidgetState = 'chat' | 'call' | 'chat/call' | 'label' | 'chat/min';

/** Assumption (spec 4.5 "Return shape: not shown"): chatMode() returns one of these strings. */
export type ChatMode = 'online' | 'offline';

/** Admin-panel callback setting; `unavailable` stands for day of week, time, call in progress. */
export type CallbackSetting = 'enabled' | 'disabled' | 'unavailable';

/**
 * Assumption (spec 4.5 "Fields of that structure: not shown"): getContactInfo() returns
 * the fields setContactInfo() takes, each present only once known.
 */
export interface ContactInfo {
  name?: string;
  /** the docs profile's spelling of `name` (the public JS API's getContactInfo answers it) */
  client_name?: string;
  email?: string;
  phone?: string;
  description?: string;
}

/** spec 4.5 setCustomData: one field of the agent's side panel, after sanitising. */
export interface CustomDataField {
  content?: string;
  title?: string;
  link?: string;
  key?: string;
}

export interface OfflineMessage extends ContactInfo {
  message: string;
}

export type OkResult = { result: 'ok' };
/** spec 7.3: failures of setCustomData, startCall, isCallbackEnabled carry `reason`. */
export type FailResult = { result: 'fail'; reason: string };
export type ReasonResult = OkResult | FailResult;
/** spec 4.5 setUserToken: `token` on fail is the given value, or false. */
export type UserTokenResult = { result: 'ok'; token: string } | { result: 'fail'; token: unknown };
/** spec 7.3: sendOfflineMessage failures carry `error`. */
export type OfflineMessageResult = OkResult | { result: 'fail'; error: string };
/** spec 6.4 svc_onCallEnd(res): `result` ok or fail and, on fail, `reason`. */
export type CallEndResult = ReasonResult;

/** The page object `svc_api` (spec 4.5), every method. */
export interface SvcApi {
  /** spec 4.5: `start: 'call'` opens the callback form; anything else the chat. */
  open(options?: { start?: string }): void;
  close(): void;
  chatMode(): ChatMode;
  getContactInfo(): ContactInfo;
  getVisitorNumber(callback: (err: Error | null, visitorNumber?: number) => void): void;
  setContactInfo(info: ContactInfo): void;
  setCustomData(fields: unknown): ReasonResult;
  setRules(rules: unknown): void;
  setUserToken(token: unknown): UserTokenResult;
  showProactiveInvitation(invitationText: string, departmentId?: number): void;
  startCall(phone: string): ReasonResult;
  /**
   * The public JS API's visitor attributes (not in spec 4.5): present only under the `docs`
   * profile, which also holds it to the documented 10 calls per visitor and hour.
   */
  setClientAttributes?: (attributes: unknown) => ReasonResult;
  isCallbackEnabled(callback: (result: ReasonResult) => void): void;
  /** One object, or the five strings in the spec's order: name, email, phone, description, message. */
  sendOfflineMessage(message: Partial<OfflineMessage>): OfflineMessageResult;
  sendOfflineMessage(
    name: string,
    email?: string,
    phone?: string,
    description?: string,
    message?: string,
  ): OfflineMessageResult;
}

/** spec 6.4: names of the functions the page may define on `window`. */
export const CALLBACK_NAMES = [
  'svc_onLoadCallback',
  'svc_onOpen',
  'svc_onMessageSent',
  'svc_onAccept',
  'svc_onClose',
  'svc_onIntroduction',
  'svc_onResizeCallback',
  'svc_onCallStart',
  'svc_onCallEnd',
  'svc_onChangeState',
] as const;
export type CallbackName = (typeof CALLBACK_NAMES)[number];

/** One svc_api call. For callback-style methods `result` is what the callback got, once it ran. */
export interface CallRecord {
  method: keyof SvcApi;
  args: unknown[];
  result: unknown;
  time: number;
}

/** One moment a callback was due; `defined` tells whether the page had defined it. */
export interface CallbackRecord {
  name: CallbackName;
  args: unknown[];
  time: number;
  defined: boolean;
  /** What the page's callback threw; the double goes on regardless. */
  error?: unknown;
}

/** Something the real script would silently ignore or drop, noted for the test author. */
export interface WidgetIssue {
  method: string;
  code: string;
  message: string;
}

export interface WidgetOptions {
  /** Agents online: chatMode() 'online' (default true). */
  online?: boolean;
  /** Callback setting of the admin panel (default 'enabled'). */
  callback?: CallbackSetting;
  /** Call balance of the account; startCall needs it positive (default 100). */
  callBalance?: number;
  /** spec 4.5: the admin panel's safe-URL setting; drops custom-data links to other domains (default false). */
  safeUrl?: boolean;
  /** Origin of the page, for the safe-URL rule (default `window.location.origin`). */
  pageOrigin?: string;
  /** The platform side (default: a fresh in-memory transport, or HTTP with `platformUrl`). */
  transport?: WidgetTransport;
  /** A running simulator (`svc-cli platform`): events go over HTTP to its widget channel. */
  platformUrl?: string;
  /** Id of this visitor in transport events (default: generated). */
  visitorId?: string;
  /** Milliseconds for records (default Date.now). */
  now?: () => number;
  /**
   * `docs`: the public docs' readings beyond spec 4.5 (docs/drift.md): `setClientAttributes`,
   * at most 10 calls per visitor and hour, sent to the platform (hook
   * client_attribute_updated); `setCustomData` at most 10 fields; `getContactInfo` answering
   * `client_name` (default `spec`).
   */
  profile?: 'spec' | 'docs';
  /**
   * Where each issue is also told as it happens (the browser bundle passes the page's
   * console: a callback that threw shows there with its stack); default: only `issues`.
   */
  console?: Pick<Console, 'warn' | 'error'>;
}

// ---- the transport seam's events (documented in transport.ts) ----

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type WidgetOutboundEvent =
  | { type: 'visitor_number'; visitorId: string }
  | { type: 'visitor_message'; visitorId: string; text: string; first: boolean }
  | { type: 'contact_info'; visitorId: string; source: 'api' | 'form'; contact: ContactInfo }
  | { type: 'custom_data'; visitorId: string; fields: CustomDataField[] }
  | { type: 'user_token'; visitorId: string; token: string }
  | { type: 'rules'; visitorId: string; rules: { [key: string]: JsonValue } }
  | { type: 'invitation'; visitorId: string; text: string; departmentId?: number }
  | { type: 'offline_message'; visitorId: string; message: OfflineMessage }
  | { type: 'start_call'; visitorId: string; phone: string }
  /** the public JS API's setClientAttributes (docs profile): the attributes set by this call */
  | { type: 'client_attributes'; visitorId: string; attributes: { [key: string]: JsonValue } }
  /**
   * a page callback ran because of a pushed event (spec 6.4): which one, and the event's id on
   * the stream, so the platform's journal shows the callbacks against the pushes they reflect
   */
  | { type: 'callback'; visitorId: string; name: CallbackName; eventId: number; event: string };

/** spec 2.6 call statuses. */
export type CallStatus = 'start' | 'end' | 'agent_connected' | 'client_connected' | 'error';

export type WidgetInboundEvent = { visitorId?: string } & (
  | { type: 'agent_accepted'; agentName?: string }
  | { type: 'agent_message'; text: string; agentName?: string }
  | { type: 'chat_mode'; online: boolean }
  | { type: 'callback_setting'; callback: CallbackSetting }
  | { type: 'call_status'; status: CallStatus; reason?: string }
  /**
   * the visitor's open chat so far, sent to a page that loads after it began (a reload, a
   * second tab): shown as the chat's history, no callback fires for it
   */
  | { type: 'transcript'; messages: Array<{ from: 'visitor' | 'agent'; text: string }> }
);

/** The platform's answer to an outbound event. */
export type WidgetTransportReply =
  { ok: true; visitorNumber?: number } | { ok: false; error: string };

export interface WidgetTransport {
  /** The visitor this transport speaks for, when it is bound to one (installWidget uses it). */
  readonly visitorId?: string;
  /** Delivers one event; rejects only when the platform cannot be reached. */
  send(event: WidgetOutboundEvent): Promise<WidgetTransportReply>;
  /**
   * Listens to platform-side events; returns the unsubscribe function. `eventId` is the
   * event's id on the platform's stream, when it has one (the HTTP transport's pushes).
   */
  subscribe(listener: (event: WidgetInboundEvent, eventId?: number) => void): () => void;
}
