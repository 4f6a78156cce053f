/**
 * Commands as data: each command module exports a `CommandSpec` (name, description,
 * arguments, option table, help text, subcommands, a lazy `run`) written with
 * `defineCommand`, which types the run's arguments from the argument specs;
 * src/cli/commands/index.ts lists them in `COMMANDS`, and `addCommand` below is the one place
 * that turns a spec into a commander command. Registration loads data only; a command's body (`<command>-run.ts`) is
 * imported when it runs (start-up is a feature).
 */
import { Argument, type Command } from 'commander';
import { fitHelpText, helpWidth } from '../help-text.js';
import { exitCodesHelp } from '../exit-codes-help.js';
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
  /**
   * values `completion` offers where commander checks none (the command says what is wrong
   * with another, with its own "did you mean": hook-fire's events)
   */
  readonly completes?: readonly string[];
  /** completion offers the program's command names (config's `[command]`) */
  readonly completesCommands?: true;
}

/** The values completion offers for a commander argument: its choices, else its `completes`. */
export function completionValues(argument: Argument): readonly string[] {
  return argument.argChoices ?? (argument as WithCompletes)[COMPLETES] ?? [];
}
/** Whether completion offers the program's command names for an argument (config's). */
export function completesCommands(argument: Argument): boolean {
  return (argument as WithCompletes)[COMPLETES_COMMANDS] === true;
}
/**
 * On the argument itself under a registered symbol: the program is built by the start-up
 * bundle's copy of this module and the completion script by the ES module's (a WeakMap of
 * one would be empty for the other).
 */
const COMPLETES = Symbol.for('svc-cli.argument-completes');
const COMPLETES_COMMANDS = Symbol.for('svc-cli.argument-completes-commands');
type WithCompletes = Argument & {
  [COMPLETES]?: readonly string[];
  [COMPLETES_COMMANDS]?: true;
};

/**
 * The value commander hands over for an argument: a string[] for a variadic one, one of the
 * choices when it has them, undefined when optional and not given (nor defaulted).
 */
type ArgumentValue<A extends ArgumentSpec> = A extends { readonly variadic: true }
  ? string[]
  : | (A extends { readonly choices: readonly (infer C extends string)[] } ? C : string)
    | (A extends { readonly optional: true } ? undefined : never);

/** A command's arguments by name, typed from its argument specs. */
export type ArgumentsOf<As extends readonly ArgumentSpec[]> = {
  readonly [A in As[number] as A['name']]: ArgumentValue<A>;
};

/** What a command's run receives: its arguments by name and the flags given. */
export interface CommandInput<Args = Readonly<Record<string, unknown>>> {
  readonly args: Args;
  /** the flags given on the command line, globals included (src/cli/action.ts `givenFlags`) */
  readonly flags: Record<string, unknown>;
  readonly command: Command;
}

/** Calls into a loaded run path; the exit code, if it returns one (src/cli/action.ts). */
type Call<M, Args> = (
  module: M,
  ctx: CliContext,
  input: CommandInput<Args>,
) => Promise<number | void> | number | void;

/**
 * A command's body as a command module writes it: the run path's name, how to load it, and
 * the call into it with the arguments typed from the command's argument specs.
 */
export type RunDefinition<M, Args> = {
  /** the module's name: src/cli/commands/<path>.ts */
  readonly path: string;
  readonly call: Call<M, Args>;
} & (
  | {
      /**
       * `() => import('./<path>.js')`, literal: the bundles and the single binary resolve the
       * static import (scripts/bundle-commands.mjs, scripts/build-binary.mjs). Loaded from
       * dist/cli/commands/run-paths.bundle.cjs when there is one (src/cli/commands/run-path.ts).
       */
      readonly sources: () => Promise<M>;
    }
  | {
      /** a loader of its own instead of the run paths' bundle (validate's; schema's modules) */
      readonly load: () => Promise<M>;
    }
);

/** A command's body, loaded on use: its module `<command>-run` and the call into it. */
export interface RunSpec {
  /** the module's name: src/cli/commands/<path>.ts */
  readonly path: string;
  readonly load: () => Promise<unknown>;
  readonly call: Call<unknown, Readonly<Record<string, unknown>>>;
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

/** A spec as a command module writes it: `run` typed from `arguments`. */
export type CommandDefinition<As extends readonly ArgumentSpec[], M> = Omit<
  CommandSpec,
  'arguments' | 'run'
> & {
  readonly arguments?: As;
  readonly run?: RunDefinition<M, ArgumentsOf<As>>;
};

/**
 * A command's spec, its run's arguments typed from its argument specs.
 * @example export const listenCommand = defineCommand({ name: 'listen', description: '...', options: listenOptions, run: { path: 'listen-run', sources: () => import('./listen-run.js'), call: (m, ctx, { flags }) => m.runListen(ctx, flags) } });
 */
export function defineCommand<const As extends readonly ArgumentSpec[] = readonly [], M = never>(
  definition: CommandDefinition<As, M>,
): CommandSpec {
  const { run, ...spec } = definition;
  if (run === undefined) return spec;
  const { path } = run;
  const load = 'sources' in run ? () => loadRunPath(path, run.sources) : run.load;
  return { ...spec, run: { path, load, call: run.call as RunSpec['call'] } };
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
  if (spec.completes) (argument as WithCompletes)[COMPLETES] = spec.completes;
  if (spec.completesCommands) (argument as WithCompletes)[COMPLETES_COMMANDS] = true;
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
  const after = spec.helpAfter;
  // the exit codes from their table (exit-codes-help.ts), never written by hand
  const codes = exitCodesHelp(commandPathOf(parent, spec.name));
  if (after !== undefined || codes !== undefined) {
    // fitted to the terminal when shown (help-text.ts)
    const width = (): number => helpWidth(ctx.stdout);
    command.addHelpText('after', (context) =>
      fitHelpText(
        withExitCodes(typeof after === 'string' ? after : (after?.(context) ?? ''), codes),
        width(),
      ),
    );
  }
  spec.configure?.(command);
  if (spec.run) command.action(runAction(ctx, spec, spec.run));
  for (const sub of spec.subcommands ?? []) addCommand(command, sub, ctx);
  return command;
}

/** `record diff` for `diff` under `record`: a command's path as typed, the program left out. */
function commandPathOf(parent: Command, name: string): string {
  const names = [name];
  for (let c: Command | null = parent; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The help text with the exit-code paragraph before its examples (at its end without). */
export function withExitCodes(text: string, codes: string | undefined): string {
  if (codes === undefined) return text;
  const at = text.search(/\n\nExamples?:\n/);
  if (at >= 0) return `${text.slice(0, at)}\n\n${codes}${text.slice(at)}`;
  return `${text.replace(/\n*$/, '')}\n\n${codes}`;
}
