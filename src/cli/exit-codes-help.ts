/**
 * The exit codes of every command as data, one table per command: `--help` prints its
 * "Exit codes:" paragraph from here (commands/spec.ts `addCommand`), so no help text states a
 * code by hand and drifts from EXIT_CODES. Part of the start-up bundle: plain data.
 */
import { EXIT_CODES } from '../errors.js';

export interface ExitCodeRow {
  /** a code of EXIT_CODES, or several with one meaning (130/143) */
  readonly codes: readonly number[];
  readonly meaning: string;
}

const { ok, contract, input, network, internal, system, sigint, sigterm } = EXIT_CODES;

const row = (codes: number | readonly number[], meaning: string): ExitCodeRow => ({
  codes: typeof codes === 'number' ? [codes] : codes,
  meaning,
});

const INPUT = row(input, 'bad flags or input');
const UNREACHABLE = row(network, 'the peer is unreachable or timed out');
const STOPPED = row([sigint, sigterm], 'stopped by Ctrl-C or SIGTERM');
/** a serving command: it runs until stopped */
const SERVING: readonly ExitCodeRow[] = [STOPPED, INPUT];
const SEND: readonly ExitCodeRow[] = [
  row(ok, 'delivered (HTTP 200); with --force, a flagged payload the platform refused (4xx)'),
  row(contract, 'the platform refused it (404: no channel at that URL)'),
  row(input, 'invalid flags or payload (without --force)'),
  row(network, 'the platform is unreachable or timed out'),
];

/** Codes every command may end with, listed after its own unless its table names them. */
export const COMMON_EXIT_CODES: readonly ExitCodeRow[] = [
  row(input, 'usage or input error'),
  row(internal, 'a bug in svc-cli'),
  row(system, 'the machine failed under the run (disk full, too many open files)'),
  STOPPED,
];

/** Each command's own codes, by its path as typed (`record diff`). */
export const COMMAND_EXIT_CODES: Readonly<Record<string, readonly ExitCodeRow[]>> = {
  replay: [
    row(ok, 'every conversation passed'),
    row(contract, 'a conversation failed'),
    row(input, 'a fixture or flag is invalid'),
    row(network, 'a real peer is unreachable'),
    row([sigint, sigterm], 'interrupted (--out and --report are still written)'),
  ],
  conform: [
    row(ok, 'every case passed'),
    row(contract, 'a case failed (a reply too slow is a failed case)'),
    INPUT,
    UNREACHABLE,
  ],
  'record to-fixture': [row(ok, 'the fixture was written'), INPUT],
  'record diff': [row(ok, 'no behaviour difference'), row(contract, 'a behaviour difference')],
  'record profile': [row(ok, 'the profile was written'), INPUT],
  trace: [
    row(ok, 'no invariant broken'),
    row(contract, 'a conversation broke an invariant'),
    INPUT,
  ],
  report: [
    row(ok, 'the report was written'),
    row(contract, 'a conversation broke an invariant'),
    INPUT,
  ],
  coverage: [
    row(ok, 'ok'),
    row(contract, 'below --min'),
    row(input, 'a recording could not be read'),
  ],
  mutate: [
    row(ok, 'ok'),
    row(contract, 'score below --min-score'),
    row(input, 'the clean run failed or a bad flag'),
  ],
  load: [
    row(ok, 'every threshold held'),
    row(contract, 'a threshold failed'),
    INPUT,
    row(network, 'the target is unreachable'),
  ],
  platform: SERVING,
  proxy: [
    STOPPED,
    row(
      contract,
      'with --fail-on-violation: an exchange broke the contract, the platform gave up on a message the upstream never answered validly (refused, reset, too slow, an error status; not what --fault did), or a conversation broke an invariant',
    ),
    INPUT,
  ],
  'bot-sim': SERVING,
  validate: [
    row(ok, 'all valid (warnings allowed)'),
    row(contract, 'any invalid (or, with --check-expectations, a sample not as its name says)'),
    row(input, 'an input unreadable (the other inputs are still validated)'),
  ],
  schema: [row(ok, 'ok'), INPUT],
  explain: [row(ok, 'ok'), row(input, 'no topic by that name')],
  'send-text': SEND,
  'send-media': SEND,
  'send-location': SEND,
  typing: SEND,
  status: [
    row(ok, 'online or offline'),
    row(contract, '404 (no channel at that URL) or a body other than 0/1'),
    row(input, 'invalid flags'),
    row(network, 'the platform is unreachable or timed out'),
  ],
  listen: SERVING,
  'hook-fire': [
    row(ok, 'every reply conforms'),
    row(contract, 'a reply breaks the contract'),
    INPUT,
    row(network, 'the receiver is unreachable or timed out'),
  ],
  'hook-target': SERVING,
  widget: SERVING,
  chat: [
    row(ok, 'after /quit or end of input when every message went through'),
    row(contract, 'the platform refused a message'),
    row(input, 'invalid flags'),
    row(network, 'the platform was unreachable'),
    row(sigint, 'Ctrl-C'),
  ],
  init: [row(ok, 'the file was written'), row(input, 'it exists already or a bad answer')],
  config: [row(ok, 'every value valid'), row(input, 'a value (or the file) is invalid')],
  doctor: [
    row(ok, 'all passed'),
    row(contract, 'a check failed'),
    row(network, 'a URL is unreachable or timed out (and nothing else failed)'),
  ],
  completion: [row(ok, 'ok'), INPUT],
};

/**
 * The "Exit codes:" paragraph of a command's `--help`: its own codes, then the common ones it
 * does not name; undefined for a command without a table (a group of subcommands).
 * @example exitCodesHelp('coverage') // 'Exit codes: 0 ok, 1 below --min, 2 ...'
 */
export function exitCodesHelp(path: string): string | undefined {
  const own = COMMAND_EXIT_CODES[path];
  if (own === undefined) return undefined;
  const named = new Set(own.flatMap((r) => r.codes));
  const common = COMMON_EXIT_CODES.filter((r) => !r.codes.some((code) => named.has(code)));
  const text = (rows: readonly ExitCodeRow[]) =>
    rows.map((r) => `${r.codes.join('/')} ${r.meaning}`).join(', ');
  return `Exit codes: ${text(own)}${common.length > 0 ? `; also ${text(common)}` : ''}.`;
}
