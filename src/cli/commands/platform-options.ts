/** The option table of `svc-cli platform` (table.ts). */
import {
  CONTROL_ACCESS_OPTIONS,
  FAULT_PLAN_OPTION,
  faultOptions,
  MUTANT_OPTION,
  QUIET_OPTION,
  RECORD_OPTIONS,
  RECORD_SYNC_OPTION,
  SERVING_OPTIONS,
  PROFILE_OPTION,
  TLS_OPTIONS,
  botEventsOption,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

/** Agents online or offline at start (spec 3: the channel status). */
export const AGENTS_OPTION = {
  key: 'agents',
  flag: '--agents <state>',
  type: 'choice',
  choices: ['online', 'offline'],
  default: 'online',
  env: 'SVC_AGENTS',
  description: 'agents online (status 1) or offline (status 0)',
} as const satisfies OptionSpec;

const BOT = 'Bot (interface B):';
const MEMORY = 'Memory (long runs):';

/** the real platform closes idle chats; the spec gives no figure (an assumption). */
export const DEFAULT_CHAT_IDLE_TIMEOUT = '30m';
/**
 * about 2 MB of chats and customers (1.7 KB each). Chats that leave after living a
 * while cost GC headroom beyond that: RSS after 200k customers (bench/memory.js, 2 shared
 * cores) 128-153 MB at 1,000 in 4 runs, 135-166 at 2,000 in 7, 150-212 at 10,000.
 */
export const DEFAULT_MAX_CHATS = 1_000;
const HOOKS = 'Hooks (interface D):';

export const platformOptions = defineOptions('platform', [
  QUIET_OPTION,
  ...SERVING_OPTIONS,
  ...CONTROL_ACCESS_OPTIONS,
  ...TLS_OPTIONS,
  {
    key: 'integratorUrl',
    flag: '--integrator-url <url>',
    type: 'url',
    env: 'SVC_INTEGRATOR_URL',
    description: 'where agent messages go: POST <url>/<channel_public_id> (spec 4.2)',
  },
  {
    key: 'chunked',
    flag: '--chunked',
    type: 'boolean',
    description:
      "send agent messages with Transfer-Encoding: chunked (the channel's chunked switch)",
  },
  AGENTS_OPTION,
  PROFILE_OPTION,
  {
    key: 'runId',
    flag: '--run-id <n>',
    type: 'int',
    min: 1,
    max: 999_999,
    description:
      "number chats from <n>001 and clients from <n>501, not from 1: chat ids are unique in the account (spec 2.2, 6.2), so a receiver or bot with a database sees a restarted simulator's chats as new (default: from 1)",
  },
  {
    key: 'channelId',
    flag: '--channel-id <id>',
    type: 'string',
    env: 'SVC_CHANNEL_ID',
    description: 'the channel public id: letters, digits and - _ . ~ (default: random)',
  },
  {
    key: 'channelName',
    flag: '--channel-name <name>',
    type: 'string',
    description: 'the channel name',
  },
  {
    key: 'randomString',
    flag: '--random-string <s>',
    type: 'string',
    env: 'SVC_RANDOM_STRING',
    secret: true,
    description: 'fix the URL random string (default: 128 random bits) for a stable channel URL',
  },
  MUTANT_OPTION,
  {
    key: 'lenient',
    flag: '--lenient',
    type: 'boolean',
    description:
      'answer a customer message that is not delivered (missing or empty required field) 200 instead of 400',
  },
  ...faultOptions(
    'fail the first N attempts of each customer message or bot call (by message or event id, else body hash) with HTTP 500',
  ),
  FAULT_PLAN_OPTION,
  ...RECORD_OPTIONS,
  RECORD_SYNC_OPTION,
  {
    key: 'recordMaxSize',
    flag: '--record-max-size <size>',
    type: 'string',
    group: MEMORY,
    description:
      'rotate the --record file at this size (e.g. 100MB): it becomes <file>.1, older ones .2, .3 ...; none is deleted',
  },
  {
    key: 'chatIdleTimeout',
    flag: '--chat-idle-timeout <duration>',
    type: 'string',
    duration: 's',
    off: true,
    default: DEFAULT_CHAT_IDLE_TIMEOUT,
    env: 'SVC_CHAT_IDLE_TIMEOUT',
    group: MEMORY,
    description:
      'close a chat after this much protocol time without a message (an assumption: the spec is silent); fires chat_finished with --hook-url; off: never',
  },
  {
    key: 'maxChats',
    flag: '--max-chats <n>',
    type: 'int',
    min: 1,
    default: DEFAULT_MAX_CHATS,
    env: 'SVC_MAX_CHATS',
    group: MEMORY,
    description:
      'chats kept in memory; beyond, the oldest closed chat and its customer leave (the journal keeps the record)',
  },
  {
    key: 'console',
    flag: '--no-console',
    type: 'boolean',
    default: true,
    description: 'do not read agent messages from stdin',
  },
  {
    key: 'web',
    flag: '--web',
    type: 'boolean',
    description:
      'serve the agent web console at <url>/_sim/console/: live chats, replies, delivery timelines, journal',
  },
  {
    key: 'hookUrl',
    flag: '--hook-url <url>',
    type: 'url',
    asGiven: true,
    env: 'SVC_HOOK_URL',
    group: HOOKS,
    description: 'send event hooks (chat_accepted, chat_finished, ...) to this URL (spec 4.4, 6.2)',
  },
  {
    key: 'hookTimeout',
    flag: '--hook-timeout <time>',
    type: 'int',
    min: 1,
    default: 10_000,
    unit: 'ms',
    duration: true,
    group: HOOKS,
    description:
      'protocol time each hook waits for its reply: ms, or with a unit (10s) (an assumption: the spec is silent)',
  },
  {
    key: 'hookAttempts',
    flag: '--hook-attempts <n>',
    type: 'int',
    min: 1,
    default: 1,
    group: HOOKS,
    description: 'attempts per hook event, 3 s apart (1: no redelivery, an assumption)',
  },
  {
    key: 'botProviderUrl',
    flag: '--bot-provider-url <url>',
    type: 'url',
    env: 'SVC_BOT_PROVIDER_URL',
    group: BOT,
    description: 'attach a bot (spec 4.3): customer messages go first to POST <url>/<token>',
  },
  {
    key: 'botToken',
    flag: '--bot-token <token>',
    type: 'string',
    env: 'SVC_BOT_TOKEN',
    secret: true,
    group: BOT,
    description: 'the token the bot provider generated (spec 5.2)',
  },
  {
    key: 'providerId',
    flag: '--provider-id <id>',
    type: 'string',
    default: 'dev-provider',
    group: BOT,
    description: 'the provider id of the bot (spec 1.4)',
  },
  {
    key: 'botAuthUrl',
    flag: '--bot-auth-url <url>',
    type: 'url',
    group: BOT,
    description:
      "spec 5.3: the provider's token endpoint; each request then carries Authorization: Bearer",
  },
  {
    key: 'botClientId',
    flag: '--bot-client-id <id>',
    type: 'string',
    group: BOT,
    description: 'spec 5.3: client_id for the token exchange (both ways)',
  },
  {
    key: 'botClientSecret',
    flag: '--bot-client-secret <secret>',
    type: 'string',
    env: 'SVC_BOT_CLIENT_SECRET',
    secret: true,
    group: BOT,
    description: 'spec 5.3: the secret for the token exchange',
  },
  {
    key: 'botRateLimit',
    flag: '--bot-rate-limit <n/window>',
    type: 'string',
    default: '100/1s',
    group: BOT,
    description: 'requests per token before 429, e.g. 20/1s',
  },
  {
    key: 'botAttempts',
    flag: '--bot-attempts <n>',
    type: 'int',
    min: 1,
    max: 10,
    default: 2,
    group: BOT,
    description:
      'attempts per bot event, 3 s each, before hand-over (spec 8: 2; the public Bot API says "2 retries": 3, as --profile docs); another figure than 2 wins over the profile',
  },
  {
    ...botEventsOption(
      "spec: the five events of spec 6.1; docs: also the public Bot API's CHAT_CLOSED (sent when a bot chat closes) and CLIENT_INFO (taken)",
    ),
    group: BOT,
  },
  {
    key: 'botName',
    flag: '--bot-name <name>',
    type: 'string',
    default: 'Bot',
    group: BOT,
    description: 'the sender name customers see on bot messages',
  },
] as const satisfies readonly OptionSpec[]);
