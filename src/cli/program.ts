/**
 * The commander program: every command registered, run for an argv. Each command imports its
 * core lazily, so `svc-cli --help` loads no schema code, undici, msw or simulator
 * (start-up is a feature). Nothing here exits: main.ts does.
 */
import type { EventEmitter } from 'node:events';
import type { CliContext } from './context.js';
import { closestNames } from '../suggest.js';
import { mediaTypeMeant } from '../contract/media-types.js';
import { Command, CommanderError, Help, registerCommands } from './commands/index.js';
import { EXIT_CODES, toSvcError, exitCodeFor } from '../errors.js';
import { flushOutputs } from './render/flush.js';
import { readPackageVersion } from '../package-files.js';
// at start, not on the error: the error may be that no file can be opened (render/errors.ts)
import { printError } from './render/errors.js';
import { HONOURED_GLOBALS, type GlobalKey } from './options/honoured.js';
import { formatUsageError, usageHint } from './usage-error.js';

/** --json anywhere before `--`: commander's own usage errors then print as NDJSON too. */
export function wantsJson(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

/**
 * Commander says "missing required argument 'suite'" without the choices it lists for a wrong
 * value: a newcomer typing `svc-cli conform` learns them only from --help. When one command
 * has an argument of that name with choices, they are added.
 */
function addArgumentChoices(program: Command, message: string): string {
  const name = /missing required argument '([^']+)'/.exec(message)?.[1];
  if (name === undefined) return message;
  const lists = program.commands.flatMap((command) =>
    command.registeredArguments
      .filter((argument) => argument.name() === name && argument.argChoices)
      .map((argument) => argument.argChoices!),
  );
  if (lists.length !== 1) return message;
  return message.replace(/'([^']+)'(\.?)(\n?)$/, `'$1': one of ${lists[0]!.join(', ')}$2$3`);
}

/**
 * "missing required argument 'b'" named the argument and nothing of what to give: a newcomer
 * typing `svc-cli record diff real.ndjson` learned that b is the second recording only from
 * --help. The description of the command's argument is added (one without choices: those are
 * listed by addArgumentChoices).
 */
function addArgumentMeaning(program: Command, argv: readonly string[], message: string): string {
  const name = /missing required argument '([^']+)'\.?\n?$/.exec(message)?.[1];
  if (name === undefined) return message;
  const argument = commandLevel(program, argv).registeredArguments.find(
    (a) => a.name() === name && !a.argChoices,
  );
  if (!argument?.description) return message;
  return message.replace(/'([^']+)'(\.?)(\n?)$/, `'$1': ${argument.description}$2$3`);
}

/**
 * The examples of a command's help that run that command, each on one line (a line ended
 * with `\` joined to the next), and whether it was written on one line.
 */
function helpExamples(command: Command): Array<{ run: string; oneLine: boolean }> {
  let help = '';
  // the text addHelpText('after') adds is only reached through the event --help emits
  // (commander's Command is an EventEmitter; its types leave that out)
  (command as unknown as EventEmitter).emit('afterHelp', {
    error: true,
    command,
    write: (s: string) => (help += s),
  });
  const examples: Array<{ run: string; oneLine: boolean }> = [];
  let open: { run: string; oneLine: boolean } | undefined;
  for (const line of help.split('\n')) {
    const text = line.trim();
    if (open !== undefined) {
      open.run += ` ${text}`;
    } else {
      const run = /^\$ (svc-cli .*)$/.exec(text)?.[1];
      if (run === undefined) continue;
      open = { run, oneLine: !run.endsWith('\\') };
      examples.push(open);
    }
    if (open.run.endsWith('\\')) open.run = open.run.slice(0, -1).trimEnd();
    else open = undefined;
  }
  const path = commandPath(command);
  return examples.filter(({ run }) => run.startsWith(`svc-cli ${path} `) && !run.includes('|'));
}

/**
 * An example run of a command for the hint of a missing argument: the first of its help that
 * fits one line (`svc-cli trace session.ndjson`), else the shortest, joined on one line
 * (send-text's examples all go on over two).
 */
function firstExample(command: Command): string | undefined {
  const examples = helpExamples(command);
  const oneLine = examples.find((example) => example.oneLine);
  if (oneLine !== undefined) return oneLine.run;
  return examples.reduce<string | undefined>(
    (shortest, { run }) =>
      shortest === undefined || run.length < shortest.length ? run : shortest,
    undefined,
  );
}

/**
 * commander suggests a command or a flag, never a choice of an argument or a flag's value:
 * `conform integratr` got only "is invalid ... Allowed choices are ...". The closest choice is
 * suggested too.
 */
/** Words people use for an interface that are not its name. */
const INTERFACE_WORDS: Readonly<Record<string, string>> = {
  chat: 'channel',
  'chat-channel': 'channel',
  webhook: 'hooks',
  webhooks: 'hooks',
  'event-hooks': 'hooks',
  'bot-provider': 'bot',
  provider: 'bot',
};

function addChoiceSuggestion(message: string): string {
  const match =
    /(?:command-argument value|argument) '([^']+)' is invalid.*Allowed choices are (.+?)\.?\n?$/.exec(
      message,
    );
  if (!match) return message;
  const choices = match[2]!.split(/,\s*/);
  // a common name first: of a media type (`send-media pic` is photo, not voice by distance),
  // of an interface (`proxy chat` is the channel, not bot)
  const meant = mediaTypeMeant(match[1]!) ?? INTERFACE_WORDS[match[1]!.toLowerCase()];
  const [closest] =
    meant !== undefined && choices.includes(meant)
      ? [meant]
      : closestNames(match[1]!, choices, { limit: 1, maxDistance: 3 });
  if (closest === undefined) return message;
  return `${message.replace(/\n?$/, '')}\n(Did you mean ${closest}?)\n`;
}

/**
 * A command typed as two words (`hook fire`, `hooks fire`, `send text`) is no spelling commander can
 * suggest from (`hook` is 5 edits from `hook-fire`): the words joined with `-`, or else every
 * command the first word starts (`hook`: hook-fire, hook-target), are suggested.
 */
function addCommandSuggestion(program: Command, argv: readonly string[], message: string): string {
  const typed = /unknown command '([^']+)'/.exec(message)?.[1];
  if (typed === undefined || /Did you mean/.test(message)) return message;
  const names = program.commands.map((c) => c.name());
  const next = argv[argv.indexOf(typed) + 1];
  // `hooks fire` too: the first word as typed, then without a plural's s
  const words = [typed, typed.replace(/s$/, '')];
  const joined = words.map((word) => `${word}-${next}`).find((name) => names.includes(name));
  const meant =
    next !== undefined && joined !== undefined
      ? [joined]
      : names.filter((name) => words.some((word) => name.startsWith(`${word}-`)));
  if (meant.length === 0) return message;
  return `${message.replace(/\n?$/, '')}\n(Did you mean ${meant.join(' or ')}?)\n`;
}

/**
 * commander suggests a flag within a small edit distance; a flag typed short (`--integrator`
 * for `--integrator-url`, `--platform` for `--platform-url`) is further away and got no
 * suggestion. When the unknown flag starts exactly one flag of the command
 * named in argv (or of the program), that flag is suggested.
 */
function addOptionSuggestion(program: Command, argv: readonly string[], message: string): string {
  const typed = /unknown option '(--[^'=]+)'/.exec(message)?.[1];
  if (typed === undefined) return message;
  // the first word of argv that names a command (a flag's value may name one later on)
  const name = argv.find((word) => program.commands.some((c) => c.name() === word));
  const command = program.commands.find((c) => c.name() === name);
  const longs = [...(command?.options ?? []), ...program.options]
    .map((option) => option.long)
    .filter((long): long is string => long !== undefined);
  // the last word of one flag (`--size` of --file-size) beats commander's closest spelling
  // (it said --file)
  const ending = longs.filter((long) => long.endsWith(`-${typed.slice(2)}`));
  // the other way round: a flag as another command spells it, with a word before this one's
  // (`--bot-provider-id` of replay for platform's `--provider-id`; commander's closest was
  // --bot-provider-url, the bot's address, not its id); of two words at least, or every
  // `--x-url` would read as `--url`
  const within =
    ending.length === 0
      ? longs.filter((long) => long.slice(2).includes('-') && typed.endsWith(`-${long.slice(2)}`))
      : [];
  const meant = ending.length === 1 ? ending : within.length === 1 ? within : [];
  if (meant.length === 1)
    return `${message.replace(/\n?\(Did you mean [^)]*\)\n?$/, '').replace(/\n?$/, '')}\n(Did you mean ${meant[0]}?)\n`;
  if (/Did you mean/.test(message)) return message;
  const flags = longs.filter((long) => long.startsWith(typed));
  if (flags.length !== 1) return message;
  return `${message.replace(/\n?$/, '')}\n(Did you mean ${flags[0]}?)\n`;
}

/** Builds the program for a context; exported so tests can run commands in-process. */
export function createProgram(ctx: CliContext, argv: readonly string[] = []): Command {
  const program = new Command('svc-cli');
  program
    .description(
      'Test and simulate the svc platform integration interfaces: chat channel (A), bot provider (B), page script API (C) and event hooks (D). Plays both sides of every interface.',
    )
    .version(readPackageVersion(), '-V, --version')
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      // with --json a usage error is printed as one NDJSON error line by runCli instead
      writeErr: (s) => (wantsJson(argv) ? true : ctx.stderr.write(s)),
      outputError: (s, write) =>
        write(
          formatUsageError(
            addChoiceSuggestion(
              addCommandSuggestion(
                program,
                argv,
                addOptionSuggestion(
                  program,
                  argv,
                  addArgumentMeaning(program, argv, addArgumentChoices(program, s)),
                ),
              ),
            ),
            hintFor(program, argv, s),
          ),
        ),
    })
    .exitOverride();
  program.addHelpText(
    'after',
    `
Exit codes: 0 ok, 1 contract violation or failed check, 2 usage or input error,
            3 peer unreachable or timed out, 4 internal error, 5 the machine
            failed under the run (disk full, too many open files), 130/143
            interrupted.

Examples:
  $ svc-cli validate fixtures/payloads --check-expectations
  $ svc-cli schema --list
  $ svc-cli platform --integrator-url http://127.0.0.1:9000/agent-messages
  $ svc-cli listen --port 9000 --fail-first 2`,
  );
  registerCommands(program, ctx);
  showHonouredGlobals(program);
  return program;
}

/** `parent sub` for a subcommand, the name for a command. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * The global flags were listed only by `svc-cli --help`: a user reading `send-text --help`
 * never learned of `--ca` or `--json`. Each command's help now lists, under "Global Options:",
 * the globals it reads (options/honoured.ts). Merged into each command's own help settings
 * (conform filters its options by suite).
 */
function showHonouredGlobals(parent: Command): void {
  for (const command of parent.commands) {
    const honoured = HONOURED_GLOBALS[commandPath(command)];
    command.configureHelp({
      ...command.configureHelp(),
      showGlobalOptions: true,
      visibleGlobalOptions(this: Help, cmd: Command) {
        const all = Help.prototype.visibleGlobalOptions.call(this, cmd);
        if (honoured === undefined) return all;
        return all.filter((option) => honoured.includes(option.attributeName() as GlobalKey));
      },
    });
    showHonouredGlobals(command);
  }
}

/** Runs the CLI with argv; resolves to the exit code. */
/**
 * Whether argv names a command the program does not have and asks for help: commander shows
 * the program's help for `svc-cli drift --help` (exit 0), as if `drift` were a command.
 */
function helpOfUnknownCommand(program: Command, argv: readonly string[]): boolean {
  if (!argv.some((a) => a === '--help' || a === '-h')) return false;
  return walkCommands(program, argv).unknown;
}

/**
 * The command argv names: a word names one of the level's commands (`record`, then
 * `to-fixture`) until a command without subcommands takes the rest as its arguments;
 * `unknown` when a word where a command belongs names none.
 */
function walkCommands(
  program: Command,
  argv: readonly string[],
): { level: Command; unknown: boolean } {
  let level = program;
  const takesValue = (cmd: Command) =>
    new Set(cmd.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short]));
  let valued = takesValue(level);
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? '';
    if (word === '--') break;
    if (word.startsWith('-')) {
      if (!word.includes('=') && valued.has(word)) i++;
      continue;
    }
    const next = level.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) return { level, unknown: true };
    level = next;
    if (next.commands.length === 0) break;
    valued = takesValue(level);
  }
  return { level, unknown: false };
}

/**
 * A usage error's hint: the help of the command argv names (the program's when none); for a
 * missing argument, an example of the command run with it first.
 */
function hintFor(program: Command, argv: readonly string[], message = ''): string {
  const level = commandLevel(program, argv);
  const help = usageHint(commandPath(level), level.commands.length > 0);
  if (!/missing required argument/.test(message)) return help;
  const example = firstExample(level);
  return example === undefined ? help : `For example: ${example}\n  ${help}`;
}

/** The command argv names (the program when none): a usage error names its help. */
function commandLevel(program: Command, argv: readonly string[]): Command {
  return walkCommands(program, argv).level;
}

export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  ctx.argv ??= argv;
  const program = createProgram(ctx, argv);
  try {
    // `svc-cli drift --help`: the unknown command is the error, with its "did you mean"
    const parsed = helpOfUnknownCommand(program, argv)
      ? argv.filter((a) => a !== '--help' && a !== '-h')
      : argv;
    await program.parseAsync(parsed, { from: 'user' });
    await flushOutputs();
    return ctx.exitCode;
  } catch (error) {
    await flushOutputs();
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
        return EXIT_CODES.ok;
      }
      // a group typed without its subcommand (`svc-cli record`, or `svc-cli` alone): commander
      // printed the group's help on stderr; nothing ran, which is a usage error, as an unknown
      // subcommand (`svc-cli record foo`) is
      if (error.code === 'commander.help') {
        if (wantsJson(argv)) {
          const group = commandLevel(program, argv);
          const message = `missing command: one of ${group.commands.map((c) => c.name()).join(', ')}`;
          ctx.stdout.write(
            `${JSON.stringify({ type: 'error', code: 'SVC_E_USAGE', category: 'input', message, hint: hintFor(program, argv) })}\n`,
          );
        }
        return EXIT_CODES.input;
      }
      if (wantsJson(argv)) {
        // every --json line is an object with a type, usage errors included
        const message = addChoiceSuggestion(
          addCommandSuggestion(
            program,
            argv,
            addOptionSuggestion(
              program,
              argv,
              addArgumentMeaning(program, argv, addArgumentChoices(program, error.message)),
            ),
          ),
        )
          .trimEnd()
          .replace(/^error: /, '');
        const hint = hintFor(program, argv, error.message).replace(/\n {2}/g, '; ');
        ctx.stdout.write(
          `${JSON.stringify({ type: 'error', code: 'SVC_E_USAGE', category: 'input', message, hint })}\n`,
        );
      }
      return EXIT_CODES.input;
    }
    const svcError = toSvcError(error);
    const json = Boolean(program.opts<{ json?: boolean }>().json);
    printError(ctx, svcError, { json });
    return exitCodeFor(svcError.category);
  }
}
