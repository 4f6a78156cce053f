/**
 * Which global options each command reads. A command's `--help` lists these under "Global
 * Options:" (program.ts), so `svc-cli validate --help` does not offer `--time-scale`, which it
 * never reads, and `svc-cli send-text --help` shows `--ca` and `--insecure`, which it does.
 * Plain data: `--help` loads it (start-up is a feature).
 */
import type { GLOBAL_OPTIONS } from './table.js';

export type GlobalKey = (typeof GLOBAL_OPTIONS)[number]['key'];

/** Every command prints through the same output: --json and --no-color hold everywhere. */
const OUTPUT: readonly GlobalKey[] = ['json', 'color'];
/** Reads svc.config.json. */
const CONFIG: readonly GlobalKey[] = [...OUTPUT, 'config'];
/** Calls https:// URLs: the trust flags apply to them. */
const CLIENT: readonly GlobalKey[] = ['ca', 'insecure'];
/** Runs protocol timers (spec timeouts, redelivery, typing expiry). */
const TIMED: readonly GlobalKey[] = [...CONFIG, 'timeScale'];

/**
 * The globals each command honours, by its name (a subcommand by `parent sub`). A command
 * missing here lists every global: a new command shows too much rather than too little.
 */
export const HONOURED_GLOBALS: Readonly<Record<string, readonly GlobalKey[]>> = {
  platform: [...TIMED, ...CLIENT, 'showSecrets'],
  proxy: [...TIMED, ...CLIENT, 'showSecrets'],
  'bot-sim': [...TIMED, ...CLIENT, 'showSecrets'],
  conform: [...TIMED, ...CLIENT, 'showSecrets'],
  load: [...TIMED, ...CLIENT, 'showSecrets'],
  chat: [...TIMED, ...CLIENT, 'showSecrets'],
  replay: [...TIMED, ...CLIENT],
  'send-text': [...TIMED, ...CLIENT],
  'send-media': [...TIMED, ...CLIENT],
  'send-location': [...TIMED, ...CLIENT],
  typing: [...TIMED, ...CLIENT],
  status: [...TIMED, ...CLIENT],
  'hook-fire': [...TIMED, ...CLIENT],
  listen: [...TIMED, 'showSecrets'],
  'hook-target': [...TIMED, 'showSecrets'],
  widget: TIMED,
  doctor: [...CONFIG, ...CLIENT, 'showSecrets'],
  config: [...CONFIG, 'showSecrets'],
  validate: CONFIG,
  schema: CONFIG,
  explain: CONFIG,
  record: CONFIG,
  'record to-fixture': CONFIG,
  trace: CONFIG,
  report: CONFIG,
  'record diff': CONFIG,
  'record profile': CONFIG,
  coverage: CONFIG,
  mutate: CONFIG,
  // writes the config file; reads none
  init: OUTPUT,
  // prints a shell script: no output format, no config
  completion: [],
};
