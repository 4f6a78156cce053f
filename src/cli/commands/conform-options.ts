/** The option table of `svc-cli conform` (table.ts). */
import {
  CHANNEL_URL_OPTION,
  PROFILE_OPTION,
  INVARIANT_LIST,
  NO_INVARIANT_OPTION,
  TIMEOUT_OPTION,
  botEventsOption,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';
import { HOOK_URL_OPTION, STRICT_OPTION, WAIT_OPTION } from '../options/shared.js';

/** `--reporter` and `--out`, shared by the commands that write a report. */
export const REPORT_OPTIONS = [
  {
    key: 'reporter',
    flag: '--reporter <name>',
    type: 'choice',
    choices: ['pretty', 'json', 'junit'],
    default: 'pretty',
    description: 'pretty, json (NDJSON) or junit',
  },
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the report to a file (junit, json) instead of stdout',
  },
] as const satisfies readonly OptionSpec[];

/** The help group of the fuzz flags, which the platform suite has none of. */
export const FUZZ_GROUP = 'Fuzz (hooks, integrator, bot):';

/** The suites whose run reads a help group's flags; a flag without a group is every suite's. */
export const GROUP_SUITES: Readonly<Record<string, readonly string[]>> = {
  'integrator:': ['integrator'],
  'hooks:': ['hooks'],
  'platform:': ['platform'],
  'bot:': ['bot'],
  [FUZZ_GROUP]: ['hooks', 'integrator', 'bot'],
};

/**
 * The same for a flag that not every suite of its group reads (or that has no group). The
 * label its description starts with says the same (`hooks, integrator: ...`), held to this by
 * the conform option table's test: `--help` and the check of another suite's flag agree.
 */
export const FLAG_SUITES: Readonly<Record<string, readonly string[]>> = {
  '--url': ['integrator', 'hooks', 'bot'],
  // bot: the provider under test's; platform, with --bot-listen-port: conform's own bot's
  '--token': ['platform', 'bot'],
  '--provider-id': ['platform', 'bot'],
  // platform: every rule; bot: the bot's side of two (src/trace/peer-rules.ts); in hooks and
  // integrator no rule judges the peer's answers, so there is nothing to switch off
  '--no-invariant': ['platform', 'bot'],
  // the bot's fuzz sends one generated customer message per case, not a mutated sample nor
  // a chat's sequence (src/conversation/conform/fuzz/bot.ts)
  '--fuzz-changes': ['hooks', 'integrator'],
  '--fuzz-stateful': ['hooks', 'integrator'],
  // hooks: the one chat its events are about, a fresh one each run as the bot's; integrator:
  // the message ids, fresh each run
  '--run-id': ['bot', 'hooks', 'integrator'],
};

/**
 * The suites that read a flag (its long name and help group), or undefined for every suite.
 * @example suitesReading('--channel-url', 'platform:') // ['platform']
 */
export function suitesReading(
  long: string | undefined,
  group: string | undefined,
): readonly string[] | undefined {
  return (long ? FLAG_SUITES[long] : undefined) ?? (group ? GROUP_SUITES[group] : undefined);
}

export const conformOptions = defineOptions('conform', [
  {
    key: 'url',
    flag: '--url <url>',
    type: 'url',
    // a hook URL is posted to as given; the integrator's and the provider's have a path
    // joined to them (spec 4.2, 4.3), which drops their trailing slash there
    asGiven: true,
    // one key for every suite would post a hook URL's traffic to an integrator: each suite's
    // own key is read when --url is not given
    config: false,
    configInstead:
      'set the URL of each suite under test: integratorUrl, hookUrl or botProviderUrl (read when --url is not given)',
    description:
      'the endpoint under test: integrator_url (spec 4.2), hook URL (spec 4.4) or bot_provider_url (spec 4.3)',
  },
  WAIT_OPTION,
  {
    ...PROFILE_OPTION,
    description:
      'the platform to play: spec, docs or a profile file from record profile (payloads in its forms, its bot policy and events; conform platform expects its channel schedule)',
  },
  {
    key: 'integratorUrl',
    flag: '--integrator-url <url>',
    type: 'url',
    env: 'SVC_INTEGRATOR_URL',
    group: 'integrator:',
    description: 'integrator: the endpoint under test when --url is not given',
  },
  {
    key: 'channel',
    flag: '--channel <id>',
    type: 'string',
    default: 'conform',
    group: 'integrator:',
    description: 'integrator: the channel public id in the path',
  },
  {
    ...HOOK_URL_OPTION,
    group: 'hooks:',
    description: 'hooks: the receiver under test when --url is not given',
  },
  {
    ...TIMEOUT_OPTION,
    group: 'hooks:',
    description: 'hooks: protocol time a reply may take: ms, or with a unit (10s) (an assumption)',
  },
  {
    key: 'events',
    flag: '--events <list>',
    type: 'list',
    config: false,
    group: 'hooks:',
    description:
      'hooks: only these events, comma-separated or repeated (default every one): an account without calls never sends call_event; offline_message covers both its spellings',
  },
  {
    key: 'botProviderUrl',
    flag: '--bot-provider-url <url>',
    type: 'url',
    env: 'SVC_BOT_PROVIDER_URL',
    group: 'bot:',
    description: 'bot: the provider under test when --url is not given',
  },
  {
    key: 'token',
    flag: '--token <token>',
    type: 'string',
    env: 'SVC_BOT_TOKEN',
    secret: true,
    description:
      "bot: the token the provider generated (spec 5.2); platform, with --bot-listen-port: the token set on the platform's bot channel, which conform's bot accepts and posts with (default svc-conform-bot)",
  },
  {
    key: 'providerId',
    flag: '--provider-id <id>',
    type: 'string',
    default: 'svc-conform',
    description:
      "bot: the provider id; platform, with --bot-listen-port: the provider id the platform knows conform's bot by (spec 4.3)",
  },
  {
    key: 'text',
    flag: '--text <text>',
    type: 'list',
    config: false,
    group: 'bot:',
    description:
      'bot: what the customer says, sent in turn as CLIENT_MESSAGEs, each after the answer to the last (default one greeting); a bot scripted on intents needs its own',
  },
  {
    key: 'script',
    flag: '--script <file>',
    type: 'path',
    config: false,
    group: 'bot:',
    description:
      'bot: the customer texts from a file: one per line (# comments), or a JSON array of strings; before any --text',
  },
  {
    key: 'platformListenPort',
    flag: '--platform-listen-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    default: 0,
    group: 'bot:',
    description: 'bot: port of the embedded platform the bot posts to (0 = any)',
  },
  {
    ...botEventsOption(
      "bot: docs also sends the public Bot API's CHAT_CLOSED (a refusal is a warning) and checks any CLIENT_INFO the bot sends",
    ),
    group: 'bot:',
  },
  {
    key: 'runId',
    flag: '--run-id <n>',
    type: 'int',
    min: 1,
    max: 999_999,
    group: 'bot:',
    description:
      "bot, hooks: this run's chat and client ids start from it (chat <n>001, client <n>501; conform hooks sends every event about chat <n>001, --fuzz-stateful numbers its sequences' chats from it); integrator: its message ids are conform-<n>-1, conform-<n>-2 ... (--fuzz: fuzz-<n>-1 ...); default random, printed. Ids are unique in the account (spec 2.2, 6.2): a bot, hook receiver or integrator with a database sees each run's chats and messages as new",
  },
  {
    key: 'answerWithin',
    flag: '--answer-within <time>',
    type: 'int',
    min: 1,
    default: 10_000,
    unit: 'ms',
    duration: true,
    group: 'bot:',
    description:
      "bot: protocol time the bot's answer to a customer message may take: ms, or with a unit (10s) (an assumption)",
  },
  {
    ...CHANNEL_URL_OPTION,
    group: 'platform:',
    description: 'platform: the channel URL, <base>/<random_string>/<channel_public_id> (spec 4.1)',
  },
  {
    key: 'integratorListenPort',
    flag: '--integrator-listen-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    default: 0,
    group: 'platform:',
    description: 'platform: port of the embedded listen that watches redelivery (0 = any)',
  },
  {
    key: 'controlToken',
    flag: '--control-token <token>',
    type: 'string',
    env: 'SVC_CONTROL_TOKEN',
    secret: true,
    group: 'platform:',
    description:
      "platform: the svc simulator's control token, for one started with --control-token or a non-loopback --host (its banner prints it)",
  },
  {
    key: 'tolerance',
    flag: '--tolerance <ms>',
    type: 'int',
    min: 0,
    default: 1000,
    env: 'SVC_TOLERANCE',
    group: 'platform:',
    description:
      'platform: protocol ms an attempt may be early or late (a busy CI runner may want 2000)',
  },
  {
    key: 'hookListenPort',
    flag: '--hook-listen-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    group: 'platform:',
    description:
      "platform: serve a hook receiver on this port (0 = any) and point the platform's hooks at it: the invariants then read the hooks too (chat_finished's transcript, nothing after it)",
  },
  {
    key: 'botListenPort',
    flag: '--bot-listen-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    group: 'platform:',
    description:
      "platform: serve a bot provider on this port (0 = any) that hands each chat over with INVITE_AGENT; attach it to the platform's channel with --token and --provider-id (an svc simulator: svc-cli platform --bot-provider-url http://127.0.0.1:<port> --bot-token svc-conform-bot --provider-id svc-conform): the invariants then read what the platform sent the bot (AGENT_JOINED only after a hand-over)",
  },
  {
    key: 'botApiUrl',
    flag: '--bot-api-url <url>',
    type: 'url',
    group: 'platform:',
    description:
      "platform, with --bot-listen-port: the platform's bot service, where conform's bot posts INVITE_AGENT (spec 4.3: <base>/webhooks/<provider_id>/<token>); <base> is by default the channel URL's base, as an svc simulator serves it",
  },
  {
    key: 'record',
    flag: '--record <file>',
    type: 'path',
    config: false,
    group: 'platform:',
    description:
      'platform: append what the run saw of its chats, as the platform would journal it, to this NDJSON file (svc-cli trace, svc-cli report)',
  },
  {
    key: 'report',
    flag: '--report <file>',
    type: 'path',
    config: false,
    description:
      'also write an HTML report: every case, the failed ones first with what failed; platform and bot: a swimlane timeline per chat the run saw, broken invariants in red (svc-cli report)',
  },
  {
    ...NO_INVARIANT_OPTION,
    description: `platform, bot: do not check this invariant on the conversations the run saw (${INVARIANT_LIST}; bot checks bot-after-close and handover-budget on the bot's side)`,
  },
  ...REPORT_OPTIONS,
  {
    ...STRICT_OPTION,
    description:
      'a warning (a field the spec spells otherwise, a malformed event answered 200, an error object in a reply) fails its check: exit 1',
  },
  {
    key: 'fuzz',
    flag: '--fuzz <n>',
    type: 'int',
    min: 1,
    group: FUZZ_GROUP,
    description:
      'instead of the fixed cases: n payloads generated from the contract, each delivered and redelivered; a failure is shrunk',
  },
  {
    key: 'fuzzChanges',
    flag: '--fuzz-changes <n>',
    type: 'number',
    min: 0.5,
    max: 50,
    default: 2,
    group: FUZZ_GROUP,
    description:
      'hooks, integrator: places a generated case changes in the valid sample, on average; every run first sends each plain sample and each edge of the generator alone',
  },
  {
    key: 'fuzzStateful',
    flag: '--fuzz-stateful',
    type: 'boolean',
    group: FUZZ_GROUP,
    description:
      "hooks, integrator: each case is one chat's sequence of 2-8 payloads (hooks in lifecycle order), delivered in turn",
  },
  {
    key: 'fuzzTime',
    flag: '--fuzz-time <time>',
    type: 'string',
    duration: 's',
    group: FUZZ_GROUP,
    description:
      'generate cases for this long instead of a count (60s, 2m); with --fuzz, whichever ends first',
  },
  {
    key: 'seed',
    flag: '--seed <n>',
    type: 'int',
    group: FUZZ_GROUP,
    description:
      'the generator seed (default: random, printed); the same seed gives the same payloads',
  },
  {
    key: 'fuzzPath',
    flag: '--fuzz-path <path>',
    type: 'string',
    config: false,
    group: FUZZ_GROUP,
    description: 'with --seed: replay exactly the failing case a run printed',
  },
  {
    key: 'replayFailures',
    flag: '--replay-failures <dir>',
    type: 'path',
    default: '.svc/failures',
    group: FUZZ_GROUP,
    description: 'where a failing case is written, with the command that reproduces it',
  },
] as const satisfies readonly OptionSpec[]);
