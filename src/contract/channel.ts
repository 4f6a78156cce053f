/**
 * Interface A, the chat channel (spec 2.1-2.4, 4.1, 4.2): customer and agent messages,
 * typing notices, media in both directions, the integrator's reply and the status body.
 */
import { z } from 'zod';
import { COORDINATE_RANGES } from './coordinates.js';
import {
  cutText,
  httpUrl,
  idString,
  lit,
  memo,
  numberLike,
  once,
  oneOf,
  positiveInt,
  shape,
  str,
  tag,
  TEXT_LIMIT,
} from './rules.js';
import {
  FILE_MEDIA_TYPES,
  MEDIA_TYPES,
  type FileMediaType,
  type MediaType,
} from './media-types.js';

export { FILE_MEDIA_TYPES, MEDIA_TYPES, type FileMediaType, type MediaType };
/**
 * The Content-Type of the platform's requests to the integrator. Spec 4.2 names none; the
 * public Chat API page asks every event request for this one (docs/FIDELITY.md).
 */
export const CHANNEL_CONTENT_TYPE = 'application/json; charset=utf-8';

/** spec 2.3: typing start and end; any other type in this role is ignored. */
export const TYPING_TYPES = ['typein', 'typeout'] as const;
/** spec 3: the status endpoint body. */
export const CHANNEL_STATUSES = [0, 1] as const;

// The parts below are module-level and built on first use (`once`): a one-file `validate`
// builds the schema it reads and its parts, not every schema.

// spec 2.1: the customer as the integrator knows it; sender.id empty means not delivered.
const customerSender = once(() =>
  shape('2.1', {
    id: idString('2.1', {
      nonEmpty: true,
      rule: 'must be a non-empty string (an empty id means the message is not sent)',
    }),
    name: str('2.1').optional(),
    phone: str('2.1').optional(),
    email: str('2.1').optional(),
    photo: httpUrl('2.1').optional(), // spec 2.1: must begin with http:// or https://
    invite: str('2.1').optional(),
  }),
);

// spec 2.2: the agent as the platform shows it.
const agentSender = once(() =>
  shape('2.2', {
    name: str('2.2').optional(),
    photo: httpUrl('2.2').optional(),
  }),
);

// spec 2.2: recipient.id is the customer id received earlier in sender.id, unchanged.
const recipient = once(() =>
  shape('2.2', {
    id: idString('2.2', { nonEmpty: true, rule: 'must be the non-empty customer id' }),
  }),
);

// spec 2.4: optional media fields, shared by every media type.
const mediaOptional = once(() => ({
  id: idString('2.1').optional(),
  thumb: httpUrl('2.4').optional(),
  emoji: str('2.4').optional(),
  duration: positiveInt('2.4').optional(),
  width: positiveInt('2.4').optional(),
  height: positiveInt('2.4').optional(),
  text: str('2.4').optional(),
  performer: str('2.4').optional(),
  title: str('2.4').optional(),
}));

/** spec 2.4: the location message: latitude and longitude required, in range; a file optional. */
function buildLocationMessage() {
  const required = 'required for type "location"';
  return shape('2.4', {
    ...mediaOptional(),
    type: lit('location', '2.4'),
    latitude: numberLike('2.4', {
      rule: 'must be a real latitude',
      required,
      range: { ...COORDINATE_RANGES.latitude, rule: 'not a real latitude: outside -90 to 90' },
    }),
    longitude: numberLike('2.4', {
      rule: 'must be a real longitude',
      required,
      range: {
        ...COORDINATE_RANGES.longitude,
        rule: 'not a real longitude: outside -180 to 180',
      },
    }),
    file: httpUrl('2.4').optional(),
    file_name: str('2.4').optional(),
    file_size: positiveInt('2.4').optional(),
  });
}

/** spec 2.4: a file message (every media type but location): file, name and size required. */
function buildFileMessage(type: MediaType) {
  const required = `required for type "${type}"`;
  return shape('2.4', {
    ...mediaOptional(),
    type: lit(type, '2.4'),
    file: z
      .string(tag('2.4', { required, code: 'not_http_url', rule: 'must be an http(s) URL' }))
      .regex(
        /^https?:\/\/\S+$/i,
        tag('2.4', { code: 'not_http_url', rule: 'must be an http(s) URL' }),
      ),
    file_name: str('2.4', { required }),
    file_size: positiveInt('2.4', required),
    latitude: numberLike('2.4').optional(),
    longitude: numberLike('2.4').optional(),
  });
}

/** spec 2.4: the message object of one media type, with its required extra fields. */
function buildMediaMessage(type: MediaType) {
  return type === 'location' ? buildLocationMessage() : buildFileMessage(type);
}

// spec 2.1: type "text" requires text; over 1000 characters is cut (a warning).
const customerTextMessage = once(() =>
  shape('2.1', {
    type: lit('text', '2.1'),
    id: idString('2.1').optional(),
    text: cutText('2.1', 'required when type is "text"'),
  }),
);

// spec 2.2: the agent's text message.
const agentTextMessage = once(() =>
  shape('2.2', {
    type: lit('text', '2.2'),
    id: idString('2.2').optional(),
    text: str('2.2', { required: 'required when type is "text"' }),
  }),
);

// spec 2.3: only the type is shown; exactly typein or typeout.
const typingMessage = once(() =>
  shape('2.3', {
    type: oneOf(TYPING_TYPES, '2.3'),
    id: idString('2.3').optional(),
  }),
);

/** spec 2.1: what the integrator sends: the customer and one message. */
const customerEnvelope = <M extends z.ZodType>(message: M) =>
  shape('2.1', { sender: customerSender(), message });
/** spec 2.2: what the platform delivers: the agent (optional), the customer and one message. */
const agentEnvelope = <M extends z.ZodType>(message: M) =>
  shape('2.2', { sender: agentSender().optional(), recipient: recipient(), message });

// spec 2.2, 4.2: either {result:"ok"} or {error:{code,message}}; code values are not shown.
const integratorReplySchema = once(() =>
  z.union(
    [
      shape('2.2', { result: lit('ok', '2.2') }),
      shape('2.2', {
        error: shape('2.2', {
          code: z.union(
            [z.string(), z.number()],
            tag('2.2', { rule: 'must be a string or a number' }),
          ),
          message: str('2.2', { rule: 'must be a human-readable string' }),
        }),
      }),
    ],
    tag('2.2'),
  ),
);

// spec 3, 4.1: the status body is 0 (unavailable) or 1 (available).
const channelStatusSchema = once(() =>
  z.union(
    [z.literal(0), z.literal(1)],
    tag('4.1', { code: 'invalid_value', rule: 'must be 0 or 1' }),
  ),
);

/**
 * The channel schemas, each built on first use: a one-file `validate` builds the
 * schema it reads and its parts, not every schema; media schemas are built per type.
 */
export const channelSchemas = once(() => ({
  customerTextSchema: once(() => customerEnvelope(customerTextMessage())),
  customerTypingSchema: once(() => customerEnvelope(typingMessage())),
  agentTextSchema: once(() => agentEnvelope(agentTextMessage())),
  agentTypingSchema: once(() => agentEnvelope(typingMessage())),
  /** spec 2.4: one schema per media type and direction. */
  customerMedia: memo((type: MediaType) => customerEnvelope(buildMediaMessage(type))),
  agentMedia: memo((type: MediaType) => agentEnvelope(buildMediaMessage(type))),
  integratorReplySchema,
  channelStatusSchema,
}));

type ChannelSchemas = ReturnType<typeof channelSchemas>;
export type CustomerText = z.infer<ReturnType<ChannelSchemas['customerTextSchema']>>;
export type CustomerTyping = z.infer<ReturnType<ChannelSchemas['customerTypingSchema']>>;
export type AgentText = z.infer<ReturnType<ChannelSchemas['agentTextSchema']>>;
export type AgentTyping = z.infer<ReturnType<ChannelSchemas['agentTypingSchema']>>;
export type CustomerMedia = z.infer<ReturnType<ChannelSchemas['customerMedia']>>;
export type AgentMedia = z.infer<ReturnType<ChannelSchemas['agentMedia']>>;
export type IntegratorReply = z.infer<ReturnType<ChannelSchemas['integratorReplySchema']>>;
export type ChannelStatus = z.infer<ReturnType<ChannelSchemas['channelStatusSchema']>>;

/** spec 2.1: the sender fields that are plain strings (photo is a URL: left to the schema). */
const SENDER_STRING_FIELDS = new Set(['id', 'name', 'phone', 'email', 'invite']);

const isPlainRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/**
 * True only for a customer text message the schema passes with no issue at all: a JSON
 * object with exactly `sender` and `message`; a sender of string fields with a non-empty
 * id; a message `{type: "text", text[, id]}` of strings, the text at most 1000 code units
 * (so never cut). It is what nearly every customer message looks like, and the channel
 * validates each one: this answers in ~0.1 µs where zod took ~1 µs (the ingest bench).
 * Anything else (a null, a number id, a photo, an unknown or `__proto__` key, a long text)
 * goes to the schema, which says what is wrong; test/unit/contract/fast-accept.test.ts
 * checks that every value accepted here passes the schema clean.
 */
export function isPlainCustomerText(value: unknown): boolean {
  if (!isPlainRecord(value)) return false;
  let keys = 0;
  for (const key in value) {
    if (key !== 'sender' && key !== 'message') return false;
    keys++;
  }
  const { sender, message } = value;
  if (keys !== 2 || !isPlainRecord(sender) || !isPlainRecord(message)) return false;
  if (typeof sender.id !== 'string' || sender.id === '') return false;
  for (const key in sender)
    if (!SENDER_STRING_FIELDS.has(key) || typeof sender[key] !== 'string') return false;
  if (message.type !== 'text') return false;
  if (typeof message.text !== 'string' || message.text.length > TEXT_LIMIT) return false;
  for (const key in message) {
    if (key === 'type' || key === 'text') continue;
    if (key !== 'id' || typeof message.id !== 'string') return false;
  }
  return true;
}
