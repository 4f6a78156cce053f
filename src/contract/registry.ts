/**
 * Every payload kind by its stable dotted name, with the schema that checks it. The list is
 * built at import; each schema when first read. `validate` looks kinds up in a Map.
 */
import type { z } from 'zod';
import { MEDIA_TYPES, channelSchemas, isPlainCustomerText } from './channel.js';
import { BOT_EVENTS, DOCS_BOT_EVENTS, botSchemas } from './bot.js';
import { DOCS_HOOK_EVENTS, HOOK_EVENTS, hookSchemas } from './hooks.js';
import {
  WIDGET_ARG_METHODS,
  WIDGET_CALLBACKS_WITH_ARGS,
  WIDGET_RESULT_METHODS,
  widgetSchemas,
} from './widget.js';
import type { KindInfo } from './types.js';
import { closestNames } from '../suggest.js';

/**
 * Who writes a payload of the kind: the `party` under test (integrator, bot
 * provider, hook receiver) is held to the spec's types; what the `platform` (or its page
 * script) writes tolerates the drift its public samples show, as warnings.
 */
export type Producer = 'party' | 'platform';

export interface KindEntry extends KindInfo {
  schema: z.ZodType;
  producer: Producer;
  /**
   * True only for a value the schema passes with no issue at all (no error, no warning): the
   * common shape of a hot kind, checked without zod. Any other value goes to the schema.
   */
  accepts?: (value: unknown) => boolean;
}

/** The producer from the direction's left side: `integrator -> platform` is the party's. */
export function producerOf(direction: string): Producer {
  const from = direction.split('->')[0]?.trim() ?? '';
  return ['integrator', 'bot', 'hook receiver'].includes(from) ? 'party' : 'platform';
}

const entries: KindEntry[] = [];
/**
 * Registers a kind; its schema is built when first read (a one-file `validate`
 * builds the schema it needs, not all of them).
 */
const add = (
  info: KindInfo,
  build: () => z.ZodType,
  accepts?: (value: unknown) => boolean,
): void => {
  const entry = {
    ...info,
    producer: producerOf(info.direction),
    ...(accepts ? { accepts } : {}),
  } as KindEntry;
  let schema: z.ZodType | undefined;
  Object.defineProperty(entry, 'schema', {
    enumerable: true,
    get: () => (schema ??= build()),
  });
  entries.push(entry);
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
  () => channelSchemas().customerTextSchema(),
  isPlainCustomerText,
);
add(
  {
    name: 'channel.customer.typing',
    interface: A,
    spec: '2.3',
    direction: 'integrator -> platform',
    description: 'customer typing notice (typein/typeout)',
  },
  () => channelSchemas().customerTypingSchema(),
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
    () => channelSchemas().customerMedia(media),
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
  () => channelSchemas().agentTextSchema(),
);
add(
  {
    name: 'channel.agent.typing',
    interface: A,
    spec: '2.3',
    direction: 'platform -> integrator',
    description: 'agent typing notice (typein/typeout)',
  },
  () => channelSchemas().agentTypingSchema(),
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
    () => channelSchemas().agentMedia(media),
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
  () => channelSchemas().integratorReplySchema(),
);
add(
  {
    name: 'channel.status',
    interface: A,
    spec: '4.1',
    direction: 'platform -> integrator',
    description: 'channel status body: 0 unavailable, 1 available',
  },
  () => channelSchemas().channelStatusSchema(),
);

const botDirection = {
  CLIENT_MESSAGE: 'platform -> bot',
  BOT_MESSAGE: 'bot -> platform',
  INVITE_AGENT: 'bot -> platform',
  AGENT_JOINED: 'platform -> bot',
  AGENT_UNAVAILABLE: 'platform -> bot',
  CHAT_CLOSED: 'platform -> bot',
  CLIENT_INFO: 'bot -> platform',
  AGENT_MESSAGE: 'platform -> bot',
} as const;
const botDescription = {
  CLIENT_MESSAGE: 'new customer message needing an answer',
  BOT_MESSAGE: "the bot's answer, delivered to the customer",
  INVITE_AGENT: 'hand the chat to an agent',
  AGENT_JOINED: 'an agent joined the conversation',
  AGENT_UNAVAILABLE: 'no agent is available',
  CHAT_CLOSED: 'the chat closed (public docs; platform --bot-events docs)',
  CLIENT_INFO: "the customer's contact data (public docs; platform --bot-events docs)",
  AGENT_MESSAGE: "an agent's message in the bot's chat (public docs; platform --bot-events docs)",
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
    () => botSchemas().botEventSchemas[event],
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
  () => botSchemas().botErrorSchema,
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
    () => hookSchemas().hookEventSchemas[event],
  );
  add(
    {
      name: `hook.${event}.reply`,
      interface: 'D',
      spec: '6.2',
      direction: 'hook receiver -> platform',
      description: `reply to ${event}`,
    },
    () => hookSchemas().hookReplySchemas[event],
  );
}

for (const event of DOCS_HOOK_EVENTS) {
  add(
    {
      name: `hook.${event}`,
      interface: 'D',
      spec: '6.2',
      direction: 'platform -> hook receiver',
      description: `${event} event (public docs; platform --profile docs)`,
    },
    () => hookSchemas().docsHookEventSchemas[event],
  );
  add(
    {
      name: `hook.${event}.reply`,
      interface: 'D',
      spec: '6.2',
      direction: 'hook receiver -> platform',
      description: `reply to ${event} (public docs)`,
    },
    () => hookSchemas().docsHookReplySchemas[event],
  );
}

for (const method of WIDGET_ARG_METHODS) {
  add(
    {
      name: `widget.${method}.args`,
      interface: 'C',
      spec: '4.5',
      direction: 'page -> widget',
      description: `svc_api.${method} arguments`,
    },
    () => widgetSchemas().widgetArgsSchemas[method],
  );
}
for (const method of WIDGET_RESULT_METHODS) {
  add(
    {
      name: `widget.${method}.result`,
      interface: 'C',
      spec: '4.5',
      direction: 'widget -> page',
      description: `svc_api.${method} result`,
    },
    () => widgetSchemas().widgetResultSchemas[method],
  );
}
for (const callback of WIDGET_CALLBACKS_WITH_ARGS) {
  add(
    {
      name: `widget.callback.${callback}.args`,
      interface: 'C',
      spec: '6.4',
      direction: 'widget -> page',
      description: `${callback} arguments`,
    },
    () => widgetSchemas().widgetCallbackSchemas[callback],
  );
}

/** Kinds by name, in listing order. */
export const KINDS: ReadonlyMap<string, KindEntry> = new Map(entries.map((e) => [e.name, e]));

/**
 * The kinds `name` most likely means, for the unknown-kind hint: those whose name holds it
 * (`chat_finished`, `CLIENT_MESSAGE`, `text`), shortest first, else the closest by spelling
 * within a quarter of its length (at least 2 edits). Empty when none is close: `bogus` got
 * "bot.error", "channel.status", which only misled.
 * @example suggestKinds('chat_finished') // ['hook.chat_finished', 'hook.chat_finished.reply']
 */
export function suggestKinds(name: string, limit = 3): string[] {
  const typed = name.trim().toLowerCase();
  if (typed.length >= 3) {
    const holding = [...KINDS.keys()]
      .filter((kind) => kind.toLowerCase().includes(typed))
      .sort((a, b) => a.length - b.length);
    if (holding.length > 0) return holding.slice(0, limit);
  }
  const maxDistance = Math.max(2, Math.floor(typed.length / 4));
  return closestNames(typed, KINDS.keys(), { limit, maxDistance });
}
