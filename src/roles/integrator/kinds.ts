/**
 * Chat-channel kinds (interface A) as the contract names them: `channel.<side>.<variant>`.
 * The message `type` picks the variant (spec 2.1, 2.3, 2.4).
 */
import { FILE_MEDIA_TYPES, type FileMediaType } from '../../contract/media-types.js';

/** The file-carrying media types (spec 2.4), from the contract (the one list). */
export { FILE_MEDIA_TYPES, type FileMediaType };

/** Who wrote a channel message: the customer (to the platform) or the agent (to the integrator). */
export type ChannelSide = 'customer' | 'agent';

export type ChannelVariant = 'text' | 'typing' | FileMediaType | 'location';

/** True for the six file-carrying media types of spec 2.4. */
export function isFileMediaType(value: unknown): value is FileMediaType {
  return typeof value === 'string' && (FILE_MEDIA_TYPES as readonly string[]).includes(value);
}

/**
 * The variant a `message.type` value selects, or undefined for types the spec does not know.
 * @example variantOfType('typein') // 'typing'
 */
export function variantOfType(type: unknown): ChannelVariant | undefined {
  if (type === 'text' || type === 'location') return type;
  // spec 2.3: typein starts typing, typeout ends it
  if (type === 'typein' || type === 'typeout') return 'typing';
  if (isFileMediaType(type)) return type;
  return undefined;
}

/**
 * The contract kind of a channel message of one side, from its `message.type`.
 * @example kindOfChannelMessage('customer', { message: { type: 'photo' } }) // 'channel.customer.photo'
 */
export function kindOfChannelMessage(side: ChannelSide, value: unknown): string | undefined {
  const variant = variantOfType(messageOf(value)?.type);
  return variant === undefined ? undefined : `channel.${side}.${variant}`;
}

/** The `message` object of a payload, when there is one. */
export function messageOf(value: unknown): Record<string, unknown> | undefined {
  if (!isRecord(value)) return undefined;
  const message = value.message;
  return isRecord(message) ? message : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
