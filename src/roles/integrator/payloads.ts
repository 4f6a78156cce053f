import type { FileMediaType } from './kinds.js';

/** The customer as the integrator describes it (spec 2.1); only `id` is required. */
export interface SenderFields {
  id: string;
  name?: string;
  phone?: string;
  email?: string;
  /** avatar link, http(s) (spec 2.1) */
  photo?: string;
  /** invitation text shown to the agent (spec 2.1) */
  invite?: string;
}

interface BuildBase {
  sender: SenderFields;
  /** the integrator's message id (spec 2.1): also how `listen` recognises redeliveries */
  messageId?: string;
}

/** Optional media fields of spec 2.4, in camelCase; emitted in the spec's snake_case. */
export interface MediaFields {
  file: string;
  fileName: string;
  fileSize: number;
  thumb?: string;
  emoji?: string;
  duration?: number;
  width?: number;
  height?: number;
  /** caption or comment */
  text?: string;
  performer?: string;
  title?: string;
}

/** A customer message as sent to the channel URL (spec 2.1, 2.3, 2.4). */
export interface CustomerPayload {
  sender: SenderFields;
  message: { type: string; id?: string; [field: string]: unknown };
}

const messageBase = (type: string, messageId?: string): CustomerPayload['message'] =>
  messageId === undefined ? { type } : { type, id: messageId };

/** Copies only the defined fields, so `exactOptionalPropertyTypes` output has no `undefined`. */
function definedOnly<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A plain text message (spec 2.1).
 * @example buildTextMessage({ sender: { id: 'c1' }, text: 'Hello' })
 */
export function buildTextMessage(options: BuildBase & { text: string }): CustomerPayload {
  return {
    sender: definedOnly(options.sender),
    message: { ...messageBase('text', options.messageId), text: options.text },
  };
}

/**
 * A media message: `file`, `file_name`, `file_size` plus optional fields (spec 2.4).
 * @example buildMediaMessage({ sender: { id: 'c1' }, type: 'photo', media: { file: 'https://x/a.png', fileName: 'a.png', fileSize: 10 } })
 */
export function buildMediaMessage(
  options: BuildBase & { type: FileMediaType; media: MediaFields },
): CustomerPayload {
  const m = options.media;
  return {
    sender: definedOnly(options.sender),
    message: {
      ...messageBase(options.type, options.messageId),
      ...definedOnly({
        file: m.file,
        file_name: m.fileName,
        file_size: m.fileSize,
        thumb: m.thumb,
        emoji: m.emoji,
        duration: m.duration,
        width: m.width,
        height: m.height,
        text: m.text,
        performer: m.performer,
        title: m.title,
      }),
    },
  };
}

/**
 * A geo-location message (spec 2.4).
 * @example buildLocationMessage({ sender: { id: 'c1' }, latitude: 55.75, longitude: 37.62 })
 */
export function buildLocationMessage(
  options: BuildBase & { latitude: number; longitude: number },
): CustomerPayload {
  return {
    sender: definedOnly(options.sender),
    message: {
      ...messageBase('location', options.messageId),
      latitude: options.latitude,
      longitude: options.longitude,
    },
  };
}

/**
 * A typing notice: `typein` starts, `typeout` stops (spec 2.3).
 * @example buildTypingMessage({ sender: { id: 'c1' }, state: 'start' }).message.type // 'typein'
 */
export function buildTypingMessage(
  options: BuildBase & { state: 'start' | 'stop' },
): CustomerPayload {
  const type = options.state === 'start' ? 'typein' : 'typeout';
  return { sender: definedOnly(options.sender), message: messageBase(type, options.messageId) };
}
