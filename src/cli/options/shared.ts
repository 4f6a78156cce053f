/**
 * Option groups several commands share, declared once (table.ts); a command's table spreads
 * the groups it takes. Plain data: registration modules load it for `--help`.
 */
import type { OptionSpec } from './table.js';

/** 1 MiB: the largest request body a serving command accepts by default (413 beyond). */
export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * the public Bot API's CHAT_CLOSED and CLIENT_INFO, beyond spec 6.1's five events;
 * off by default (the spec is the default, the docs one flag away). `platform`, `bot-sim`
 * and `conform bot` say what `docs` means for them.
 */
export function botEventsOption<const D extends string>(description: D) {
  return {
    key: 'botEvents',
    flag: '--bot-events <set>',
    type: 'choice',
    choices: ['spec', 'docs'],
    default: 'spec',
    description,
  } as const;
}

/**
 * The platform profile the simulator follows where the spec is silent (docs/drift.md): the
 * built-in `spec` and `docs`, or a file `record profile` wrote.
 */
export const PROFILE_OPTION = {
  key: 'profile',
  flag: '--profile <spec|docs|file>',
  type: 'string',
  default: 'spec',
  env: 'SVC_PROFILE',
  description:
    "what the simulator follows beyond the spec: spec, docs (the public docs' readings) or a profile file from record profile",
} as const satisfies OptionSpec;

const ACCESS = 'Access (docs/SECURITY.md):';

/** Host names a serving command answers beside localhost, IP addresses and its --host. */
export const ALLOWED_HOST_OPTION = {
  key: 'allowedHost',
  flag: '--allowed-host <name>',
  type: 'list',
  env: 'SVC_ALLOWED_HOSTS',
  group: ACCESS,
  description:
    'also answer requests for this Host name (repeatable; .example.test admits names under it); others get 403',
} as const satisfies OptionSpec;

/** Who may use the control API, the console and the page-script routes (platform, widget). */
export const CONTROL_ACCESS_OPTIONS = [
  {
    key: 'allowOrigin',
    flag: '--allow-origin <origin>',
    type: 'list',
    env: 'SVC_ALLOW_ORIGINS',
    group: ACCESS,
    description:
      'let pages from this origin (http://localhost:5173; null: a page opened from a file) use the control API and console cross-origin (repeatable)',
  },
  {
    key: 'controlToken',
    flag: '--control-token <token>',
    type: 'string',
    env: 'SVC_CONTROL_TOKEN',
    secret: true,
    group: ACCESS,
    description:
      'require this bearer token on the control API and console (default with a non-loopback --host: a random one, printed once)',
  },
] as const satisfies readonly OptionSpec[];

/** Where a serving command binds. */
export const SERVING_OPTIONS = [
  {
    key: 'port',
    flag: '-p, --port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    default: 0,
    env: 'SVC_PORT',
    description: 'port to listen on (0 = any free port)',
  },
  {
    key: 'host',
    flag: '--host <host>',
    type: 'host',
    default: '127.0.0.1',
    env: 'SVC_HOST',
    description: 'address to bind (any but 127.0.0.1 is reachable from the network)',
  },
  ALLOWED_HOST_OPTION,
] as const satisfies readonly OptionSpec[];

/** `--tls` and its certificate: every serving command can serve HTTPS. */
export const TLS_OPTIONS = [
  {
    key: 'tls',
    flag: '--tls',
    type: 'boolean',
    group: 'HTTPS:',
    description:
      'serve HTTPS with a certificate generated at start for 127.0.0.1, ::1 and localhost (its fingerprint is printed)',
  },
  {
    key: 'tlsCertOut',
    flag: '--tls-cert-out <file>',
    type: 'path',
    group: 'HTTPS:',
    description: 'write the generated certificate (PEM) here, for clients to trust: --ca <file>',
  },
  {
    key: 'cert',
    flag: '--cert <pem>',
    type: 'path',
    group: 'HTTPS:',
    description: 'serve HTTPS with this certificate (PEM; with --key) instead of a generated one',
  },
  {
    key: 'key',
    flag: '--key <pem>',
    type: 'path',
    group: 'HTTPS:',
    secret: true,
    description: 'the private key (PEM) of --cert',
  },
] as const satisfies readonly OptionSpec[];

/** `--strict`: what checks payloads can make its contract warnings errors. */
export const STRICT_OPTION = {
  key: 'strict',
  flag: '--strict',
  type: 'boolean',
  description: 'contract warnings count as errors',
} as const satisfies OptionSpec;

/** `--quiet`: no line per request (the journal still records them). */
export const QUIET_OPTION = {
  key: 'quiet',
  flag: '-q, --quiet',
  type: 'boolean',
  description:
    'print only what it serves (its start-up lines), warnings and errors: no line per request it accepts and no summary when it stops; one it refuses, or that refuses it, is an error and prints (--record still records every exchange)',
} as const satisfies OptionSpec;

/** `--record` with when and how it writes, and `--body-limit`. */
export const RECORD_OPTIONS = [
  {
    key: 'record',
    flag: '--record <file>',
    type: 'path',
    env: 'SVC_RECORD',
    description: 'record every exchange: NDJSON, or HAR 1.2 when the name ends in .har',
  },
  {
    key: 'recordOnError',
    flag: '--record-on-error <action>',
    type: 'choice',
    choices: ['keep-serving', 'exit'],
    default: 'keep-serving',
    description:
      'when the --record file cannot be written (a full disk): keep-serving without it, or exit at once; either way the exit code is 5',
  },
  {
    key: 'bodyLimit',
    flag: '--body-limit <bytes>',
    type: 'int',
    min: 1,
    default: DEFAULT_BODY_LIMIT_BYTES,
    description: 'largest request body accepted (413 beyond)',
  },
] as const satisfies readonly OptionSpec[];

/**
 * `--record-sync`: the roles whose every answer goes out in the end-of-turn batch
 * (src/http/response-batch.ts), where the journal is written first. The proxy relays answers
 * as they arrive, so it has no such point.
 */
export const RECORD_SYNC_OPTION = {
  key: 'recordSync',
  flag: '--record-sync [mode]',
  type: 'choice',
  choices: ['batched', 'write', 'fsync'],
  preset: 'write',
  default: 'batched',
  description:
    'when a record reaches the --record file: batched (every 10 ms under load), write (given bare: before its answer is sent) or fsync (written and synced to the disk first); docs/RELIABILITY.md',
} as const satisfies OptionSpec;

/** A fault plan file; the fault flags override it. */
export const FAULT_PLAN_OPTION = {
  key: 'faultPlan',
  flag: '--fault-plan <file>',
  type: 'path',
  group: 'Faults:',
  description: 'a fault plan file ({"version":1,...}); flags override it',
} as const satisfies OptionSpec;

/** The fault module's flags (src/faults), on top of FAULT_PLAN_OPTION where a command has it. */
export function faultOptions<const F extends string>(failFirst: F) {
  return [
    {
      key: 'failFirst',
      flag: '--fail-first <n>',
      type: 'int',
      min: 0,
      group: 'Faults:',
      description: failFirst,
    },
    {
      key: 'delay',
      flag: '--delay <time>',
      type: 'int',
      min: 0,
      unit: 'ms',
      duration: true,
      group: 'Faults:',
      description: 'wait this long (protocol time: ms, or with a unit, 2s) before every reply',
    },
    {
      key: 'fault',
      flag: '--fault <spec>',
      type: 'fault',
      group: 'Faults:',
      description:
        'none | status:<code> | reset | hang | bad-json | error:<code>:<message> | slow-body[:<ms>]',
    },
    {
      key: 'faultRate',
      flag: '--fault-rate <p>',
      type: 'number',
      min: 0,
      max: 1,
      group: 'Faults:',
      description: 'apply --fault with probability p (0..1)',
    },
    {
      key: 'seed',
      flag: '--seed <n>',
      type: 'int',
      min: -2_147_483_648,
      max: 4_294_967_295,
      group: 'Faults:',
      description: 'seed for --fault-rate: the same seed gives the same faults',
    },
  ] as const satisfies readonly OptionSpec[];
}

/** The channel URL (spec 1.3). */
export const CHANNEL_URL_OPTION = {
  key: 'channelUrl',
  flag: '--channel-url <url>',
  type: 'url',
  env: 'SVC_CHANNEL_URL',
  description:
    'the channel URL from the channel settings: {base_url}/<random_string>/<channel_public_id>',
  whenMissing:
    'No channel yet? `svc-cli platform` in another terminal prints one (export SVC_CHANNEL_URL=<it>); `svc-cli chat` runs a platform of its own.',
} as const satisfies OptionSpec;

/** The simulator mutant the embedded platform runs (platform, replay; `svc-cli mutate` sets it). */
export const MUTANT_OPTION = {
  key: 'mutant',
  flag: '--mutant <name>',
  type: 'string',
  env: 'SVC_MUTANT',
  config: false,
  description:
    'run a simulator mutant: a named deviation from the contract (svc-cli mutate --list); svc-cli mutate sets it',
} as const satisfies OptionSpec;

/** The invariants `replay`, `trace` and `report` check (src/trace/invariants.ts). */
export const INVARIANT_LIST =
  'transcript, bot-after-close, hook-after-finish, agent-joined, redelivery-id, handover-budget, offline-message, callback-order';

/** One invariant left unchecked (replay, trace, report). */
export const NO_INVARIANT_OPTION = {
  key: 'invariant',
  flag: '--no-invariant <name>',
  type: 'list',
  config: false,
  description: `do not check this invariant (${INVARIANT_LIST})`,
} as const satisfies OptionSpec;

/** One chat of a recording (trace, report). */
export const CHAT_OPTION = {
  key: 'chat',
  flag: '--chat <id>',
  type: 'int',
  min: 0,
  config: false,
  description: 'only this chat (of every run in the recording)',
} as const satisfies OptionSpec;

/**
 * `--wait <time>`: for a peer started in the background just before, as in a script or CI; the
 * command tries it every 100 ms for up to this long before it gives up (http/reach.ts).
 */
export const WAIT_OPTION = {
  key: 'wait',
  flag: '--wait <time>',
  type: 'string',
  duration: 's',
  description:
    'wait up to this long for the peer to accept connections: one started in the background just before (10s, 500ms; a bare number is seconds); default: unreachable at once',
} as const satisfies OptionSpec;

/** How long a command waits for a reply. */
export const TIMEOUT_OPTION = {
  key: 'timeout',
  flag: '--timeout <time>',
  type: 'int',
  min: 1,
  default: 10_000,
  unit: 'ms',
  duration: true,
  env: 'SVC_TIMEOUT',
  description:
    'wait at most this long for the reply: ms, or with a unit (10s) (an assumption: the spec is silent)',
} as const satisfies OptionSpec;

/** What the commands that send customer messages share (spec 2.1). */
export const SEND_OPTIONS = [
  { ...CHANNEL_URL_OPTION, required: true },

  {
    key: 'senderId',
    flag: '--sender-id <id>',
    type: 'string',
    env: 'SVC_SENDER_ID',
    required: true,
    description: "the customer's id in your system",
  },
  {
    key: 'name',
    flag: '--name <name>',
    type: 'string',
    description: 'customer name shown to the agent',
  },
  { key: 'phone', flag: '--phone <phone>', type: 'string', description: 'customer phone' },
  { key: 'email', flag: '--email <email>', type: 'string', description: 'customer e-mail' },
  {
    key: 'photo',
    flag: '--photo <url>',
    type: 'string',
    description: 'customer avatar, http(s) URL',
  },
  {
    key: 'invite',
    flag: '--invite <text>',
    type: 'string',
    description: 'invitation text shown to the agent as context',
  },
  {
    key: 'messageId',
    flag: '--message-id <id>',
    type: 'string',
    config: false,
    description: 'your message id (message.id)',
  },
  {
    key: 'force',
    flag: '--force',
    type: 'boolean',
    config: false,
    description: 'send even when the payload breaks the contract (to test the platform)',
  },
  {
    key: 'chunked',
    flag: '--chunked',
    type: 'boolean',
    description: 'send the body with Transfer-Encoding: chunked',
  },
  {
    ...WAIT_OPTION,
    config: false,
    description:
      'wait up to this long for the platform to accept connections: one started in the background just before (10s, 500ms); default: unreachable at once',
  },
  TIMEOUT_OPTION,
] as const satisfies readonly OptionSpec[];

/** `--hook-url`: the hook receiver (spec 4.4); `--url` is its short form where a command has it. */
export const HOOK_URL_OPTION = {
  key: 'hookUrl',
  flag: '--hook-url <url>',
  type: 'url',
  asGiven: true,
  env: 'SVC_HOOK_URL',
  description: 'the hook receiver URL (spec 4.4, 6.2)',
} as const satisfies OptionSpec;

/** The URLs a project's config names, one per role (`init` writes them, `doctor` probes them). */
export const PROJECT_URL_OPTIONS = [
  CHANNEL_URL_OPTION,
  {
    key: 'integratorUrl',
    flag: '--integrator-url <url>',
    type: 'url',
    env: 'SVC_INTEGRATOR_URL',
    description: 'your agent-message endpoint',
  },
  {
    key: 'botProviderUrl',
    flag: '--bot-provider-url <url>',
    type: 'url',
    env: 'SVC_BOT_PROVIDER_URL',
    description: 'your bot provider endpoint',
  },
  {
    key: 'hookUrl',
    flag: '--hook-url <url>',
    type: 'url',
    asGiven: true,
    env: 'SVC_HOOK_URL',
    description: 'your event-hook receiver URL',
  },
  {
    key: 'widgetUrl',
    flag: '--widget-url <url>',
    type: 'url',
    env: 'SVC_WIDGET_URL',
    description: 'the page that loads the widget',
  },
] as const satisfies readonly OptionSpec[];
