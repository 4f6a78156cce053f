/**
 * Every HTTP endpoint of the four interfaces as data (routes as data):
 * who serves it, the interface, the spec section, the request kinds and the responses.
 * Both documents are rendered from this table.
 */
import { BOT_HTTP_STATUSES } from '../bot.js';
import { ALL_HOOK_EVENTS, type DocsHookEventName, type HookEventName } from '../hooks.js';
import { MEDIA_TYPES } from '../channel.js';

/** The party that serves an endpoint. */
export const API_ROLES = ['platform', 'integrator', 'bot-provider', 'hook-receiver'] as const;
export type ApiRole = (typeof API_ROLES)[number];
export type ApiInterface = 'A' | 'B' | 'D';

export interface ApiResponse {
  description: string;
  /** body: payload kinds (anyOf) or a component name */
  kinds?: readonly string[];
  /** a header the response carries */
  headers?: Record<string, string>;
}

export interface ApiOperation {
  /** operationId; also the webhook name when rendered as a webhook */
  id: string;
  role: ApiRole;
  iface: ApiInterface;
  /** spec sections, cited in the description */
  spec: readonly string[];
  method: 'get' | 'post';
  /** path on the serving party's base URL; `{name}` segments are path parameters */
  path: string;
  summary: string;
  description: string;
  /** request body kinds (anyOf); none for GET */
  requestKinds?: readonly string[];
  /** the request body is form-encoded (5.3 token exchange) */
  form?: boolean;
  responses: Record<string, ApiResponse>;
  /** spec 5.3: the Authorization header is required / optional */
  authorization?: 'required' | 'optional';
  /** a hook operation: rendered as one webhook per event */
  hookEvent?: HookEventName | DocsHookEventName;
}

const customerKinds = [
  'channel.customer.text',
  'channel.customer.typing',
  ...MEDIA_TYPES.map((m) => `channel.customer.${m}`),
];
const agentKinds = [
  'channel.agent.text',
  'channel.agent.typing',
  ...MEDIA_TYPES.map((m) => `channel.agent.${m}`),
];

/** spec 7.2: the meaning of each status of the platform's bot endpoints. */
export const BOT_STATUS_MEANINGS: Record<(typeof BOT_HTTP_STATUSES)[number], string> = {
  200: 'OK: regular answer',
  400: 'Bad Request: invalid request format; fields must match the API format (error code invalid_request)',
  401: 'Unauthorized: authorization error (invalid_client: the token in the path failed; unauthorized_client: the Authorization header failed)',
  403: 'Forbidden: access denied',
  404: 'Not Found: endpoint malformed',
  405: 'Method Not Allowed: method or event not supported',
  429: 'Too Many Requests: request limit exceeded (limit values not shown in the spec)',
  500: 'Internal Server Error: processing error',
  502: 'Bad Gateway: server overloaded',
  503: 'Service Unavailable: server unavailable',
  504: 'Gateway Timeout: request could not be executed',
};

function botStatuses(): Record<string, ApiResponse> {
  const out: Record<string, ApiResponse> = {};
  for (const status of BOT_HTTP_STATUSES) {
    const description = `${BOT_STATUS_MEANINGS[status]} (spec 7.2)`;
    if (status === 200) out[status] = { description, kinds: ['svc.regular-answer'] };
    // spec 7.2: the three error codes go with 400 and 401; other statuses carry the body too
    else if (status === 400 || status === 401) out[status] = { description, kinds: ['bot.error'] };
    else if (status === 429)
      out[status] = {
        description,
        kinds: ['svc.error-body'],
        headers: { 'Retry-After': 'seconds to wait (the simulator sends it)' },
      };
    else out[status] = { description, kinds: ['svc.error-body'] };
  }
  return out;
}

const notFound: ApiResponse = {
  description:
    'no channel at this URL: unknown public id, or a wrong random string (spec 4.1, 7.1)',
  kinds: ['svc.error-body'],
};

const hookOperations: ApiOperation[] = ALL_HOOK_EVENTS.map((event) => ({
  id: `hook.${event}`,
  role: 'hook-receiver',
  iface: 'D',
  spec: ['4.4', '6.2'],
  method: 'post',
  path: '/',
  summary: `Hook event ${event}`,
  description:
    `The platform POSTs the ${event} event to the URL set in the admin panel (spec 4.4); ` +
    `fields and reply per spec 6.2, shared objects per 2.6.` +
    (event === 'offline_message'
      ? ' The field table names it offline_messages, the sample offline_message: both are accepted.'
      : event === 'client_updated' || event === 'client_attribute_updated'
        ? " Not in the spec: the public Webhooks page's event, sent by the simulator under --profile docs."
        : ''),
  requestKinds: [`hook.${event}`],
  responses: {
    200: {
      description:
        event === 'call_event'
          ? 'reply: not shown in the spec (any JSON object) (spec 6.2)'
          : `reply to ${event} (spec 6.2)`,
      kinds: [`hook.${event}.reply`],
    },
  },
  hookEvent: event,
}));

/** Every endpoint of interfaces A, B and D (C is a page script: no HTTP). */
export const API_OPERATIONS: readonly ApiOperation[] = [
  {
    id: 'getChannelStatus',
    role: 'platform',
    iface: 'A',
    spec: ['4.1', '3'],
    method: 'get',
    path: '/{random_string}/{channel_public_id}/status',
    summary: 'Channel status',
    description: 'Whether agents are online: body 0 (unavailable) or 1 (available) (spec 3, 4.1).',
    responses: {
      200: { description: '0 unavailable, 1 available (spec 3, 4.1)', kinds: ['channel.status'] },
      404: notFound,
    },
  },
  {
    id: 'postCustomerMessage',
    role: 'platform',
    iface: 'A',
    spec: ['4.1', '2.1', '2.3', '2.4'],
    method: 'post',
    path: '/{random_string}/{channel_public_id}',
    summary: 'Send a customer message to the channel',
    description:
      'A customer text (2.1), typing notice (2.3) or media message (2.4). An empty sender.id is ' +
      'not sent; text over 1000 characters is cut (spec 7.1, 8). A status other than 200 means ' +
      'the integrator should contact the platform support (spec 4.1).',
    requestKinds: customerKinds,
    responses: {
      200: { description: 'accepted (spec 4.1)' },
      404: notFound,
      default: {
        description:
          'any other status: contact the platform support (spec 4.1); the simulator answers 400 invalid_request for a payload that breaks the contract',
        kinds: ['svc.error-body'],
      },
    },
  },
  ...(['webhooks', 'providers'] as const).map((base): ApiOperation => ({
    id: base === 'webhooks' ? 'postBotEvent' : 'postBotEventAuthorized',
    role: 'platform',
    iface: 'B',
    spec: ['4.3', '5.2', '6.1', '7.2', ...(base === 'providers' ? ['5.3'] : [])],
    method: 'post',
    path: `/${base}/{provider_id}/{token}`,
    summary:
      base === 'webhooks'
        ? 'Provider sends a bot event to the platform'
        : 'Provider sends a bot event to the platform, with the Authorization header',
    description:
      'BOT_MESSAGE or INVITE_AGENT (spec 6.1); CLIENT_INFO of the public Bot API with the ' +
      "simulator's --bot-events docs. The token generated by the provider is the last " +
      'path segment (spec 5.2).' +
      (base === 'providers'
        ? ' This path also needs the Authorization header with the temporary token of the 5.3 exchange.'
        : '') +
      ' Timeout 3 s per attempt, 2 attempts (spec 8).',
    requestKinds: ['bot.event.BOT_MESSAGE', 'bot.event.INVITE_AGENT', 'bot.event.CLIENT_INFO'],
    responses: botStatuses(),
    ...(base === 'providers' ? { authorization: 'required' as const } : {}),
  })),
  {
    id: 'postPlatformToken',
    role: 'platform',
    iface: 'B',
    spec: ['5.3'],
    method: 'post',
    path: '/oauth/token',
    summary: 'Token exchange (assumption)',
    description:
      'spec 5.3: a temporary access token in exchange for a secret key and a client_id. The spec ' +
      'shows no request shape or lifetime; assumed here (and by the simulator): an OAuth2 ' +
      'client-credentials request on the bot host.',
    requestKinds: ['svc.token-request'],
    form: true,
    responses: {
      200: {
        description: 'the temporary token (spec 5.3, assumed shape)',
        kinds: ['svc.token-response'],
      },
      400: { description: 'invalid_request (spec 7.2)', kinds: ['bot.error'] },
      401: { description: 'invalid_client (spec 7.2)', kinds: ['bot.error'] },
    },
  },
  {
    id: 'postAgentMessage',
    role: 'integrator',
    iface: 'A',
    spec: ['4.2', '2.2', '2.3', '2.4', '8'],
    method: 'post',
    path: '/{channel_public_id}',
    summary: 'Agent message to the integrator',
    description:
      'The platform POSTs an agent text (2.2), typing notice (2.3) or media message (2.4) to ' +
      '{integrator_url}/<channel_public_id>, with a Content-Length body or chunked transfer ' +
      'encoding (spec 4.2). Redelivery: 3 attempts, 3 seconds apart, until a valid reply ' +
      '(spec 8). An error reply is shown to the agent (spec 4.2, 7.1). Authentication: not ' +
      'shown (spec 5.4).',
    requestKinds: agentKinds,
    responses: {
      200: {
        description: '{result:"ok"} or {error:{code,message}} (spec 2.2, 4.2)',
        kinds: ['channel.integrator.reply'],
      },
    },
  },
  {
    id: 'postProviderEvent',
    role: 'bot-provider',
    iface: 'B',
    spec: ['4.3', '5.2', '6.1', '8'],
    method: 'post',
    path: '/{token}',
    summary: 'Bot event to the provider',
    description:
      'The platform POSTs CLIENT_MESSAGE, AGENT_JOINED or AGENT_UNAVAILABLE to ' +
      '{bot_provider_url}/<token> (spec 4.3); CHAT_CLOSED and AGENT_MESSAGE of the public Bot API with the ' +
      "simulator's --bot-events docs. With the 5.3 exchange configured it carries the " +
      'Authorization header. No regular answer within 3 s, twice: the customer goes to an agent ' +
      '(spec 3, 8).',
    requestKinds: [
      'bot.event.CLIENT_MESSAGE',
      'bot.event.AGENT_JOINED',
      'bot.event.AGENT_UNAVAILABLE',
      'bot.event.CHAT_CLOSED',
      'bot.event.AGENT_MESSAGE',
    ],
    responses: { 200: { description: 'regular answer (spec 4.3, 7.2); body not shown' } },
    authorization: 'optional',
  },
  {
    id: 'postProviderToken',
    role: 'bot-provider',
    iface: 'B',
    spec: ['5.3'],
    method: 'post',
    path: '/oauth/token',
    summary: "Provider's token exchange (assumption)",
    description:
      "spec 5.3: the platform obtains a temporary token from the provider's token URL (free to " +
      'choose; bot-sim serves /oauth/token). Shape assumed: OAuth2 client credentials.',
    requestKinds: ['svc.token-request'],
    form: true,
    responses: {
      200: {
        description: 'the temporary token (spec 5.3, assumed shape)',
        kinds: ['svc.token-response'],
      },
      401: { description: 'invalid_client (spec 7.2)', kinds: ['bot.error'] },
    },
  },
  ...hookOperations,
];

/** The path parameters, described once. */
export const PATH_PARAMETERS: Record<string, string> = {
  random_string:
    'random path segment of the channel URL; protects against brute force (spec 1.3, 5.1)',
  channel_public_id: 'public id of the channel (spec 1.3, 4.1)',
  provider_id: 'id issued per provider (spec 1.4, 4.3)',
  token: 'token generated by the bot provider, the last path segment (spec 5.2)',
};

/** The base URL placeholder of the party serving an operation (spec introduction). */
export function serverVariable(op: ApiOperation): string {
  switch (op.role) {
    case 'platform':
      return op.iface === 'A' ? 'base_url' : 'bot_service_url';
    case 'integrator':
      return 'integrator_url';
    case 'bot-provider':
      return 'bot_provider_url';
    case 'hook-receiver':
      return 'hook_url';
    default:
      throw new Error(`unknown role ${String(op.role)}`);
  }
}

export const SERVER_DESCRIPTIONS: Record<string, string> = {
  base_url: "the platform's channel host; `svc-cli platform` prints it",
  bot_service_url: "the platform's bot host; `svc-cli platform` serves it on the same port",
  integrator_url: "the integrator's HTTPS endpoint for agent messages",
  bot_provider_url: "the bot provider's endpoint",
  hook_url: 'the hook URL set in the admin panel (HTTP or HTTPS)',
};
