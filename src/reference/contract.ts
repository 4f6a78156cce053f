import { MUTANTS } from '../platform/mutants.js';
import { ALL_INVARIANTS } from '../trace/invariants.js';
/**
 * The sections of the contract reference, numbered as svc-cli's messages cite them ("spec 2.5",
 * "spec 8"). The prose is short and says what the code does; every list of kinds, fields,
 * endpoints, statuses, methods and timings is read from the code that enforces it.
 */
import {
  API_OPERATIONS,
  BOT_STATUS_MEANINGS,
  serverVariable,
} from '../contract/api-docs/operations.js';
import type { ApiOperation } from '../contract/api-docs/operations.js';
import { BOT_ERROR_CODES, BOT_HTTP_STATUSES, BOT_MESSAGE_TYPES } from '../contract/bot.js';
import { CHANNEL_STATUSES, MEDIA_TYPES, TYPING_TYPES } from '../contract/channel.js';
import { CALL_STATUSES, HOOK_EVENTS, HOOK_RESULTS, USER_TOKEN_FIELD } from '../contract/hooks.js';
import { KINDS } from '../contract/registry.js';
import { RULE_CODES } from '../contract/rule-codes.js';
import { MAX_BUTTONS, TEXT_LIMIT } from '../contract/rules.js';
import {
  CALLBACK_FAIL_REASONS,
  WIDGET_ARG_METHODS,
  WIDGET_CALLBACKS,
  WIDGET_CALLBACKS_WITH_ARGS,
  WIDGET_METHODS,
  WIDGET_RESULT_METHODS,
  WIDGET_STATES,
} from '../contract/widget.js';
import { WIDGET_CALLBACK_DOCS, WIDGET_METHOD_DOCS } from '../contract/widget-docs.js';
import { DEFAULT_BOT_RATE_LIMIT } from '../platform/bot/bot-rate-limit.js';
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  type DeliveryPolicy,
} from '../contract/timing.js';
import { kindAnchor, type Block, type Section } from './model.js';

const code = (text: string | number): string => `\`${String(text)}\``;
const kindLink = (kind: string): string => `[${code(kind)}](#${kindAnchor(kind)})`;
const seconds = (ms: number): string => `${ms / 1000} s`;
const kindsOf = (predicate: (name: string, spec: string) => boolean): Block[] =>
  [...KINDS.values()]
    .filter((k) => predicate(k.name, k.spec))
    .map((k): Block => ({ type: 'kind', kind: k.name }));
const section = (
  id: string,
  title: string,
  blocks: Block[],
  sections: Section[] = [],
): Section => ({
  id,
  title,
  blocks,
  sections,
});

/** Who calls an endpoint: the other side of the party serving it. */
function callerOf(op: ApiOperation): string {
  if (op.role === 'platform') return op.iface === 'A' ? 'integrator' : 'bot provider';
  return 'platform';
}

function endpointTable(ops: readonly ApiOperation[]): Block {
  return {
    type: 'table',
    head: ['method', 'path', 'caller -> served by', 'body', 'answers'],
    rows: ops.map((op) => [
      op.method.toUpperCase(),
      code(`{${serverVariable(op)}}${op.path === '/' ? '' : op.path}`),
      `${callerOf(op)} -> ${op.role.replace('-', ' ')}`,
      (op.requestKinds ?? []).map((k) => (KINDS.has(k) ? kindLink(k) : code(k))).join(', ') || '—',
      Object.keys(op.responses).length > 4
        ? `${Object.keys(op.responses).join(', ')} (section 7.2)`
        : Object.entries(op.responses)
            .map(([status, r]) => `${status}: ${r.description}`)
            .join('; '),
    ]),
  };
}

/** When each attempt of a policy starts, in protocol time. */
const attemptStarts = (p: DeliveryPolicy): string =>
  Array.from({ length: p.attempts }, (_, k) => seconds(k * p.intervalMs)).join(', ');

function timingTable(): Block {
  const row = (what: string, p: DeliveryPolicy, after: string): string[] => [
    what,
    String(p.attempts),
    attemptStarts(p),
    seconds(p.attemptTimeoutMs),
    after,
  ];
  return {
    type: 'table',
    head: ['delivery', 'attempts', 'attempts start at', 'each waits at most', 'when none succeeds'],
    rows: [
      row(
        'agent message to the integrator (4.2)',
        CHANNEL_DELIVERY_POLICY,
        `the agent sees an error at ${seconds(CHANNEL_DELIVERY_POLICY.failAfterMs)}`,
      ),
      row(
        'bot event to the provider (4.3)',
        BOT_DELIVERY_POLICY,
        `the customer is handed to an agent at ${seconds(BOT_DELIVERY_POLICY.failAfterMs)}`,
      ),
      row(
        'hook event to the receiver (4.4)',
        HOOK_DELIVERY_POLICY,
        'the event is dropped; the reply counts as missing (assumption)',
      ),
    ],
  };
}

const mediaRequired = (): Block => ({
  type: 'table',
  head: ['type', 'kinds', 'required beyond type'],
  rows: MEDIA_TYPES.map((m) => [
    code(m),
    `${kindLink(`channel.customer.${m}`)}, ${kindLink(`channel.agent.${m}`)}`,
    m === 'location' ? 'latitude, longitude' : 'file, file_name, file_size',
  ]),
});

function sharedObjects(): Block[] {
  const parts: Array<[string, string, string]> = [
    ['visitor', 'hook.chat_accepted', 'visitor'],
    ['agent', 'hook.chat_accepted', 'agent'],
    ['department', 'hook.chat_accepted', 'department'],
    ['session (with geoip and utm_json)', 'hook.chat_accepted', 'session'],
    ['page', 'hook.chat_accepted', 'page'],
    ['call', 'hook.call_event', 'call'],
    ['chat (chat_finished) with its log items', 'hook.chat_finished', 'chat'],
  ];
  return parts.map(([title, kind, under]) => ({ type: 'kind', kind, under, title }));
}

function widgetMethods(): Block {
  const args = new Set<string>(WIDGET_ARG_METHODS);
  const results = new Set<string>(WIDGET_RESULT_METHODS);
  return {
    type: 'table',
    head: ['method', 'arguments', 'result', 'what it does'],
    rows: WIDGET_METHODS.map((m) => [
      code(`svc_api.${m}`),
      args.has(m) ? kindLink(`widget.${m}.args`) : '—',
      results.has(m) ? kindLink(`widget.${m}.result`) : '—',
      WIDGET_METHOD_DOCS[m],
    ]),
  };
}

function widgetCallbacks(): Block {
  const withArgs = new Set<string>(WIDGET_CALLBACKS_WITH_ARGS);
  return {
    type: 'table',
    head: ['callback', 'arguments', 'runs when'],
    rows: WIDGET_CALLBACKS.map((c) => [
      code(c),
      withArgs.has(c) ? kindLink(`widget.callback.${c}.args`) : '—',
      WIDGET_CALLBACK_DOCS[c],
    ]),
  };
}

function botEvents(): Block {
  return {
    type: 'table',
    head: ['event', 'direction', 'meaning'],
    rows: [...KINDS.values()]
      .filter((k) => k.name.startsWith('bot.event.'))
      .map((k) => [kindLink(k.name), k.direction, k.description]),
  };
}

function hookEvents(): Block {
  return {
    type: 'table',
    head: ['event', 'body', 'reply'],
    rows: HOOK_EVENTS.map((e) => [code(e), kindLink(`hook.${e}`), kindLink(`hook.${e}.reply`)]),
  };
}

/** Every section of the reference, in order. */
export function contractSections(): Section[] {
  return [
    overviewSection(),
    payloadsSection(),
    statesSection(),
    endpointsSection(),
    authenticationSection(),
    eventsSection(),
    errorsSection(),
    limitsSection(),
    versioningSection(),
    ruleCodesSection(),
    mutantsSection(),
    invariantsSection(),
    assumptionsSection(),
  ];
}

/** The platform and its four interfaces (section 1). */
function overviewSection(): Section {
  return section(
    '1',
    'What the platform offers',
    [
      {
        type: 'p',
        text: 'Four interfaces connect outside parties to the conversation platform. svc-cli plays every side of each, so either side can be tested without the other.',
      },
    ],
    [
      section('1.1', 'The platform', [
        {
          type: 'p',
          text: 'Agents answer visitors from one agent application, whatever channel the visitor writes on.',
        },
      ]),
      section('1.2', 'Chat channel (interface A)', [
        {
          type: 'p',
          text: "An integrator connects its own chat front end (an app or a site) as one more channel. The platform gives the integrator a channel URL for customer messages and the channel status; the integrator runs an HTTPS endpoint for the agents' messages. Both directions are HTTP POST with JSON bodies (section 4.1, 4.2).",
        },
      ]),
      section('1.3', 'Channel setup', [
        {
          type: 'p',
          text: "An administrator adds the channel in the agent application: its name, the integrator's endpoint URL, whether agent messages go out chunked, and the agents who take its chats. The platform then shows the channel URL `{base_url}/<random_string>/<channel_public_id>`. The random segment guards against guessing; `svc-cli platform` draws it from a CSPRNG (at least 128 bits, URL-safe).",
        },
      ]),
      section('1.4', 'Bot interface (interface B)', [
        {
          type: 'p',
          text: 'A bot provider can be attached to any conversation. With a bot attached, each conversation goes to the bot first: the platform posts events to the provider, and the provider posts its answers to the platform. Each provider has a provider id, issued outside this interface.',
        },
      ]),
      section('1.5', 'Page script (interface C)', [
        {
          type: 'p',
          text: 'A script on the page (`svc_api`) controls the chat widget, passes visitor data to the agent, and calls functions the page defines (`svc_on*`).',
        },
      ]),
      section('1.6', 'Event hooks (interface D)', [
        {
          type: 'p',
          text: 'The platform posts JSON about chats and calls to a URL the administrator sets. For some events the reply carries data the agent who took the chat sees.',
        },
      ]),
    ],
  );
}

/** The payload kinds and their field tables (section 2). */
function payloadsSection(): Section {
  return section(
    '2',
    'Payloads',
    [
      {
        type: 'p',
        text: 'Each payload kind has a stable name (`svc-cli schema --list`), a producer and a field table read from its JSON Schema (`svc-cli schema --kind <kind>`). In the tables, *null = absent* means an optional field may be `null` and is then read as missing, with a `null_optional` warning; *drift* marks a field whose value may arrive as the other JSON type (a number for a string id, a numeric string for a number): refused when the party under test produces the kind, a `type_drift` warning when the platform does. Fields the contract does not list are accepted with an `unknown_field` warning. `--strict` turns every warning into an error.',
      },
    ],
    [
      section('2.1', 'Customer message (integrator to platform)', [
        {
          type: 'p',
          text: `A customer's text. A message whose \`sender.id\` is missing or empty is not delivered. Text over ${TEXT_LIMIT} characters (counted as code points) is delivered cut to ${TEXT_LIMIT}, with a \`text_cut\` warning.`,
        },
        ...kindsOf((n, s) => s === '2.1'),
      ]),
      section('2.2', 'Agent message (platform to integrator) and the reply', [
        {
          type: 'p',
          text: `An agent's message, addressed to the customer by the \`sender.id\` the integrator sent before. The integrator answers 200 with \`{"result":"ok"}\` or \`{"error":{"code","message"}}\`; an error reply ends redelivery and its message is shown to the agent (section 8).`,
        },
        ...kindsOf((n, s) => s === '2.2'),
      ]),
      section('2.3', 'Typing notices', [
        {
          type: 'p',
          text: `A message of type ${TYPING_TYPES.map(code).join(' or ')} marks the start or end of typing, in both directions. Another type in this role is ignored (\`ignored_type\`).`,
        },
        ...kindsOf((n, s) => s === '2.3'),
      ]),
      section('2.4', 'Media messages', [
        {
          type: 'p',
          text: 'Media travel like text messages with another `type` and extra fields. Links are http(s) URLs; sizes, durations and dimensions are positive integers.',
        },
        mediaRequired(),
        ...kindsOf((n, s) => s === '2.4'),
      ]),
      section('2.5', 'Bot events and messages', [
        {
          type: 'p',
          text: `Every bot event names itself in \`event\` and carries an \`id\`; \`client_id\` and \`chat_id\` identify the customer and the chat. A message is one of ${BOT_MESSAGE_TYPES.map(code).join(', ')}, with a \`timestamp\` (unix time, a number or numeric string); a BUTTONS message holds at most ${MAX_BUTTONS} buttons, whose \`id\` may be a string or a number. Which side sends each event: section 6.1.`,
        },
        ...kindsOf((n) => n.startsWith('bot.event.')),
      ]),
      section('2.6', 'Shared objects of the hook events', [
        {
          type: 'p',
          text: 'The hook events (section 6.2) share these objects. The contents of `analytics` and `visitor.social` are not specified: any object is accepted.',
        },
        ...sharedObjects(),
      ]),
    ],
  );
}

/** The value sets and what the platform reacts to (section 3). */
function statesSection(): Section {
  return section('3', 'States and transitions', [
    {
      type: 'p',
      text: 'No payload carries a lifecycle field; these value sets and triggers are what the platform reacts to.',
    },
    {
      type: 'list',
      items: [
        `channel status body: ${CHANNEL_STATUSES.map(code).join(' or ')} (0: no agent available, 1: agents online)`,
        `widget state (svc_onChangeState): ${WIDGET_STATES.map(code).join(', ')}`,
        `call status: ${CALL_STATUSES.map(code).join(', ')}`,
      ],
    },
    {
      type: 'table',
      head: ['when', 'then'],
      rows: [
        [
          'a customer writes on a channel with a bot',
          'the platform sends CLIENT_MESSAGE to the provider',
        ],
        ['the provider sends BOT_MESSAGE', 'the message reaches the customer'],
        ['the provider sends INVITE_AGENT', 'the chat goes to an agent'],
        ['an agent joins after the hand-over', 'the platform sends AGENT_JOINED'],
        ['no agent can take the chat', 'the platform sends AGENT_UNAVAILABLE'],
        [
          `the provider gives no regular answer (${BOT_DELIVERY_POLICY.attempts} attempts, ${seconds(BOT_DELIVERY_POLICY.attemptTimeoutMs)} each)`,
          'the customer goes to an agent',
        ],
        ['an agent presses Reply on a new chat', 'hook chat_accepted'],
        ['the chat_accepted reply carried crm_link and the chat is linked', 'hook chat_assigned'],
        ['the agent closes the chat', 'hook chat_finished'],
        ['visitor data changes (e.g. the contacts form)', 'hook chat_updated'],
        ['the offline form is sent', 'hook offline_message'],
        ['a call starts or changes status', 'hook call_event'],
      ],
    },
  ]);
}

/** The endpoints of each interface, read from the operation table (section 4). */
function endpointsSection(): Section {
  return section(
    '4',
    'Endpoints',
    [
      {
        type: 'p',
        text: 'Bodies are JSON unless said otherwise. `svc-cli schema --format openapi` and `--format asyncapi` describe the same endpoints for other tools.',
      },
    ],
    [
      section('4.1', 'Chat channel: the platform side', [
        {
          type: 'p',
          text: 'A 404 means no channel answers at that URL: an unknown public id or a wrong random string. Any status other than 200 on a message means the integrator should contact the platform; svc-cli answers 400 with an error body listing the issues.',
        },
        endpointTable(API_OPERATIONS.filter((o) => o.iface === 'A' && o.role === 'platform')),
        ...kindsOf((_n, s) => s === '4.1'),
      ]),
      section('4.2', 'Chat channel: the integrator side', [
        {
          type: 'p',
          text: "The platform posts agent messages to the integrator's endpoint, with a Content-Length body or chunked (the channel's switch). Redelivery and the reply rules: section 8.",
        },
        endpointTable(API_OPERATIONS.filter((o) => o.role === 'integrator')),
      ]),
      section('4.3', 'Bot interface', [
        {
          type: 'p',
          text: "Every exchange is a POST with `Content-Type: application/json` and the provider's token as the last path segment, the same token both ways. The `/providers/` path also needs the `Authorization` header (section 5.3). `{bot_provider_url}` is the URL the provider registered (`svc-cli platform --bot-provider-url`); `{bot_service_url}` is the platform's bot host, which `svc-cli platform` serves at its own URL (the `bot webhook` line it prints) and `conform bot` at the URL it prints first. The platform reads only the status of the provider's reply: an answer goes back as its own POST.",
        },
        endpointTable(API_OPERATIONS.filter((o) => o.iface === 'B')),
      ]),
      section('4.4', 'Event hooks', [
        {
          type: 'p',
          text: 'The platform posts each event to the one URL the administrator set (HTTP or HTTPS); the reply is JSON per event (section 6.2).',
        },
        endpointTable(API_OPERATIONS.filter((o) => o.iface === 'D')),
      ]),
      section('4.5', 'Page script methods (`svc_api`)', [
        {
          type: 'p',
          text: `Failures come back as \`{result: "fail"}\` with a \`reason\` (or \`error\` for sendOfflineMessage, section 7.3). isCallbackEnabled's reasons are ${CALLBACK_FAIL_REASONS.map((r) => code(r)).join(' and ')}, spelled exactly so.`,
        },
        widgetMethods(),
        ...kindsOf((n, s) => s === '4.5'),
      ]),
    ],
  );
}

/** How each interface authenticates (section 5). */
function authenticationSection(): Section {
  return section(
    '5',
    'Authentication',
    [],
    [
      section('5.1', 'Chat channel', [
        {
          type: 'p',
          text: 'The channel URL is the credential: its random segment and the public id. Nothing else is sent.',
        },
      ]),
      section('5.2', 'Bot token', [
        {
          type: 'p',
          text: 'The provider generates a token and the customer enters it in the bot channel settings. Every request in both directions ends its path with the token. svc-cli masks it in what it prints.',
        },
      ]),
      section('5.3', 'Temporary access token (optional)', [
        {
          type: 'p',
          text: 'The provider can require a short-lived token: the platform trades a secret key and a `client_id` for it and sends it as `Authorization: Bearer ...`; the provider sends it on the `/providers/` path. The exchange is not specified: svc-cli assumes an OAuth2 client-credentials request (`/oauth/token`, form-encoded), see section 4.3.',
        },
      ]),
      section('5.4', 'Platform calls to the integrator and hooks', [
        {
          type: 'p',
          text: "How the platform authenticates its calls to the integrator's endpoint and the hook URL is not specified; svc-cli sends no credential.",
        },
      ]),
      section('5.5', 'Page script', [
        {
          type: 'p',
          text: `setUserToken attaches a visitor id that the hook events carry on (svc-cli names the field \`${USER_TOKEN_FIELD}\`, an assumption).`,
        },
      ]),
    ],
  );
}

/** The bot events, hook events, channel notices and page callbacks (section 6). */
function eventsSection(): Section {
  return section(
    '6',
    'Events',
    [],
    [
      section('6.1', 'Bot events', [
        {
          type: 'p',
          text: 'A customer message leads to CLIENT_MESSAGE, answered by BOT_MESSAGE or INVITE_AGENT; after INVITE_AGENT the platform sends AGENT_JOINED when an agent joins, or AGENT_UNAVAILABLE when none can. CHAT_CLOSED and CLIENT_INFO come from the public docs and are on with `--bot-events docs`. Field tables: section 2.5.',
        },
        botEvents(),
      ]),
      section('6.2', 'Hook events', [
        {
          type: 'p',
          text: `The body names its event in \`event_name\` and shares the objects of section 2.6. Replies other than chat_accepted's carry \`result\`: ${HOOK_RESULTS.map(code).join(' or ')}. A chat_accepted reply with result \`ok\` puts its custom_data, contact_info, enable_assign and crm_link before the agent; any other result drops them. offline_message is accepted under both names, \`offline_message\` and \`offline_messages\`.`,
        },
        hookEvents(),
        ...kindsOf((n) => n.startsWith('hook.')),
      ]),
      section('6.3', 'Chat channel notices', [
        {
          type: 'p',
          text: 'Typing notices (section 2.3) in both directions. Sent and read receipts are announced for later only; svc-cli has none.',
        },
      ]),
      section('6.4', 'Page script callbacks', [
        {
          type: 'p',
          text: 'Functions the page may define on `window`; the widget calls each when its moment comes.',
        },
        widgetCallbacks(),
        ...kindsOf((n, s) => s === '6.4'),
      ]),
    ],
  );
}

/** The errors of each interface (section 7). */
function errorsSection(): Section {
  return section(
    '7',
    'Errors',
    [],
    [
      section('7.1', 'Chat channel', [
        {
          type: 'list',
          items: [
            'a status or message request to an unknown channel: 404',
            'a customer message without a `sender.id`: not delivered',
            `customer text over ${TEXT_LIMIT} characters: cut, not refused`,
            "the integrator's error reply `{error:{code,message}}`: no redelivery; the agent sees the message. Code values are the integrator's own",
            'no valid reply after every attempt (section 8): the agent sees an error in the chat',
          ],
        },
      ]),
      section('7.2', 'Bot interface statuses', [
        {
          type: 'p',
          text: `What the platform's bot endpoints answer the provider. An error body is \`{error:{code,message}}\`; the contract names the codes ${BOT_ERROR_CODES.map(code).join(', ')}. A provider over the request limit gets 429 (svc-cli's default limit: ${DEFAULT_BOT_RATE_LIMIT.max} requests per ${seconds(DEFAULT_BOT_RATE_LIMIT.windowMs)} per token, \`platform --bot-rate-limit\`).`,
        },
        {
          type: 'table',
          head: ['status', 'meaning'],
          rows: BOT_HTTP_STATUSES.map((s) => [String(s), BOT_STATUS_MEANINGS[s]]),
        },
        ...kindsOf((n, s) => s === '7.2'),
      ]),
      section('7.3', 'Page script failures', [
        {
          type: 'p',
          text: 'A failed call answers `{result: "fail"}` with `reason` (setCustomData, startCall, isCallbackEnabled, setUserToken) or `error` (sendOfflineMessage); the result kinds are in section 4.5.',
        },
      ]),
    ],
  );
}

/** The limits and the delivery timings (section 8). */
function limitsSection(): Section {
  return section('8', 'Limits and timing', [
    {
      type: 'table',
      head: ['limit', 'value'],
      rows: [
        [
          'customer `message.text`',
          `${TEXT_LIMIT} characters (code points); longer text is delivered cut`,
        ],
        ['buttons in a BUTTONS message', String(MAX_BUTTONS)],
        ['`sender.photo`', '128x128 px recommended'],
        ['media `thumb`', '320 px wide'],
        [
          'bot requests per token',
          `${DEFAULT_BOT_RATE_LIMIT.max} per ${seconds(DEFAULT_BOT_RATE_LIMIT.windowMs)} (assumed; the contract gives no value), then 429`,
        ],
      ],
    },
    {
      type: 'p',
      text: 'Every protocol timer reads one clock: `--time-scale` shrinks them all alike, and reports show protocol time.',
    },
    timingTable(),
    {
      type: 'list',
      items: [
        'Agent messages: a valid reply is HTTP 200 whose JSON body is `{"result":"ok"}` or `{"error":{"code","message"}}`; it ends the series. Anything else (another status, no JSON, another shape, no answer in time) asks for the next attempt.',
        `Bot events: any HTTP 200 within ${seconds(BOT_DELIVERY_POLICY.attemptTimeoutMs)} is the regular answer; without one after ${BOT_DELIVERY_POLICY.attempts} attempts the customer is handed to an agent. \`platform --bot-attempts\` changes the count (the public docs read it as 3).`,
        `Hook events: HTTP 200 with a JSON body is a reply; it is then checked against the event's reply kind, and a bad reply is reported, not resent. The contract gives no hook timeout or redelivery: svc-cli assumes ${seconds(HOOK_DELIVERY_POLICY.attemptTimeoutMs)} and ${HOOK_DELIVERY_POLICY.attempts} attempt (\`platform --hook-timeout\`, \`--hook-attempts\`).`,
      ],
    },
  ]);
}

/** Versioning (section 9). */
function versioningSection(): Section {
  return section('9', 'Versioning', [
    {
      type: 'p',
      text: 'The contract has no version scheme. Message types beyond text and media, and sent/read receipts, are announced as future additions.',
    },
  ]);
}

/** The rule codes of src/contract/rule-codes.ts, as the reference lists them. */
function ruleCodesSection(): Section {
  return section('rules', 'Rule codes', [
    {
      type: 'p',
      text: 'The code of each issue `validate`, `listen`, `conform` and the simulator report. `svc-cli explain <code>` prints the entry.',
    },
    {
      type: 'table',
      head: ['code', 'means', 'section', 'what to do'],
      rows: Object.entries(RULE_CODES).map(([c, info]) => [
        code(c),
        info.summary,
        info.spec,
        info.todo,
      ]),
    },
  ]);
}

/** Where the contract is silent: the assumptions, listed in FIDELITY.md. */
function assumptionsSection(): Section {
  return section('assumptions', 'Assumptions', [
    {
      type: 'p',
      text: 'Where the contract is silent or says "not shown", svc-cli follows the platform\'s public developer documentation, and where that is silent too it makes a documented assumption (per-attempt timeout of agent messages, hook timeout, the token exchange, the shapes of chatMode and getContactInfo, the name of the user token field). Each is listed point by point in [FIDELITY.md](FIDELITY.md).',
    },
  ]);
}

/** The cross-interface invariants (src/trace/invariants.ts), as the reference lists them. */
function invariantsSection(): Section {
  return section('invariants', 'Cross-interface invariants', [
    {
      type: 'p',
      text: "Rules that hold across the interfaces of one conversation (a chat), which no single exchange shows. They are checked on every `replay` (the embedded platform's journal), every `conform platform` run (what it saw of its chats: the customer messages it sent, the agent messages its integrator got (what follows a refused one for the same customer and text is its next attempt, whatever its id), against an svc simulator the offline form it sent with agents set online, the hooks of `--hook-listen-port`, the events the platform exchanged with the bot of `--bot-listen-port`, which hands each chat over), every `proxy` (the conversations passing through) and by `trace` and `report` on a recording; `offline-message` is a rule on the whole run (the offline form opens no chat), checked by `replay` and `conform platform` only. `callback-order` reads the callbacks the page-script double reports to the widget channel (`POST /_sim/widget/events`, `type: callback`, with the stream id of the push each reflects): a fixture's `page` steps attach it in `replay`, and `conform platform` attaches it against an svc simulator (its case `page callbacks follow the pushes`: the visitor writes and is called back, then the agent accepts, so the page runs svc_onCallEnd, then svc_onAccept; the call paced through `POST /_sim/calls/timing`); a real platform serves no such channel, so there the case is skipped. In `conform bot`, where svc-cli plays the platform, `bot-after-close` and `handover-budget` are judged from the bot's side (what it posts after CHAT_CLOSED; its INVITE_AGENT within the bot budget) and the other rules, which would judge svc-cli, are skipped by name; `conform hooks` and `conform integrator` check none. A broken one fails the run naming the rule, its section and the two exchanges it relates; `--no-invariant <name>` switches it off. [trace.md](trace.md#invariants) shows them on a timeline.",
    },
    {
      type: 'table',
      head: ['invariant', 'section', 'holds when'],
      rows: ALL_INVARIANTS.map((i) => [code(i.name), i.spec, i.summary]),
    },
  ]);
}

/** The simulator mutants (src/platform/mutants.ts), as the reference lists them. */
function mutantsSection(): Section {
  return section('mutants', 'Simulator mutants', [
    {
      type: 'p',
      text: 'Named deviations of the simulator from this contract, for `svc-cli mutate` (or `--mutant`, `SVC_MUTANT`): a test suite that stays green under one would not notice the platform behaving that way. `svc-cli mutate --list` prints the same catalogue.',
    },
    {
      type: 'table',
      head: ['mutant', 'family', 'section', 'the simulator', 'a survivor means'],
      rows: MUTANTS.map((m) => [code(m.name), m.family, m.spec, m.deviation, m.survivor]),
    },
  ]);
}
