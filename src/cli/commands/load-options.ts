/** The option table of `svc-cli load` (table.ts). */
import { CHANNEL_URL_OPTION, WAIT_OPTION } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';
import { REPORT_OPTIONS } from './conform-options.js';

const SHAPE = 'Workload:';

export const loadOptions = defineOptions('load', [
  {
    key: 'url',
    flag: '--url <url>',
    type: 'url',
    // as conform's --url: the hook URL as given, the others joined to a path
    asGiven: true,
    config: false,
    description:
      'integrator: the integrator_url (spec 4.2); hooks: the hook URL (4.4); bot: the bot_provider_url (4.3)',
  },
  {
    ...CHANNEL_URL_OPTION,
    description: 'channel: the channel URL, <base>/<random_string>/<channel_public_id> (spec 4.1)',
  },
  {
    key: 'channel',
    flag: '--channel <id>',
    type: 'string',
    default: 'load',
    description: 'integrator: the channel public id in the path',
  },
  {
    key: 'token',
    flag: '--token <token>',
    type: 'string',
    env: 'SVC_BOT_TOKEN',
    secret: true,
    description: 'bot: the token, the last path segment (spec 5.2)',
  },
  { ...WAIT_OPTION, config: false },
  {
    key: 'rate',
    flag: '--rate <rate>',
    type: 'string',
    default: '10/s',
    group: SHAPE,
    description:
      'arrivals per second, minute or hour: 200/s, 6000/m, 100/h; a number alone is per second; at most 1000000/s',
  },
  {
    key: 'duration',
    flag: '--duration <time>',
    type: 'string',
    duration: 's',
    default: '10s',
    group: SHAPE,
    description: 'how long arrivals go on: 60s, 2m',
  },
  {
    key: 'count',
    flag: '--count <n>',
    type: 'int',
    min: 1,
    group: SHAPE,
    description: 'send exactly n payloads instead of --duration',
  },
  {
    key: 'rampUp',
    flag: '--ramp-up <time>',
    type: 'string',
    duration: 's',
    group: SHAPE,
    description: 'grow the rate from 0 over this time (default 0)',
  },
  {
    key: 'customers',
    flag: '--customers <n>',
    type: 'int',
    min: 1,
    max: 10_000_000,
    default: 100,
    group: SHAPE,
    description: 'distinct customers / chats the payloads cycle through',
  },
  {
    key: 'mix',
    flag: '--mix <kinds|path>',
    type: 'string',
    group: SHAPE,
    description:
      'payload kinds with weights (text=80,photo=10,typing=10) or conversation fixtures whose customer steps are the templates (channel)',
  },
  {
    key: 'thinkTime',
    flag: '--think-time <time>',
    type: 'string',
    duration: 's',
    group: SHAPE,
    description:
      "channel: each arrival is one customer's whole conversation (--mix fixtures or kinds), its messages this far apart",
  },
  {
    key: 'events',
    flag: '--events <list>',
    type: 'string',
    group: SHAPE,
    description: 'hooks: events to send in turn, comma-separated (default the chat lifecycle)',
  },
  {
    key: 'invalid',
    flag: '--invalid <share>',
    type: 'string',
    group: SHAPE,
    description: 'send this share broken on purpose, reported apart: 1%',
  },
  {
    key: 'maxInFlight',
    flag: '--max-in-flight <n>',
    type: 'int',
    min: 1,
    max: 100_000,
    group: SHAPE,
    description:
      'payloads under way at once (default: rate x the whole redelivery series); more are "not sent"',
  },
  {
    key: 'threshold',
    flag: '--threshold <expr>',
    type: 'list',
    description:
      "fail (exit 1) unless it holds: 'p99<500ms', 'max<=3s', 'failed<0.1%', 'redelivered<1%', 'rate>=190/s'; a time without a unit is ms, a share without % a fraction (0.01 = 1%)",
  },
  {
    key: 'abortOnFail',
    flag: '--abort-on-fail',
    type: 'boolean',
    description: 'stop as soon as a latency, failed or redelivered threshold is broken',
  },
  {
    key: 'calibrate',
    flag: '--no-calibrate',
    type: 'boolean',
    default: true,
    description: "skip measuring this machine's capacity first",
  },
  REPORT_OPTIONS[0],
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the junit or json report (or the --export script) here',
  },
  {
    key: 'report',
    flag: '--report <file>',
    type: 'path',
    config: false,
    description:
      'also write an HTML report: the thresholds (broken ones in red), the final states, latency percentile bars per attempt and end to end, and swimlanes of the first 50 conversations',
  },
  {
    key: 'export',
    flag: '--export <engine>',
    type: 'choice',
    choices: ['locust'],
    config: false,
    description: 'write the same scenario for a distributed engine instead of running it',
  },
] as const satisfies readonly OptionSpec[]);
