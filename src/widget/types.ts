/**
 * Types of the page-script double (spec 4.5 methods, 6.4 callbacks, 3 widget states).
 * Plain TS only: this code also ships in the browser bundle, which must stay small (no zod).
 */

import {
  WIDGET_CALLBACKS,
  type CallbackName,
  type CallbackSetting,
  type ChatMode,
  type ContactInfo,
  type OfflineMessage,
  type WidgetInboundEvent,
  type WidgetOutboundEvent,
  type WidgetTransportReply,
} from '../contract/widget-protocol.js';

export type {
  CallbackName,
  CallbackSetting,
  CallStatus,
  ChatMode,
  ContactInfo,
  CustomDataField,
  OfflineMessage,
  WidgetInboundEvent,
  WidgetMedia,
  WidgetOutboundEvent,
  WidgetPage,
  WidgetState,
  WidgetTransportReply,
} from '../contract/widget-protocol.js';

/** spec 6.4: names of the functions the page may define on `window` (the contract's list). */
export const CALLBACK_NAMES = WIDGET_CALLBACKS;

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
  /** the same as text (`Error: boom`), as the platform is told it */
  thrown?: string;
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
  /**
   * Note each method the page calls before svc_onLoadCallback has run (the real script is not
   * there yet then); the browser bundle turns it on (default false).
   */
  noteEarlyCalls?: boolean;
}

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
  /**
   * Tells `listener` when the platform-side stream cannot be reached (once until it is
   * again): nothing the agent sends reaches the page meanwhile. Optional (in memory: never).
   */
  onTrouble?(listener: (message: string) => void): void;
}
