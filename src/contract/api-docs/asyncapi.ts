/**
 * The AsyncAPI 3.0 document of the event flows, from the platform's point of view (`send`:
 * the platform sends, `receive`: it receives): customer messages, agent messages with their
 * redelivery, bot events both ways, hook events with their replies. It shares the schema
 * components (and the fixture examples) with the OpenAPI document.
 */
import { buildComponentSchemas, refTo } from './components.js';
import { collectExamples, type PayloadExample } from './examples.js';
import { API_OPERATIONS, PATH_PARAMETERS, type ApiOperation } from './operations.js';
import { INTERFACE_TAGS, ROLE_TAG_DESCRIPTIONS } from './openapi.js';
import { readPackageVersion } from '../../package-files.js';
import { ALL_HOOK_EVENTS } from '../hooks.js';
import { BOT_DELIVERY_POLICY, CHANNEL_DELIVERY_POLICY } from '../timing.js';
import { API_ROLES } from './operations.js';

type Json = Record<string, unknown>;

export interface BuildAsyncApiOptions {
  payloadsDir?: string;
}

const opById = (id: string): ApiOperation => {
  const op = API_OPERATIONS.find((o) => o.id === id);
  if (!op) throw new Error(`no operation ${id}`);
  return op;
};

interface ChannelPlan {
  /** channel key */
  key: string;
  /** the operation of the table it carries */
  from: ApiOperation;
  server: 'platform' | 'integrator' | 'botProvider' | 'hookReceiver';
  /** messages the channel carries besides the requests (replies) */
  replyKinds: readonly string[];
}

const CHANNELS: ChannelPlan[] = [
  {
    key: 'customerMessages',
    from: opById('postCustomerMessage'),
    server: 'platform',
    replyKinds: [],
  },
  {
    key: 'agentMessages',
    from: opById('postAgentMessage'),
    server: 'integrator',
    replyKinds: ['channel.integrator.reply'],
  },
  {
    key: 'botEventsToPlatform',
    from: opById('postBotEvent'),
    server: 'platform',
    replyKinds: ['svc.regular-answer', 'bot.error'],
  },
  {
    key: 'botEventsToPlatformAuthorized',
    from: opById('postBotEventAuthorized'),
    server: 'platform',
    replyKinds: ['svc.regular-answer', 'bot.error'],
  },
  {
    key: 'botEventsToProvider',
    from: opById('postProviderEvent'),
    server: 'botProvider',
    replyKinds: [],
  },
  {
    key: 'hookEvents',
    from: {
      ...opById('hook.chat_accepted'),
      id: 'hookEvents',
      summary: 'Hook events',
      description: 'The hook URL set in the admin panel receives every event (spec 4.4, 6.2).',
      requestKinds: ALL_HOOK_EVENTS.map((e) => `hook.${e}`),
    },
    server: 'hookReceiver',
    replyKinds: ALL_HOOK_EVENTS.map((e) => `hook.${e}.reply`),
  },
];

const SERVERS: Json = {
  platform: {
    host: '127.0.0.1:8080',
    protocol: 'http',
    description:
      'the platform: channel host {base_url} and bot host {bot_service_url} (svc-cli platform prints its URL; replace the host)',
  },
  integrator: {
    host: '127.0.0.1:8081',
    protocol: 'http',
    description: "the integrator's HTTPS endpoint {integrator_url} (svc-cli listen simulates it)",
  },
  botProvider: {
    host: '127.0.0.1:8082',
    protocol: 'http',
    description: "the bot provider's endpoint {bot_provider_url} (svc-cli bot-sim simulates it)",
  },
  hookReceiver: {
    host: '127.0.0.1:8083',
    protocol: 'http',
    description: 'the hook URL set in the admin panel (svc-cli hook-target simulates it)',
  },
};

const messageRef = (channel: string, kind: string): Json => ({
  $ref: `#/channels/${channel}/messages/${kind}`,
});

function messageOf(
  kind: string,
  examples: PayloadExample[] | undefined,
  description: string,
): Json {
  const message: Json = {
    name: kind,
    title: kind,
    contentType: 'application/json',
    payload: refTo(kind),
    description,
  };
  if (examples && examples.length > 0) {
    message.examples = examples.map((e) => ({
      name: e.name,
      summary: `fixtures/payloads/${e.file}`,
      payload: e.value,
    }));
  }
  return message;
}

const HTTP_POST = { http: { method: 'POST', bindingVersion: '0.3.0' } };

function specNote(spec: readonly string[]): string {
  return `Spec: ${spec.map((s) => `section ${s}`).join(', ')} of the integration interfaces.`;
}

/** The channels of the document and the messages they carry, each message once. */
function buildChannels(
  examples: ReturnType<typeof collectExamples>,
  schemas: ReturnType<typeof buildComponentSchemas>,
): { channels: Json; messages: Json } {
  const messages: Json = {};
  const channels: Json = {};
  for (const plan of CHANNELS) {
    const kinds = [...(plan.from.requestKinds ?? []), ...plan.replyKinds];
    for (const kind of kinds) {
      const description =
        (schemas[kind]?.description as string | undefined) ?? `${kind} (${plan.from.summary})`;
      messages[kind] ??= messageOf(kind, examples.get(kind), description);
    }
    const params = [...plan.from.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const channel: Json = {
      address: plan.from.path,
      title: plan.from.summary,
      description: `${plan.from.description}\n\n${specNote(plan.from.spec)}`,
      servers: [{ $ref: `#/servers/${plan.server}` }],
      messages: Object.fromEntries(kinds.map((k) => [k, { $ref: `#/components/messages/${k}` }])),
      tags: [{ name: INTERFACE_TAGS[plan.from.iface].name }],
    };
    if (params.length > 0) {
      channel.parameters = Object.fromEntries(
        params.map((p) => [p, { description: PATH_PARAMETERS[p] ?? p }]),
      );
    }
    channels[plan.key] = channel;
  }
  return { channels, messages };
}

/** One operation of the document: what the platform sends or receives on a channel. */
function operation(
  action: 'send' | 'receive',
  channel: string,
  op: ApiOperation,
  kinds: readonly string[],
  replyKinds: readonly string[],
  extra: Json = {},
): Json {
  return {
    action,
    channel: { $ref: `#/channels/${channel}` },
    title: op.summary,
    summary: `${action === 'send' ? 'The platform sends' : 'The platform receives'}: ${op.summary}`,
    description: `${op.description}\n\n${specNote(op.spec)}`,
    messages: kinds.map((k) => messageRef(channel, k)),
    ...(replyKinds.length > 0
      ? {
          reply: {
            channel: { $ref: `#/channels/${channel}` },
            messages: replyKinds.map((k) => messageRef(channel, k)),
          },
        }
      : {}),
    bindings: HTTP_POST,
    tags: [
      { name: INTERFACE_TAGS[op.iface].name },
      { name: op.role, description: ROLE_TAG_DESCRIPTIONS[op.role] },
    ],
    ...extra,
  };
}

/**
 * The AsyncAPI 3.0 document.
 * @example JSON.stringify(buildAsyncApi())
 */
export function buildAsyncApi(options: BuildAsyncApiOptions = {}): Json {
  const schemas = buildComponentSchemas();
  const { channels, messages } = buildChannels(collectExamples(options.payloadsDir), schemas);
  const customer = opById('postCustomerMessage');
  const agent = opById('postAgentMessage');
  const botIn = opById('postBotEvent');
  const botInAuth = opById('postBotEventAuthorized');
  const botOut = opById('postProviderEvent');
  const operations: Json = {
    receiveCustomerMessage: operation(
      'receive',
      'customerMessages',
      customer,
      customer.requestKinds ?? [],
      [],
    ),
    sendAgentMessage: operation(
      'send',
      'agentMessages',
      agent,
      agent.requestKinds ?? [],
      ['channel.integrator.reply'],
      {
        // spec 8: the redelivery policy, as a note beside the HTTP binding (the binding
        // itself has no field for it)
        'x-svc-redelivery': {
          attempts: CHANNEL_DELIVERY_POLICY.attempts,
          intervalSeconds: CHANNEL_DELIVERY_POLICY.intervalMs / 1000,
          until: 'a valid reply',
          unreachableErrorAfterSeconds: CHANNEL_DELIVERY_POLICY.failAfterMs / 1000,
          spec: '8',
        },
      },
    ),
    receiveBotEvent: operation('receive', 'botEventsToPlatform', botIn, botIn.requestKinds ?? [], [
      'svc.regular-answer',
      'bot.error',
    ]),
    receiveBotEventAuthorized: operation(
      'receive',
      'botEventsToPlatformAuthorized',
      botInAuth,
      botInAuth.requestKinds ?? [],
      ['svc.regular-answer', 'bot.error'],
      { security: [{ $ref: '#/components/securitySchemes/bearerAuth' }] },
    ),
    sendBotEvent: operation('send', 'botEventsToProvider', botOut, botOut.requestKinds ?? [], [], {
      'x-svc-timeout': {
        attemptSeconds: BOT_DELIVERY_POLICY.attemptTimeoutMs / 1000,
        attempts: BOT_DELIVERY_POLICY.attempts,
        then: 'the customer goes to an agent',
        spec: '8',
      },
    }),
  };
  for (const event of ALL_HOOK_EVENTS) {
    const op = opById(`hook.${event}`);
    operations[`sendHook.${event}`] = operation(
      'send',
      'hookEvents',
      op,
      [`hook.${event}`],
      [`hook.${event}.reply`],
      { 'x-svc-redelivery': { note: 'redelivery of hook events: not shown (spec 6.2, 8)' } },
    );
  }

  return {
    asyncapi: '3.0.0',
    id: 'urn:svc-cli:integration-interfaces',
    info: {
      title: 'svc platform integration interfaces: event flows (A, B, D)',
      version: readPackageVersion(),
      description:
        'The event flows of the customer-conversation platform, from the platform side: ' +
        'customer and agent messages (A), bot events both ways (B), hook events with replies ' +
        '(D). Every flow is an HTTP POST with a JSON body. Generated by svc-cli from its zod ' +
        'schemas; the HTTP details (statuses, parameters) are in its OpenAPI document.',
      license: { name: 'MIT' },
      tags: [
        ...(['A', 'B', 'D'] as const).map((i) => INTERFACE_TAGS[i]),
        ...API_ROLES.map((r) => ({ name: r, description: ROLE_TAG_DESCRIPTIONS[r] })),
      ],
    },
    defaultContentType: 'application/json',
    servers: SERVERS,
    channels,
    operations,
    components: {
      schemas,
      messages,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description:
            'spec 5.3: the temporary access token in the Authorization header (assumed OAuth2 ' +
            'client credentials at POST /oauth/token).',
        },
      },
    },
  };
}
