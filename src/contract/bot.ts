/**
 * Interface B, the bot provider (spec 2.5, 4.3, 6.1, 7.2): the five events with TEXT,
 * MARKDOWN and BUTTONS messages, and the error body.
 */
import { z } from 'zod';
import {
  MAX_BUTTONS,
  WARNING_PREFIX,
  encodeRule,
  idString,
  lit,
  nonEmpty,
  once,
  oneOf,
  shape,
  str,
  tag,
} from './rules.js';

/** spec 6.1: the bot events, carried in the field `event`. */
export const BOT_EVENTS = [
  'CLIENT_MESSAGE',
  'BOT_MESSAGE',
  'INVITE_AGENT',
  'AGENT_JOINED',
  'AGENT_UNAVAILABLE',
] as const;
/**
 * Events the public Bot API lists beyond spec 6.1 (docs/FIDELITY.md): off by
 * default, on with `--bot-events docs`. Their schemas are known either way, so `validate`
 * reads a payload shaped as the docs show.
 */
export const DOCS_BOT_EVENTS = ['CHAT_CLOSED', 'CLIENT_INFO', 'AGENT_MESSAGE'] as const;
/** Which bot events are in play: the spec's five, or those plus the public docs' two. */
export const BOT_EVENT_SETS = ['spec', 'docs'] as const;
export type BotEventSet = (typeof BOT_EVENT_SETS)[number];
export type BotEventName = (typeof BOT_EVENTS)[number] | (typeof DOCS_BOT_EVENTS)[number];
/** spec 2.5: the bot message types. */
export const BOT_MESSAGE_TYPES = ['TEXT', 'MARKDOWN', 'BUTTONS'] as const;
/** spec 7.2: the error codes of the error body. */
export const BOT_ERROR_CODES = [
  'invalid_client',
  'unauthorized_client',
  'invalid_request',
] as const;
/** spec 7.2: the HTTP statuses the platform answers the provider with. */
export const BOT_HTTP_STATUSES = [200, 400, 401, 403, 404, 405, 429, 500, 502, 503, 504] as const;

/**
 * Above this, a unix time in seconds lies past the year 5000: the value is milliseconds (the
 * public BOT_MESSAGE sample writes one). A plausibility warning, never an error.
 */
export const MILLISECONDS_ABOVE = 1e11;

/**
 * The public Bot API's events beyond spec 6.1 (DOCS_BOT_EVENTS), on the envelope the spec's
 * events share.
 */
function docsBotEventSchemas<I extends z.ZodType, M extends z.ZodType>(
  eventId: I,
  botMessageSchema: M,
) {
  /**
   * CLIENT_INFO's contact data. The public page names the event ("the customer's contact data",
   * bot to platform) but its field table could not be read here; the data takes the spec's own
   * contact structure (6.2 `contact_info`, 4.5 setContactInfo): name, email, phone,
   * description, strings. An assumption, recorded in docs/FIDELITY.md.
   */
  const contactInfo = shape('6.2', {
    name: str('6.2').optional(),
    email: str('6.2').optional(),
    phone: str('6.2').optional(),
    description: str('6.2').optional(),
  });

  return {
    // public Bot API, platform to bot: the chat closed (the envelope of the other notices)
    CHAT_CLOSED: shape('6.1', {
      event: lit('CHAT_CLOSED', '6.1'),
      id: eventId,
      client_id: eventId,
      chat_id: eventId,
      site_id: idString('6.1').optional(),
    }),
    // public Bot API (one version of the page), platform to bot: an agent's message in a
    // chat the bot is part of, for the bot to take into account; the CLIENT_MESSAGE envelope
    AGENT_MESSAGE: shape('6.1', {
      event: lit('AGENT_MESSAGE', '6.1'),
      id: eventId,
      client_id: eventId,
      chat_id: eventId,
      message: botMessageSchema,
    }),
    // public Bot API, bot to platform: the customer's contact data, e.g. after AGENT_UNAVAILABLE
    CLIENT_INFO: shape('6.1', {
      event: lit('CLIENT_INFO', '6.1'),
      id: eventId,
      client_id: eventId,
      chat_id: eventId,
      contact_info: contactInfo,
    }),
  } as const;
}

// spec 2.5: timestamp is typed String (unix time) in the tables and a number in the samples: both.
function buildTimestamp() {
  return z
    .union(
      [
        z.number(tag('2.5', { rule: 'must be a unix time' })),
        z
          .string(tag('2.5', { rule: 'must be a unix time' }))
          .regex(
            /^\d+(\.\d+)?$/,
            tag('2.5', { code: 'invalid_type', rule: 'must be a unix time' }),
          ),
      ],
      tag('2.5', { code: 'invalid_type', rule: 'must be a unix time (number or numeric string)' }),
    )
    .check((ctx) => {
      if (Number(ctx.value) > MILLISECONDS_ABOVE) {
        ctx.issues.push({
          code: 'custom',
          message: encodeRule(
            `${WARNING_PREFIX}timestamp_ms`,
            '2.5',
            'looks like milliseconds; unix time counts seconds (accepted)',
          ),
          input: ctx.value,
          continue: true,
        });
      }
    });
}

// spec 2.5: button ids are String in the table, a number in a sample: both, no drift warning.
function buildButtonId() {
  return z.union(
    [
      z.string(tag('2.5')).min(1, tag('2.5', { code: 'empty', rule: 'must not be empty' })),
      z.number(),
    ],
    tag('2.5', { code: 'invalid_type', rule: 'must be a string or a number' }),
  );
}

/** spec 2.5: the fields every bot message has, shared by the three types. */
interface MessageParts {
  timestamp: ReturnType<typeof buildTimestamp>;
  buttonId: ReturnType<typeof buildButtonId>;
}

/** spec 2.5: the TEXT and MARKDOWN messages. */
function buildTextMessages({ timestamp, buttonId }: MessageParts) {
  const textMessage = shape('2.5', {
    type: lit('TEXT', '2.5'),
    timestamp,
    text: str('2.5', { required: 'required for a TEXT message' }),
    button_id: buttonId.optional(),
  });
  const markdownMessage = shape('2.5', {
    type: lit('MARKDOWN', '2.5'),
    timestamp,
    content: str('2.5', { required: 'required for a MARKDOWN message' }),
    // spec 2.5: the plain-text fallback; the message is not delivered without it.
    text: str('2.5', { required: 'required: the plain-text fallback of a MARKDOWN message' }),
    button_id: buttonId.optional(),
  });
  return { textMessage, markdownMessage };
}

/** spec 2.5, 8: the BUTTONS message: a fallback text and 1 to 3 buttons. */
function buildButtonsMessage({ timestamp, buttonId }: MessageParts) {
  const button = shape('2.5', {
    text: nonEmpty('2.5', { required: 'required: the text of the prepared answer' }),
    id: buttonId,
  });
  return shape('2.5', {
    type: lit('BUTTONS', '2.5'),
    timestamp,
    title: str('2.5').optional(),
    text: str('2.5', { required: 'required: the plain-text fallback of a BUTTONS message' }),
    // spec 2.5, 8: at most 3 buttons.
    buttons: z
      .array(button, tag('2.5'))
      .min(1, tag('2.5', { code: 'too_few', rule: 'needs at least 1 button' }))
      .max(MAX_BUTTONS, tag('2.5', { code: 'too_many', rule: `at most ${MAX_BUTTONS} buttons` })),
  });
}

/** spec 2.5: a message of one of the three types. */
function buildBotMessageSchema() {
  const parts: MessageParts = { timestamp: buildTimestamp(), buttonId: buildButtonId() };
  const { textMessage, markdownMessage } = buildTextMessages(parts);
  return z.discriminatedUnion(
    'type',
    [textMessage, markdownMessage, buildButtonsMessage(parts)],
    tag('2.5', { code: 'invalid_value', rule: 'must be one of "TEXT", "MARKDOWN", "BUTTONS"' }),
  );
}

/**
 * Fields of CLIENT_MESSAGE the spec leaves out and the public Bot API sample shows
 * (docs/FIDELITY.md): known here so their types are checked, all optional. The sample
 * writes sender.id as a number: drift the platform's own payload may carry (a warning).
 */
function clientMessageDocumented() {
  return {
    site_id: idString('6.1').optional(),
    agents_online: z.boolean(tag('6.1')).optional(),
    sender: shape('6.1', {
      id: idString('6.1'),
      name: str('6.1').optional(),
      url: str('6.1').optional(),
      has_contacts: z.boolean(tag('6.1')).optional(),
    }).optional(),
    channel: shape('6.1', { id: idString('6.1'), type: str('6.1') }).optional(),
  };
}

/** spec 6.1: one schema per event; BOT_MESSAGE's sample omits chat_id and client_id. */
function specBotEventSchemas<M extends z.ZodType>(
  eventId: ReturnType<typeof idString>,
  botMessageSchema: M,
) {
  /** The envelope of the notices that carry no message. */
  const notice = <const E extends string>(event: E) =>
    shape('6.1', { event: lit(event, '6.1'), id: eventId, client_id: eventId, chat_id: eventId });
  return {
    CLIENT_MESSAGE: shape('6.1', {
      event: lit('CLIENT_MESSAGE', '6.1'),
      id: eventId,
      client_id: eventId,
      chat_id: eventId,
      message: botMessageSchema,
      ...clientMessageDocumented(),
    }),
    BOT_MESSAGE: shape('6.1', {
      event: lit('BOT_MESSAGE', '6.1'),
      id: eventId,
      client_id: eventId.optional(),
      chat_id: eventId.optional(),
      message: botMessageSchema,
    }),
    INVITE_AGENT: notice('INVITE_AGENT'),
    AGENT_JOINED: notice('AGENT_JOINED'),
    AGENT_UNAVAILABLE: notice('AGENT_UNAVAILABLE'),
  } as const;
}

// spec 7.2: in an emergency the body carries error.code and a human-readable error.message.
function buildBotErrorSchema() {
  return shape('7.2', {
    error: shape('7.2', {
      code: oneOf(BOT_ERROR_CODES, '7.2'),
      message: str('7.2'),
    }),
  });
}

/** The bot schemas, built on first use. */
export const botSchemas = once(() => {
  const botMessageSchema = buildBotMessageSchema();
  const eventId = idString('2.5', { nonEmpty: true, rule: 'must be a non-empty string' });
  const botEventSchemas = {
    ...specBotEventSchemas(eventId, botMessageSchema),
    ...docsBotEventSchemas(eventId, botMessageSchema),
  } as const;
  return { botMessageSchema, botEventSchemas, botErrorSchema: buildBotErrorSchema() };
});

type BotSchemas = ReturnType<typeof botSchemas>;
export type BotMessage = z.infer<BotSchemas['botMessageSchema']>;
export type BotEvent = {
  [K in BotEventName]: z.infer<BotSchemas['botEventSchemas'][K]>;
}[BotEventName];
export type BotError = z.infer<BotSchemas['botErrorSchema']>;
