/** The option table of `svc-cli replay` (table.ts). */
import { INVARIANT_LIST, MUTANT_OPTION, PROFILE_OPTION, WAIT_OPTION } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';
import { REPORT_OPTIONS } from './conform-options.js';

// The real-peer URLs are flags only: a config file written for `platform` must never point a
// replay (npm start, CI) at a real endpoint by surprise.
const PEERS = 'Real peers (real time):';

/** The invariants' names, spelled here: --help must not load the trace core (conventions 13). */
export const replayOptions = defineOptions('replay', [
  {
    ...PROFILE_OPTION,
    description:
      'what the embedded platform follows beyond the spec: spec, docs or a profile file (not with --platform-url: that simulator runs its own)',
  },
  {
    key: 'integratorUrl',
    flag: '--integrator-url <url>',
    type: 'url',
    config: false,
    group: PEERS,
    description: 'a real integrator endpoint instead of the embedded listen',
  },
  {
    key: 'botUrl',
    flag: '--bot-url <url>',
    type: 'url',
    config: false,
    group: PEERS,
    description: 'a real bot provider instead of the embedded bot-sim',
  },
  {
    key: 'hookUrl',
    flag: '--hook-url <url>',
    type: 'url',
    asGiven: true,
    config: false,
    group: PEERS,
    description: 'a real hook receiver instead of the embedded hook-target',
  },
  {
    key: 'botToken',
    flag: '--bot-token <token>',
    type: 'string',
    config: false,
    group: PEERS,
    description:
      "with --bot-url: the token your bot was given (events go to <bot url>/<token>), for every conversation; default each one's setup.bot.token, else conversation-token",
  },
  {
    key: 'botProviderId',
    flag: '--bot-provider-id <id>',
    type: 'string',
    config: false,
    group: PEERS,
    description:
      "with --bot-url: your bot's provider id (it posts to /webhooks/<id>/...), for every conversation; default each one's setup.bot.providerId, else conversation-provider",
  },
  {
    key: 'platformPort',
    flag: '--platform-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    config: false,
    group: PEERS,
    description:
      'with a real peer: the port the embedded platform listens on (a real bot posts its answers to http://127.0.0.1:<port>/webhooks/...); default any free port',
  },
  {
    key: 'runId',
    flag: '--run-id <n>',
    type: 'int',
    min: 1,
    max: 999_999,
    config: false,
    group: PEERS,
    description:
      'with a real peer: number chats from <n>001 and clients from <n>501 (the next conversation takes <n>+1); default a random run id, printed, so a peer with a database sees new chats on every run',
  },
  {
    key: 'platformUrl',
    flag: '--platform-url <url>',
    type: 'url',
    config: false,
    group: PEERS,
    description:
      'a running svc simulator (svc-cli platform) instead of the embedded one: customer, agent and control steps and event expectations run; integrator, bot and hook expectations are skipped',
  },
  {
    ...WAIT_OPTION,
    config: false,
    group: PEERS,
    description:
      'wait up to this long for each real peer named to accept connections: one started in the background just before (10s, 500ms); default: start at once',
  },
  {
    key: 'controlToken',
    flag: '--control-token <token>',
    type: 'string',
    env: 'SVC_CONTROL_TOKEN',
    secret: true,
    group: PEERS,
    description:
      "with --platform-url: the simulator's control token, for one started with --control-token or a non-loopback --host (its banner prints it)",
  },
  {
    key: 'grep',
    flag: '--grep <pattern>',
    type: 'string',
    config: false,
    description: 'only conversations whose name or file matches (a regular expression)',
  },
  {
    key: 'bail',
    flag: '--bail',
    type: 'boolean',
    description: 'stop at the first failing conversation',
  },
  {
    key: 'concurrency',
    flag: '--concurrency <n>',
    type: 'int',
    min: 1,
    description:
      'conversations replayed at once, each in its own world (default 4; 1 with a real peer)',
  },
  {
    key: 'seed',
    flag: '--seed <n>',
    type: 'int',
    min: -2_147_483_648,
    max: 4_294_967_295,
    description: 'seed for everything random (fault rates)',
  },
  {
    key: 'verbose',
    flag: '--verbose',
    type: 'boolean',
    description:
      'print every step of every conversation and what it gave (the payload matched, the delivery; --json for all of it) (default: one line per green one)',
  },
  MUTANT_OPTION,
  {
    key: 'record',
    flag: '--record <file>',
    type: 'path',
    config: false,
    description:
      "append every conversation's exchanges to this NDJSON journal (read it with svc-cli trace)",
  },
  {
    key: 'invariant',
    flag: '--no-invariant <name>',
    type: 'list',
    config: false,
    description: `do not check this invariant (${INVARIANT_LIST}); every other one is checked on each conversation`,
  },
  {
    key: 'report',
    flag: '--report <file>',
    type: 'path',
    config: false,
    description:
      'also write an HTML report: a swimlane timeline per conversation, broken invariants in red (svc-cli report)',
  },
  ...REPORT_OPTIONS,
] as const satisfies readonly OptionSpec[]);
