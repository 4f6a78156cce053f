/** The integrator side of the chat channel (interface A): send, status, listen. Never prints. */
export {
  buildTextMessage,
  buildMediaMessage,
  buildLocationMessage,
  buildTypingMessage,
  type SenderFields,
  type MediaFields,
  type CustomerPayload,
} from './payloads.js';
export {
  FILE_MEDIA_TYPES,
  isFileMediaType,
  kindOfChannelMessage,
  type FileMediaType,
} from './kinds.js';
export {
  sendCustomerMessage,
  getChannelStatus,
  DEFAULT_SEND_TIMEOUT_MS,
  type SendCustomerMessageOptions,
  type SendResult,
  type GetChannelStatusOptions,
  type ChannelStatus,
} from './send.js';
export { createListener, type ListenerOptions, type Listener } from './listener.js';

export type {
  ListenerEvent,
  ListeningEvent,
  AgentMessageEvent,
  RejectedRequestEvent,
  ListenerErrorEvent,
  EventVerdict,
  EventReply,
} from './events.js';
