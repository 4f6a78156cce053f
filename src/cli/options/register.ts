/**
 * Commander registration from an option table (table.ts): the flag, its description with the
 * default and the environment variable, choices, repeatable lists and the `--help` group.
 * No defaults are given to commander: the resolver applies them after the config file and the
 * environment (precedence file < env < flag), so a default never hides a configured value.
 */
import { Option, type Command } from 'commander';
import type { OptionSpec, OptionTable } from './table.js';

// a `--no-x <name>` list starts from commander's negation default (true), not an array
const collect = (value: string, previous: unknown): string[] => [
  ...(Array.isArray(previous) ? (previous as string[]) : []),
  value,
];

/** The description `--help` shows: the text, then "(default: 0; env SVC_PORT)". */
export function describeOption(spec: OptionSpec): string {
  const notes: string[] = [];
  if ('default' in spec && spec.default !== undefined && spec.type !== 'boolean') {
    notes.push(`default: ${String(spec.default)}`);
  }
  if (spec.env) notes.push(`env ${spec.env}`);
  if (spec.type === 'list') notes.push('repeatable');
  return notes.length > 0 ? `${spec.description} (${notes.join('; ')})` : spec.description;
}

/** One commander Option for a spec. */
export function createCommanderOption(spec: OptionSpec): Option {
  const option = new Option(spec.flag, describeOption(spec));
  if (option.attributeName() !== spec.key) {
    // the table is wrong, not the user: fail at registration, in every test that loads it
    throw new Error(
      `option table: ${spec.flag} is read as "${option.attributeName()}", not "${spec.key}"`,
    );
  }
  if (spec.type === 'choice') option.choices(spec.choices);
  if (spec.type === 'choice' && spec.preset !== undefined) option.preset(spec.preset);
  if (spec.type === 'list') option.argParser(collect);
  if (spec.group) option.helpGroup(spec.group);
  return option;
}

/**
 * Adds every option of a table to a command.
 * @example addOptions(program.command('listen'), listenOptions)
 */
export function addOptions(cmd: Command, table: OptionTable | readonly OptionSpec[]): Command {
  const specs = 'options' in table ? table.options : table;
  // a command that reads no SVC_* variable (init) does not name one in its help
  const readsEnv = !('options' in table) || table.readsConfig !== false;
  for (const spec of specs)
    cmd.addOption(createCommanderOption(readsEnv ? spec : withoutEnv(spec)));
  return cmd;
}

/** The spec without its environment variable. */
function withoutEnv(spec: OptionSpec): OptionSpec {
  const { env: _env, ...rest } = spec;
  return rest;
}
