/**
 * `svc-cli/widget`: the page-script double (spec 4.5 svc_api, 6.4 callbacks) for a web
 * developer's own tests in jsdom, happy-dom or a real browser.
 * @example
 * import { installWidget } from 'svc-cli/widget';
 * const widget = installWidget(window);
 * await widget.ready; // svc_onLoadCallback has run
 */
export { installWidget, type Widget } from './install.js';
export type { WidgetDriver } from './driver.js';
export type { ChatMessage, SendFailure } from './session.js';
export {
  createMemoryTransport,
  type CallStatus,
  type MemoryTransport,
  type MemoryTransportOptions,
  type WidgetInboundEvent,
  type WidgetOutboundEvent,
  type WidgetTransport,
  type WidgetTransportReply,
} from './transport.js';
export {
  createHttpTransport,
  type EventSourceFactory,
  type EventSourceLike,
  type HttpTransport,
  type HttpTransportOptions,
} from './http-transport.js';
export { REASONS, OFFLINE_ERRORS } from './checks.js';
export { checkLink, neutraliseTags } from './custom-data.js';
export {
  CALLBACK_NAMES,
  type CallEndResult,
  type CallRecord,
  type CallbackName,
  type CallbackRecord,
  type CallbackSetting,
  type ChatMode,
  type ContactInfo,
  type CustomDataField,
  type FailResult,
  type OfflineMessage,
  type OfflineMessageResult,
  type OkResult,
  type ReasonResult,
  type SvcApi,
  type UserTokenResult,
  type WidgetIssue,
  type WidgetOptions,
  type WidgetState,
} from './types.js';
