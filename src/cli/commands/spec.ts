/**
 * Commands as data: each command module exports a `CommandSpec` (name, description,
 * arguments, option table, help text, subcommands, a lazy `run`), src/cli/commands/index.ts
 * lists them in `COMMANDS`, and `addCommand` below is the one place that turns a spec into a
 * commander command. Registration loads data only; a command's body (`<command>-run.ts`) is
 * imported when it runs (start-up is a feature).
 */
import { Argument, type Command } from 'commander';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import type { OptionSpec, OptionTable } from '../options/table.js';
import { loadRunPath } from './run-path.js';

/** A positional argument: `<name>`, `[name]`, `<name...>` or `[name...]` in the usage line. */
export interface ArgumentSpec {
  /** the key of its value in `CommandInput.args` */
  readonly name: string;
  readonly description: string;
  readonly optional?: boolean;
  readonly variadic?: boolean;
  /** commander refuses any other value (and `completion` offers these) */
  readonly choices?: readonly string[];
  /** the value when none is given (optional arguments only; `--help` shows it) */
  readonly default?: unknown;
}

/** What a command's run receives: its arguments by name and the flags given. */
export interface CommandInput {
  /** a string, or a string[] for a variadic argument; undefined for an optional one not given */
  readonly args: Readonly<Record<string, unknown>>;
  /** the flags given on the command line, globals included (src/cli/action.ts `givenFlags`) */
  readonly flags: Record<string, unknown>;
  readonly command: Command;
}

/** Calls into a loaded run path; the exit code, if it returns one (src/cli/action.ts). */
type Call<M> = (
  module: M,
  ctx: CliContext,
  input: CommandInput,
) => Promise<number | void> | number | void;

/** A command's body, loaded on use: its module `<command>-run` and the call into it. */
export interface RunSpec {
  /** the module's name: src/cli/commands/<path>.ts */
  readonly path: string;
  readonly load: () => Promise<unknown>;
  readonly call: Call<unknown>;
}

/** The text after the flags in `--help`: fixed, or computed for the command asked about. */
export type HelpAfter = string | ((context: { command: Command }) => string);

export interface CommandSpec {
  readonly name: string;
  readonly description: string;
  readonly arguments?: readonly ArgumentSpec[];
  readonly options?: OptionTable | readonly OptionSpec[];
  /** text after the flags: notes, exit codes, examples */
  readonly helpAfter?: HelpAfter;
  /** flags this command does not know pass through as arguments (`config <command> <flags>`) */
  readonly allowUnknownOption?: boolean;
  readonly subcommands?: readonly CommandSpec[];
  /** what data cannot say (conform's per-suite help): called once the command is built */
  readonly configure?: (command: Command) => void;
  /** absent for a command that only groups subcommands */
  readonly run?: RunSpec;
}

/**
 * A run path from dist/cli/commands/run-paths.bundle.cjs, else the sources
 * (src/cli/commands/run-path.ts). `sources` must stay a literal `import('./<path>.js')`: the
 * bundles and the single binary resolve the static import (scripts/bundle-commands.mjs,
 * scripts/build-binary.mjs).
 * @example run: fromRunPaths('listen-run', () => import('./listen-run.js'), (m, ctx, { flags }) => m.runListen(ctx, flags))
 */
export function fromRunPaths<M>(path: string, sources: () => Promise<M>, call: Call<M>): RunSpec {
  return { path, load: () => loadRunPath(path, sources), call: call as RunSpec['call'] };
}

/** A run path with a loader of its own (validate's bundle; schema's ES modules). */
export function fromModule<M>(path: string, load: () => Promise<M>, call: Call<M>): RunSpec {
  return { path, load, call: call as RunSpec['call'] };
}

/** `<name>`, `[name...]`: commander's form of an argument. */
export function argumentUsage(spec: ArgumentSpec): string {
  const inner = `${spec.name}${spec.variadic ? '...' : ''}`;
  return spec.optional ? `[${inner}]` : `<${inner}>`;
}

function createArgument(spec: ArgumentSpec): Argument {
  const argument = new Argument(argumentUsage(spec), spec.description);
  if (spec.choices) argument.choices(spec.choices);
  if (spec.default !== undefined) argument.default(spec.default);
  return argument;
}

/** The action commander calls: (...arguments, options, command) -> the spec's run. */
function runAction(ctx: CliContext, spec: CommandSpec, run: RunSpec) {
  const names = (spec.arguments ?? []).map((argument) => argument.name);
  return action(ctx, async (...received: unknown[]) => {
    const command = received.at(-1) as Command;
    const args = Object.fromEntries(names.map((name, i) => [name, received[i]]));
    const module = await run.load();
    return run.call(module, ctx, { args, flags: givenFlags(command), command });
  });
}

/**
 * Adds a spec's command (and its subcommands) to a parent.
 * @example for (const spec of COMMANDS) addCommand(program, spec, ctx);
 */
export function addCommand(parent: Command, spec: CommandSpec, ctx: CliContext): Command {
  const command = parent.command(spec.name).description(spec.description);
  for (const argument of spec.arguments ?? []) command.addArgument(createArgument(argument));
  if (spec.options) addOptions(command, spec.options);
  if (spec.allowUnknownOption) command.allowUnknownOption();
  if (typeof spec.helpAfter === 'string') command.addHelpText('after', spec.helpAfter);
  else if (spec.helpAfter) command.addHelpText('after', spec.helpAfter);
  spec.configure?.(command);
  if (spec.run) command.action(runAction(ctx, spec, spec.run));
  for (const sub of spec.subcommands ?? []) addCommand(command, sub, ctx);
  return command;
}
