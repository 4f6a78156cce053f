/**
 * Every payload kind by its stable dotted name, with the schema that checks it. Built once
 * at import; `validate` looks kinds up in a Map.
 */
import type { z } from 'zod';
import {
  MEDIA_TYPES,
  agentMediaSchemas,
  agentTextSchema,
  agentTypingSchema,
  channelStatusSchema,
  customerMediaSchemas,
  customerTextSchema,
  customerTypingSchema,
  integratorReplySchema,
} from './channel.js';
import { BOT_EVENTS, DOCS_BOT_EVENTS, botErrorSchema, botEventSchemas } from './bot.js';
import { HOOK_EVENTS, hookEventSchemas, hookReplySchemas } from './hooks.js';
import { widgetArgsSchemas, widgetCallbackSchemas, widgetResultSchemas } from './widget.js';
import type { KindInfo } from './types.js';
import { closestNames } from '../suggest.js';

/**
 * Who writes a payload of the kind (issue 15): the `party` under test (integrator, bot
 * provider, hook receiver) is held to the spec's types; what the `platform` (or its page
 * script) writes tolerates the drift its public samples show, as warnings.
 */
export type Producer = 'party' | 'platform';

export interface KindEntry extends KindInfo {
  schema: z.ZodType;
  producer: Producer;
}

/** The producer from the direction's left side: `integrator -> platform` is the party's. */
export function producerOf(direction: string): Producer {
  const from = direction.split('->')[0]?.trim() ?? '';
  return ['integrator', 'bot', 'hook receiver'].includes(from) ? 'party' : 'platform';
}

const entries: KindEntry[] = [];
const add = (info: KindInfo, schema: z.ZodType): void => {
  entries.push({ ...info, schema, producer: producerOf(info.direction) });
};

const A = 'A' as const;
add(
  {
    name: 'channel.customer.text',
    interface: A,
    spec: '2.1',
    direction: 'integrator -> platform',
    description: 'customer text message',
  },
  customerTextSchema,
);
add(
  {
    name: 'channel.customer.typing',
    interface: A,
    spec: '2.3',
    direction: 'integrator -> platform',
    description: 'customer typing notice (typein/typeout)',
  },
  customerTypingSchema,
);
for (const media of MEDIA_TYPES) {
  add(
    {
      name: `channel.customer.${media}`,
      interface: A,
      spec: '2.4',
      direction: 'integrator -> platform',
      description: `customer ${media} message`,
    },
    customerMediaSchemas[media],
  );
}
add(
  {
    name: 'channel.agent.text',
    interface: A,
    spec: '2.2',
    direction: 'platform -> integrator',
    description: 'agent text message',
  },
  agentTextSchema,
);
add(
  {
    name: 'channel.agent.typing',
    interface: A,
    spec: '2.3',
    direction: 'platform -> integrator',
    description: 'agent typing notice (typein/typeout)',
  },
  agentTypingSchema,
);
for (const media of MEDIA_TYPES) {
  add(
    {
      name: `channel.agent.${media}`,
      interface: A,
      spec: '2.4',
      direction: 'platform -> integrator',
      description: `agent ${media} message`,
    },
    agentMediaSchemas[media],
  );
}
add(
  {
    name: 'channel.integrator.reply',
    interface: A,
    spec: '2.2',
    direction: 'integrator -> platform',
    description: 'reply to an agent message: {result:"ok"} or {error:{code,message}}',
  },
  integratorReplySchema,
);
add(
  {
    name: 'channel.status',
    interface: A,
    spec: '4.1',
    direction: 'platform -> integrator',
    description: 'channel status body: 0 unavailable, 1 available',
  },
  channelStatusSchema,
);

const botDirection = {
  CLIENT_MESSAGE: 'platform -> bot',
  BOT_MESSAGE: 'bot -> platform',
  INVITE_AGENT: 'bot -> platform',
  AGENT_JOINED: 'platform -> bot',
  AGENT_UNAVAILABLE: 'platform -> bot',
  CHAT_CLOSED: 'platform -> bot',
  CLIENT_INFO: 'bot -> platform',
} as const;
const botDescription = {
  CLIENT_MESSAGE: 'new customer message needing an answer',
  BOT_MESSAGE: "the bot's answer, delivered to the customer",
  INVITE_AGENT: 'hand the chat to an agent',
  AGENT_JOINED: 'an agent joined the conversation',
  AGENT_UNAVAILABLE: 'no agent is available',
  CHAT_CLOSED: 'the chat closed (public docs; platform --bot-events docs)',
  CLIENT_INFO: "the customer's contact data (public docs; platform --bot-events docs)",
} as const;
for (const event of [...BOT_EVENTS, ...DOCS_BOT_EVENTS]) {
  add(
    {
      name: `bot.event.${event}`,
      interface: 'B',
      spec: '6.1',
      direction: botDirection[event],
      description: botDescription[event],
    },
    botEventSchemas[event],
  );
}
add(
  {
    name: 'bot.error',
    interface: 'B',
    spec: '7.2',
    direction: 'platform -> bot',
    description: 'error body {error:{code,message}}',
  },
  botErrorSchema,
);

for (const event of HOOK_EVENTS) {
  add(
    {
      name: `hook.${event}`,
      interface: 'D',
      spec: '6.2',
      direction: 'platform -> hook receiver',
      description: `${event} event`,
    },
    hookEventSchemas[event],
  );
  add(
    {
      name: `hook.${event}.reply`,
      interface: 'D',
      spec: '6.2',
      direction: 'hook receiver -> platform',
      description: `reply to ${event}`,
    },
    hookReplySchemas[event],
  );
}

for (const [method, schema] of Object.entries(widgetArgsSchemas)) {
  add(
    {
      name: `widget.${method}.args`,
      interface: 'C',
      spec: '4.5',
      direction: 'page -> widget',
      description: `svc_api.${method} arguments`,
    },
    schema,
  );
}
for (const [method, schema] of Object.entries(widgetResultSchemas)) {
  add(
    {
      name: `widget.${method}.result`,
      interface: 'C',
      spec: '4.5',
      direction: 'widget -> page',
      description: `svc_api.${method} result`,
    },
    schema,
  );
}
for (const [callback, schema] of Object.entries(widgetCallbackSchemas)) {
  add(
    {
      name: `widget.callback.${callback}.args`,
      interface: 'C',
      spec: '6.4',
      direction: 'widget -> page',
      description: `${callback} arguments`,
    },
    schema,
  );
}

/** Kinds by name, in listing order. */
export const KINDS: ReadonlyMap<string, KindEntry> = new Map(entries.map((e) => [e.name, e]));

/** Names closest to `name` (edit distance), for the unknown-kind hint. */
export function suggestKinds(name: string, limit = 3): string[] {
  return closestNames(name, KINDS.keys(), { limit });
}
