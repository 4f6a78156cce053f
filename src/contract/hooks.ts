/**
 * Interface D, the event hooks (spec 2.6, 6.2): every event body with the shared objects,
 * and each event's reply. The spec marks some fields "optional"; the others are required
 * here, except where the spec gives no rule at all (session, geoip), which stay optional.
 */
import { z } from 'zod';
import {
  httpUrl,
  idString,
  lit,
  numberLike,
  once,
  oneOf,
  pushWarning,
  shape,
  str,
  tag,
} from './rules.js';

import { HOOK_EVENTS, type HookEventName } from './hook-events.js';

// spec 6.2: the hook events (offline_messages is the field table's spelling, also accepted)
export { HOOK_EVENTS, type HookEventName };
/**
 * Events the public Webhooks page documents beyond spec 6.2 (docs/FIDELITY.md): sent by the
 * simulator under `--profile docs`; their schemas are known either way, so `validate` and a
 * hook receiver read them.
 */
export const DOCS_HOOK_EVENTS = ['client_updated', 'client_attribute_updated'] as const;
export type DocsHookEventName = (typeof DOCS_HOOK_EVENTS)[number];
/** The spec's hook events and the public docs' (the API documents list both). */
export const ALL_HOOK_EVENTS = [...HOOK_EVENTS, ...DOCS_HOOK_EVENTS] as const;
export const OFFLINE_MESSAGE_NAMES = ['offline_message', 'offline_messages'] as const;
/** spec 2.6, 3: call status and call type value sets. */
export const CALL_STATUSES = [
  'start',
  'end',
  'agent_connected',
  'client_connected',
  'error',
] as const;
export const CALL_TYPES = ['callback', 'incoming', 'outgoing'] as const;
/** spec 6.2: replies other than chat_accepted's carry ok or FAILURE. */
export const HOOK_RESULTS = ['ok', 'FAILURE'] as const;
/**
 * spec 6.2: "the visitor id set with setUserToken is included in the parameters" without a
 * field name. Assumed name (documented): `user_token`.
 */
export const USER_TOKEN_FIELD = 'user_token';

/**
 * The public Webhooks page's client events beyond spec 6.2 (DOCS_HOOK_EVENTS) and their
 * answers, on the visitor and widget id of the spec's events.
 */
function docsHookSchemas<V extends z.ZodType, W extends z.ZodType>(visitor: V, widgetId: W) {
  const anyObject = anyObject26();
  /**
   * The public Webhooks page's client events (no chat_id): client_updated carries the visitor
   * and the client id; client_attribute_updated the client id and an attributes map. The CRM
   * card objects of client_updated's sample are optional objects (the simulator has no card).
   */
  const clientId = idString('6.2', { rule: 'must be a string (the client id)' });
  const docsHookEventSchemas = {
    client_updated: shape('6.2', {
      event_name: lit('client_updated', '6.2'),
      widget_id: widgetId,
      [USER_TOKEN_FIELD]: optionalString(),
      visitor,
      organization: anyObject.optional(),
      status: anyObject.optional(),
      assigned_agent: anyObject.optional(),
      tags: z.array(anyObject, tag('6.2')).optional(),
      client_id: clientId,
    }),
    client_attribute_updated: shape('6.2', {
      event_name: lit('client_attribute_updated', '6.2'),
      widget_id: widgetId,
      [USER_TOKEN_FIELD]: optionalString(),
      client_id: clientId,
      attributes: anyObject,
    }),
  } as const;
  /** The page documents client_updated's answer as {"result":"ok"} or an error text: any object. */
  const docsHookReplySchemas = {
    client_updated: z.record(z.string(), z.unknown(), tag('6.2', { rule: 'must be an object' })),
    client_attribute_updated: z.record(
      z.string(),
      z.unknown(),
      tag('6.2', { rule: 'must be an object' }),
    ),
  } as const;
  return { docsHookEventSchemas, docsHookReplySchemas };
}

/** spec 2.6: an object whose contents the spec does not show. */
function anyObject26() {
  return z.record(z.string(), z.unknown(), tag('2.6', { rule: 'must be an object' }));
}
/** spec 2.6: an optional string field of the shared objects. */
const optionalString = () => str('2.6').optional();

/** spec 2.6: the people of an event: the visitor, an agent and a department. */
function buildPeople() {
  // spec 2.6: visitor; number is the sequential visitor number.
  const visitor = shape('2.6', {
    name: optionalString(),
    email: optionalString(),
    phone: optionalString(),
    number: idString('2.6', { rule: 'must be a string (the visitor number)' }),
    description: optionalString(),
    social: anyObject26().optional(), // spec 2.6: contents not shown
    chats_count: numberLike('2.6', { integer: true }).optional(),
  });
  // spec 2.6: agent.id is an int.
  const agent = shape('2.6', {
    id: numberLike('2.6', { integer: true }),
    name: str('2.6'),
    email: str('2.6'),
    phone: optionalString(),
  });
  const department = shape('2.6', {
    id: numberLike('2.6', { integer: true }),
    name: str('2.6'),
  });
  return { visitor, agent, department };
}

/** spec 2.6: the visitor's session: geoip, utm and the connection. */
function buildSession() {
  // spec 2.6: geoip values are all strings, latitude and longitude included.
  const geoip = shape('2.6', {
    region_code: optionalString(),
    country: optionalString(),
    country_code: optionalString(),
    region: optionalString(),
    city: optionalString(),
    latitude: idString('2.6').optional(),
    longitude: idString('2.6').optional(),
    organization: optionalString(),
  });
  const utmJson = shape('2.6', {
    source: optionalString(),
    campaign: optionalString(),
    content: optionalString(),
    medium: optionalString(),
    term: optionalString(),
  });
  return shape('2.6', {
    geoip: geoip.optional(),
    utm: optionalString(), // spec 2.6: deprecated, superseded by utm_json
    utm_json: utmJson.optional(),
    ip_addr: optionalString(),
    user_agent: optionalString(),
  });
}

// spec 2.6: reason is present when status is "error"; record_url links the mp3 recording.
function buildCall() {
  const callFields = {
    type: oneOf(CALL_TYPES, '2.6'),
    phone: str('2.6'),
    record_url: httpUrl('2.6').optional(),
  };
  return z.discriminatedUnion(
    'status',
    [
      shape('2.6', {
        ...callFields,
        status: lit('error', '2.6'),
        reason: str('2.6', { required: 'required when call status is "error"' }),
      }),
      shape('2.6', {
        ...callFields,
        status: oneOf(['start', 'end', 'agent_connected', 'client_connected'], '2.6'),
        reason: optionalString(),
      }),
    ],
    tag('2.6', {
      code: 'invalid_value',
      rule: `must be one of ${CALL_STATUSES.map((s) => `"${s}"`).join(', ')}`,
    }),
  );
}

// spec 2.6: a chat-log item; agent_id only when type is "agent"; its text is not shown by
// the spec; the public Webhooks sample carries it in `message` (docs/FIDELITY.md).
function buildChat() {
  const chatLogMessage = z.discriminatedUnion(
    'type',
    [
      shape('2.6', {
        type: lit('visitor', '2.6'),
        timestamp: numberLike('2.6'),
        blacklisted: z.boolean(tag('2.6')).optional(),
        message: optionalString(),
        text: optionalString(),
      }),
      shape('2.6', {
        type: lit('agent', '2.6'),
        timestamp: numberLike('2.6'),
        agent_id: numberLike('2.6', { integer: true }),
        blacklisted: z.boolean(tag('2.6')).optional(),
        message: optionalString(),
        text: optionalString(),
      }),
    ],
    tag('2.6', { code: 'invalid_value', rule: 'must be "visitor" or "agent"' }),
  );
  return shape('2.6', {
    messages: z.array(chatLogMessage, tag('2.6')),
    rate: z.enum(['positive', 'negative'], tag('2.6')).nullable().optional(),
    blacklisted: z.boolean(tag('2.6')).optional(),
  });
}

/** spec 6.2: one schema per hook event, over the shared objects of spec 2.6. */
function buildHookEventSchemas() {
  const { visitor, agent, department } = buildPeople();
  // spec 6.2: fields every event carries (chat_id is absent in offline_message).
  const common = {
    widget_id: idString('6.2', { rule: 'must be a string (the channel widget id)' }),
    visitor,
    session: buildSession(),
    page: shape('2.6', { url: str('2.6'), title: optionalString() }),
    analytics: anyObject26().optional(), // spec 2.6: contents not shown
    [USER_TOKEN_FIELD]: optionalString(),
  };
  const chatId = numberLike('6.2', { integer: true });
  /** The chat events' fields after the name: a chat id and the chat's department. */
  const inChat = { chat_id: chatId, department: department.optional() };
  const hookEventSchemas = {
    call_event: shape('6.2', {
      ...common,
      event_name: lit('call_event', '6.2'),
      chat_id: chatId.optional(),
      department: department.optional(),
      agent,
      call: buildCall(),
    }),
    chat_accepted: shape('6.2', {
      ...common,
      event_name: lit('chat_accepted', '6.2'),
      ...inChat,
      agent,
    }),
    chat_assigned: shape('6.2', {
      ...common,
      event_name: lit('chat_assigned', '6.2'),
      ...inChat,
      agent,
      assign_to: str('6.2', { required: 'required: the CRM link from the chat_accepted reply' }),
    }),
    chat_finished: shape('6.2', {
      ...common,
      event_name: lit('chat_finished', '6.2'),
      ...inChat,
      agents: z.array(agent, tag('6.2')),
      chat: buildChat(),
    }),
    chat_updated: shape('6.2', {
      ...common,
      event_name: lit('chat_updated', '6.2'),
      ...inChat,
      agent,
    }),
    // spec 6.2: no chat_id, no agent, no department; both spellings of the name.
    offline_message: shape('6.2', {
      ...common,
      event_name: oneOf(OFFLINE_MESSAGE_NAMES, '6.2'),
      offline_message_id: idString('6.2'),
      message: str('6.2'),
    }),
  } as const;
  return { hookEventSchemas, visitor, widgetId: common.widget_id };
}

/** spec 6.2: chat_accepted's reply: the result, and what the platform shows the agent. */
function buildChatAcceptedReply() {
  // a reply's fields are defined in 6.2 (the events' shared objects in 2.6)
  const replyString = () => str('6.2').optional();
  return shape('6.2', {
    result: str('6.2', { rule: 'must be a string ("ok" passes the data to the agent)' }),
    // "like setCustomData" (spec 6.2): its fields are content, title, link and key (spec 4.5)
    custom_data: z
      .array(
        shape('6.2', {
          title: replyString(),
          content: replyString(),
          link: httpUrl('6.2').optional(),
          key: replyString(),
        }),
        tag('6.2'),
      )
      .optional(),
    // shown to the agent as if the visitor typed it: the contact structure of setContactInfo
    // (spec 4.5), whose description the reply may carry too
    contact_info: shape('6.2', {
      name: str('6.2'),
      phone: replyString(),
      email: replyString(),
      description: replyString(),
    }).optional(),
    enable_assign: z.boolean(tag('6.2')).optional(),
    crm_link: str('6.2').optional(),
    page: shape('6.2', { url: str('6.2'), title: replyString() }).optional(),
  }).check((ctx) => {
    // spec 6.2: a result other than ok passes nothing to the agent. A receiver that sends
    // data with "OK" or "success" meant it to be shown: the reply conforms, the data is lost
    const reply = ctx.value as Record<string, unknown>;
    if (reply.result === 'ok' || typeof reply.result !== 'string') return;
    const carried = CHAT_ACCEPTED_DATA.filter((field) => reply[field] !== undefined);
    if (carried.length === 0) return;
    pushWarning(
      ctx,
      'data_not_shown',
      '6.2',
      `is ${JSON.stringify(reply.result)}, not "ok": the agent is shown none of ${carried.join(', ')}`,
      ['result'],
    );
  });
}

/** spec 6.2: what a chat_accepted reply shows the agent when its result is ok. */
const CHAT_ACCEPTED_DATA = ['custom_data', 'contact_info', 'enable_assign', 'crm_link', 'page'];

/** spec 6.2: the reply of each event; call_event's is not shown (any object). */
function buildHookReplySchemas() {
  const okOrFailure = shape('6.2', { result: oneOf(HOOK_RESULTS, '6.2') });
  return {
    call_event: z.record(z.string(), z.unknown(), tag('6.2', { rule: 'must be an object' })),
    chat_accepted: buildChatAcceptedReply(),
    chat_assigned: okOrFailure,
    chat_finished: okOrFailure,
    chat_updated: okOrFailure,
    offline_message: okOrFailure,
  } as const;
}

/** The hook schemas, built on first use. */
export const hookSchemas = once(() => {
  const { hookEventSchemas, visitor, widgetId } = buildHookEventSchemas();
  return {
    hookEventSchemas,
    hookReplySchemas: buildHookReplySchemas(),
    ...docsHookSchemas(visitor, widgetId),
  };
});

type HookSchemas = ReturnType<typeof hookSchemas>;
export type HookEvent = {
  [K in HookEventName]: z.infer<HookSchemas['hookEventSchemas'][K]>;
}[HookEventName];
export type ChatAcceptedReply = z.infer<HookSchemas['hookReplySchemas']['chat_accepted']>;
