/** The option table of `svc-cli proxy channel|bot|hooks` (table.ts). */
import {
  FAULT_PLAN_OPTION,
  QUIET_OPTION,
  RECORD_OPTIONS,
  SERVING_OPTIONS,
  STRICT_OPTION,
  TLS_OPTIONS,
  PROFILE_OPTION,
  INVARIANT_LIST,
  NO_INVARIANT_OPTION,
  faultOptions,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

export const proxyOptions = defineOptions('proxy', [
  ...SERVING_OPTIONS,
  {
    key: 'platformUrl',
    flag: '--platform-url <url>',
    type: 'url',
    group: 'Upstreams:',
    description:
      'channel: the channel URL the platform shows (spec 1.3); bot: the bot service base URL (spec 4.3)',
  },
  {
    key: 'integratorUrl',
    flag: '--integrator-url <url>',
    type: 'url',
    group: 'Upstreams:',
    description: "channel: your integrator's agent-message endpoint (spec 4.2)",
  },
  {
    key: 'providerUrl',
    flag: '--provider-url <url>',
    type: 'url',
    group: 'Upstreams:',
    description: "bot: your bot provider's URL; the platform posts to <url>/<token> (spec 4.3)",
  },
  {
    key: 'receiverUrl',
    flag: '--receiver-url <url>',
    type: 'url',
    group: 'Upstreams:',
    description: 'hooks: your hook receiver (spec 4.4)',
  },
  {
    key: 'upstreamTimeout',
    flag: '--upstream-timeout <ms>',
    type: 'int',
    min: 1,
    default: 60_000,
    unit: 'ms',
    group: 'Upstreams:',
    description:
      'answer 504 when an upstream is silent this long (protocol ms; the spec budgets are judged apart)',
  },
  ...TLS_OPTIONS,
  {
    key: 'faultOn',
    flag: '--fault-on <leg>',
    type: 'choice',
    choices: ['platform', 'integrator', 'provider', 'receiver'],
    group: 'Faults:',
    description:
      'the leg faults apply to (default: the one the platform calls: integrator, provider, receiver)',
  },
  ...faultOptions(
    'answer the first N attempts of each message with HTTP 500 instead of forwarding them',
  ),
  FAULT_PLAN_OPTION,
  ...RECORD_OPTIONS,
  // the proxy's summary is what a smoke job reads: --quiet keeps it, unlike the other servers
  {
    ...QUIET_OPTION,
    description:
      'print only its start-up lines, warnings, errors and the summary when it stops: no line per exchange that passed; one that broke the contract or was not accepted prints (--record still records every exchange)',
  },
  STRICT_OPTION,
  {
    key: 'failOnViolation',
    flag: '--fail-on-violation',
    type: 'boolean',
    description:
      'exit 1 at the end when any exchange broke the contract, the platform gave up on a message the upstream never answered validly, or a conversation broke an invariant (for staging smoke jobs)',
  },
  {
    ...NO_INVARIANT_OPTION,
    description: `do not check this invariant on the conversations passing through (${INVARIANT_LIST})`,
  },
  {
    ...PROFILE_OPTION,
    description:
      'place redelivery attempts against this profile (spec, docs or a file from record profile): one off its schedule or beyond its attempts is flagged',
  },
] as const satisfies readonly OptionSpec[]);
