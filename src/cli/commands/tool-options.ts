/** The option tables of init, doctor, schema, explain, validate and record to-fixture (table.ts). */
import { ROLE_NAMES } from '../options/roles.js';
import { CHANNEL_URL_OPTION, PROFILE_OPTION } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

/** The URLs a project's config names, one per role (`init` writes them, `doctor` probes them). */
const PROJECT_URLS = [
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

export const initOptions = defineOptions(
  'init',
  [
    {
      key: 'role',
      flag: '--role <role>',
      type: 'choice',
      choices: ROLE_NAMES,
      default: 'integrator',
      config: false,
      description: 'the part you play',
    },
    ...PROJECT_URLS,
    {
      key: 'senderId',
      flag: '--sender-id <id>',
      type: 'string',
      config: false,
      description: 'the customer id to send as',
    },
    {
      key: 'yes',
      flag: '-y, --yes',
      type: 'boolean',
      config: false,
      description: 'ask nothing: use the flags and defaults (also without a TTY)',
    },
    {
      key: 'force',
      flag: '--force',
      type: 'boolean',
      config: false,
      description: 'overwrite an existing config file',
    },
  ] as const satisfies readonly OptionSpec[],
  // init writes the file: it reads neither that file nor SVC_* values into it
  { readsConfig: false },
);

export const doctorOptions = defineOptions('doctor', [
  ...PROJECT_URLS,
  {
    ...PROFILE_OPTION,
    description: 'the platform profile to check and show (spec, docs or a profile file)',
  },
  {
    key: 'timeout',
    flag: '--timeout <ms>',
    type: 'int',
    min: 1,
    default: 2000,
    config: false,
    description: 'wait at most this long per URL',
  },
] as const satisfies readonly OptionSpec[]);

export const schemaOptions = defineOptions('schema', [
  {
    key: 'kind',
    flag: '-k, --kind <kind>',
    type: 'string',
    config: false,
    description: 'only this kind',
  },
  {
    key: 'out',
    flag: '-o, --out <dir>',
    type: 'path',
    config: false,
    description:
      'write one <kind>.schema.json per kind into this folder (with --kind, a path ending in .json is the file)',
  },
  {
    key: 'list',
    flag: '-l, --list',
    type: 'boolean',
    config: false,
    description: 'list the kinds: name, interface, spec section, description',
  },
  {
    key: 'format',
    flag: '-f, --format <format>',
    type: 'choice',
    choices: ['json-schema', 'openapi', 'asyncapi', 'markdown'],
    default: 'json-schema',
    config: false,
    description:
      'json-schema (one per kind), openapi (OpenAPI 3.1 of every HTTP endpoint), asyncapi (AsyncAPI 3.0 of the event flows) or markdown (the contract reference, docs/CONTRACT.md)',
  },
  {
    key: 'role',
    flag: '--role <role>',
    type: 'choice',
    choices: ['platform', 'integrator', 'bot-provider', 'hook-receiver'],
    config: false,
    description:
      "with --format openapi: only this party's side, as paths for a mock or a test tool",
  },
] as const satisfies readonly OptionSpec[]);

/** `explain` takes its topic as arguments; --json is global. */
export const explainOptions = defineOptions('explain', [] as const satisfies readonly OptionSpec[]);

export const validateOptions = defineOptions('validate', [
  {
    key: 'kind',
    flag: '-k, --kind <kind>',
    type: 'string',
    config: false,
    description: 'validate as this kind instead of detecting it (see: schema --list)',
  },
  {
    key: 'strict',
    flag: '--strict',
    type: 'boolean',
    description:
      "warnings (unknown fields, the platform's type drift, null optional fields, text cut) count as errors",
  },
  {
    key: 'checkExpectations',
    flag: '--check-expectations',
    type: 'boolean',
    config: false,
    description:
      'compare each sample with its file name (.valid/.warning/.invalid) and <name>.expect.json; exit 0 when all match',
  },
] as const satisfies readonly OptionSpec[]);

export const toFixtureOptions = defineOptions('record to-fixture', [
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the conversation here (default: stdout)',
  },
  {
    key: 'name',
    flag: '--name <name>',
    type: 'string',
    config: false,
    description: 'the conversation name (default: from the file name)',
  },
] as const satisfies readonly OptionSpec[]);

export const recordDiffOptions = defineOptions('record diff', [
  {
    key: 'timingTolerance',
    flag: '--timing-tolerance <duration>',
    type: 'string',
    default: '250ms',
    description: 'timing figures closer than this are the same (ms, s)',
  },
] as const satisfies readonly OptionSpec[]);
export const recordProfileOptions = defineOptions('record profile', [
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the profile here (default: stdout)',
  },
  {
    key: 'name',
    flag: '--name <name>',
    type: 'string',
    config: false,
    description: 'the profile name (default: from the first recording)',
  },
] as const satisfies readonly OptionSpec[]);

export const coverageOptions = defineOptions('coverage', [
  {
    key: 'min',
    flag: '--min <percent>',
    type: 'number',
    min: 0,
    max: 100,
    config: false,
    description: 'exit 1 when the overall coverage is below this percentage',
  },
  {
    key: 'junit',
    flag: '--junit <file>',
    type: 'path',
    config: false,
    description: 'also write the figures as JUnit properties (one test case: the --min gate)',
  },
  {
    key: 'uncovered',
    flag: '--uncovered',
    type: 'boolean',
    config: false,
    description: 'list every item the run did not exercise, under its interface',
  },
] as const satisfies readonly OptionSpec[]);

export const mutateOptions = defineOptions('mutate', [
  {
    key: 'list',
    flag: '-l, --list',
    type: 'boolean',
    config: false,
    description:
      'list the mutants: name, family, spec section, what changes, what a survivor means',
  },
  {
    key: 'jobs',
    flag: '--jobs <n>',
    type: 'int',
    min: 1,
    max: 64,
    default: 1,
    description:
      'mutants run at once (default 1: raise it when your suite binds no fixed port and starts its own simulator)',
  },
  {
    key: 'only',
    flag: '--only <names>',
    type: 'list',
    config: false,
    description: 'only these mutants: names, families or spec sections, comma-separated',
  },
  {
    key: 'skip',
    flag: '--skip <names>',
    type: 'list',
    config: false,
    description: 'leave these mutants out: names, families or spec sections, comma-separated',
  },
  {
    key: 'timeout',
    flag: '--timeout <ms>',
    type: 'int',
    min: 1,
    config: false,
    description:
      "stop a mutant's run after this long, counted as timed out (default 3x the clean run + 5 s)",
  },
  {
    key: 'coverage',
    flag: '--coverage <recording>',
    type: 'list',
    config: false,
    description:
      "your suite's recording (as svc-cli coverage reads it): mutants it never exercises are reported as such, not run",
  },
  {
    key: 'minScore',
    flag: '--min-score <percent>',
    type: 'number',
    min: 0,
    max: 100,
    config: false,
    description: 'exit 1 when the mutation score is below this percentage',
  },
  {
    key: 'junit',
    flag: '--junit <file>',
    type: 'path',
    config: false,
    description:
      'also write JUnit XML: a test case per mutant (a survivor fails, one never exercised is skipped), the score as properties',
  },
  {
    key: 'report',
    flag: '--report <file>',
    type: 'path',
    config: false,
    description:
      "also write an HTML report: a card per mutant, survivors in red, then the --coverage recording's conversations (svc-cli report)",
  },
] as const satisfies readonly OptionSpec[]);
