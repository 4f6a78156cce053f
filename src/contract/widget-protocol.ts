/**
 * Interface C as plain data and types, shared by both sides of the page script: the
 * page-script double (src/widget, bundled for the browser) and the platform's widget channel
 * (src/platform/widget). No imports: the browser bundle takes this file as it is, and the
 * zod schemas in widget.ts are built from these lists.
 */

/** spec 3, 6.4: the widget states passed to svc_onChangeState. */
export const WIDGET_STATES = ['chat', 'call', 'chat/call', 'label', 'chat/min'] as const;
/** spec 4.5: isCallbackEnabled's failure reasons, spelled as the platform spells them. */
export const CALLBACK_FAIL_REASONS = ['Callback disabled', 'Callback unavaiable'] as const;
/** spec 4.5 (assumed shape, "not shown"): chatMode() returns one of these. */
export const CHAT_MODES = ['online', 'offline'] as const;
/** spec 4.5: the methods of `svc_api`. */
export const WIDGET_METHODS = [
  'open',
  'close',
  'chatMode',
  'getContactInfo',
  'getVisitorNumber',
  'setContactInfo',
  'setCustomData',
  'setRules',
  'setUserToken',
  'showProactiveInvitation',
  'startCall',
  'isCallbackEnabled',
  'sendOfflineMessage',
] as const;
/** spec 6.4: the callbacks a page may define. */
export const WIDGET_CALLBACKS = [
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

/** spec 4.5: the methods whose arguments are checked (those that take any). */
export const WIDGET_ARG_METHODS = [
  'open',
  'setContactInfo',
  'setCustomData',
  'setRules',
  'setUserToken',
  'showProactiveInvitation',
  'startCall',
  'sendOfflineMessage',
] as const;
/** spec 4.5, 7.3: the methods whose results (or callback values) are checked. */
export const WIDGET_RESULT_METHODS = [
  'chatMode',
  'getContactInfo',
  'getVisitorNumber',
  'setCustomData',
  'setUserToken',
  'startCall',
  'isCallbackEnabled',
  'sendOfflineMessage',
] as const;
/** spec 6.4: the callbacks that receive arguments. */
export const WIDGET_CALLBACKS_WITH_ARGS = ['svc_onCallEnd', 'svc_onChangeState'] as const;

/** spec 3: `chat`; `call` and `chat/call` (callback form open); `label` and `chat/min` (minimized). */
export type WidgetState = (typeof WIDGET_STATES)[number];
/** spec 6.4: a callback the page may define on `window`. */
export type CallbackName = (typeof WIDGET_CALLBACKS)[number];
/** Assumption (spec 4.5 "Return shape: not shown"): chatMode() returns one of these strings. */
export type ChatMode = (typeof CHAT_MODES)[number];

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

/**
 * An agent's media message as the page gets it (spec 2.4): the file's link, name and size, or
 * the location's coordinates.
 */
export interface WidgetMedia {
  type: string;
  file?: string;
  file_name?: string;
  file_size?: number;
  latitude?: number;
  longitude?: number;
}

/** The page the visitor is on (location.href, document.title): the hooks' `page` (spec 6.2). */
export interface WidgetPage {
  url: string;
  title?: string;
}

// ---- the transport seam's events (src/widget/transport.ts documents each) ----

type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export type WidgetOutboundEvent =
  | { type: 'visitor_number'; visitorId: string }
  | { type: 'visitor_message'; visitorId: string; text: string; first: boolean; page?: WidgetPage }
  | { type: 'contact_info'; visitorId: string; source: 'api' | 'form'; contact: ContactInfo }
  | { type: 'custom_data'; visitorId: string; fields: CustomDataField[] }
  | { type: 'user_token'; visitorId: string; token: string }
  | { type: 'rules'; visitorId: string; rules: { [key: string]: JsonValue } }
  | { type: 'invitation'; visitorId: string; text: string; departmentId?: number }
  | { type: 'offline_message'; visitorId: string; message: OfflineMessage; page?: WidgetPage }
  | { type: 'start_call'; visitorId: string; phone: string; page?: WidgetPage }
  /** the public JS API's setClientAttributes (docs profile): the attributes set by this call */
  | { type: 'client_attributes'; visitorId: string; attributes: { [key: string]: JsonValue } }
  /**
   * a page callback ran because of a pushed event (spec 6.4): which one, and the event's id on
   * the stream, so the platform's journal shows the callbacks against the pushes they reflect
   */
  | {
      type: 'callback';
      visitorId: string;
      name: CallbackName;
      eventId: number;
      event: string;
      /** what the page's callback threw (the widget went on): the page's own bug, shown */
      threw?: string;
    };

/** spec 2.6 call statuses. */
export type CallStatus = 'start' | 'end' | 'agent_connected' | 'client_connected' | 'error';

export type WidgetInboundEvent = { visitorId?: string } & (
  | { type: 'agent_accepted'; agentName?: string }
  | { type: 'agent_message'; text: string; agentName?: string; media?: WidgetMedia }
  | { type: 'chat_mode'; online: boolean }
  | { type: 'callback_setting'; callback: CallbackSetting }
  | { type: 'call_status'; status: CallStatus; reason?: string }
  /**
   * the visitor's chat was closed (an agent closed it, or the simulator did: idle, the chat
   * cap): the page shows so, and the visitor's next message starts a new chat, whose first
   * message fires svc_onMessageSent again (spec 6.4)
   */
  | { type: 'chat_closed' }
  /**
   * the visitor's open chat so far, sent to a page that loads after it began (a reload, a
   * second tab): shown as the chat's history, no callback fires for it
   */
  | {
      type: 'transcript';
      messages: Array<{ from: 'visitor' | 'agent'; text: string; media?: WidgetMedia }>;
    }
);

/** The platform's answer to an outbound event. */
export type WidgetTransportReply =
  { ok: true; visitorNumber?: number } | { ok: false; error: string };
