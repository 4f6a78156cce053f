/**
 * Shell completion scripts generated from the commander program itself: commands, flags and
 * their choices stay in step with the code. Pure: takes the program, returns the script.
 */
import type { Command, Option } from 'commander';
import { completesCommands, completionValues } from './commands/spec.js';

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

interface FlagInfo {
  names: string[];
  long: string | undefined;
  description: string;
  takesValue: boolean;
  choices: readonly string[];
  /** its value names a file or folder (`<file>`, `<pem>`, `<dir>`, `<event=file>` ...) */
  files: boolean;
}

/** A value placeholder that names a file: `<file>`, `<pem>`, `<kinds|path>`, `<event=file>`. */
const FILE_VALUE = /^(?:[a-z]+=)?(?:file|pem|path|dir|recording)$/;
const namesFile = (option: Option): boolean =>
  /<([^>]+)>|\[([^\]]+)\]/
    .exec(option.flags)
    ?.slice(1)
    .find((v) => v !== undefined)
    ?.split('|')
    .some((token) => FILE_VALUE.test(token)) ?? false;

interface CommandInfo {
  name: string;
  description: string;
  flags: FlagInfo[];
  /** choices of the first positional argument (e.g. completion's <shell>) */
  argChoices: readonly string[];
  /** it takes a positional argument with no values to offer: a file name (coverage's recordings) */
  argFiles: boolean;
  /** its subcommands (record to-fixture), each with its own flags */
  subcommands: Array<{ name: string; flags: FlagInfo[]; argFiles: boolean }>;
}

const describeFlag = (option: Option): FlagInfo => ({
  names: [option.short, option.long].filter((n): n is string => n !== undefined),
  long: option.long,
  description: option.description.split('\n')[0] ?? '',
  takesValue: option.required || option.optional,
  choices: option.argChoices ?? [],
  files: namesFile(option),
});

const HELP: FlagInfo = {
  names: ['-h', '--help'],
  long: '--help',
  description: 'display help',
  takesValue: false,
  choices: [],
  files: false,
};

/** A command's first argument has no values to offer: it completes file names. */
const takesFiles = (cmd: Command): boolean => {
  const first = cmd.registeredArguments[0];
  return first !== undefined && completionValues(first).length === 0 && !completesCommands(first);
};

/** The program as data: global flags and each command with its flags. */
export function describeProgram(program: Command): {
  globals: FlagInfo[];
  commands: CommandInfo[];
} {
  const names = program.commands.map((cmd) => cmd.name());
  return {
    globals: [...program.options.map(describeFlag), HELP],
    commands: program.commands.map((cmd) => {
      const first = cmd.registeredArguments[0];
      return {
        name: cmd.name(),
        description: cmd.description().split('\n')[0] ?? '',
        flags: [...cmd.options.map(describeFlag), HELP],
        // a command's subcommands (record to-fixture) complete where its argument would;
        // config's argument is a command of this program
        argChoices: [
          ...(first ? completionValues(first) : []),
          ...(first && completesCommands(first) ? names : []),
          ...cmd.commands.map((sub) => sub.name()),
        ],
        argFiles: cmd.commands.length === 0 && takesFiles(cmd),
        subcommands: cmd.commands.map((sub) => ({
          name: sub.name(),
          flags: [...sub.options.map(describeFlag), HELP],
          argFiles: takesFiles(sub),
        })),
      };
    }),
  };
}

const quoteSingle = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;
const zshText = (text: string): string =>
  text
    .replace(/[[\]:'\\]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

function generateBash(program: Command): string {
  const { globals, commands } = describeProgram(program);
  const globalWords = globals.flatMap((f) => f.names).join(' ');
  // every flag that takes a value, as "<command>:<flag>" patterns (a global's for any command;
  // a subcommand's under its parent, where the loop below stops)
  const valueKeys = [
    ...globals.filter((f) => f.takesValue).flatMap((f) => f.names.map((n) => `*:${n}`)),
    ...commands.flatMap((c) =>
      [...c.flags, ...c.subcommands.flatMap((sub) => sub.flags)]
        .filter((f) => f.takesValue)
        .flatMap((f) => f.names.map((n) => `${c.name}:${n}`)),
    ),
  ];
  const valueCases = [...new Set(valueKeys)].join('|');
  const choiceCases = [
    ...globals.filter((f) => f.choices.length > 0).map((f) => ({ key: `*:${f.long ?? ''}`, f })),
    ...commands.flatMap((c) =>
      c.flags
        .filter((f) => f.choices.length > 0)
        .map((f) => ({ key: `${c.name}:${f.long ?? ''}`, f })),
    ),
  ].map(
    ({ key, f }) =>
      `    ${key}) COMPREPLY=( $(compgen -W ${quoteSingle(f.choices.join(' '))} -- "$cur") ); return ;;`,
  );
  // -h/--help is the command's and the program's: once
  const reply = (words: Iterable<string>): string =>
    `COMPREPLY=( $(compgen -W ${quoteSingle([...new Set(words)].join(' '))} -- "$cur") )`;
  const wordsCase = (key: string, words: Iterable<string>): string =>
    `    ${key}) ${reply(words)} ;;`;
  const globalNames = globals.flatMap((f) => f.names);
  // a word that is no flag is a file name where the argument is one (coverage <recordings>)
  const filesOr = (key: string, words: Iterable<string>): string =>
    `    ${key}) if [[ $cur != -* ]]; then _svc_cli_files; else ${reply(words)}; fi ;;`;
  const commandCases = commands.flatMap((c) => {
    const all = [...c.flags.flatMap((f) => f.names), ...c.argChoices, ...globalNames];
    return [
      // a subcommand's own flags once it is typed (record to-fixture --out)
      ...c.subcommands.map((sub) =>
        (sub.argFiles ? filesOr : wordsCase)(`${c.name}:${sub.name}`, [
          ...sub.flags.flatMap((f) => f.names),
          ...globalNames,
        ]),
      ),
      // a word that is no flag, before the argument is given, is the argument (conform
      // <suite>), as git completes
      c.argChoices.length > 0
        ? `    ${c.name}:*) if [[ -z $sub && $cur != -* ]]; then ${reply(c.argChoices)}; else ${reply(all)}; fi ;;`
        : (c.argFiles ? filesOr : wordsCase)(`${c.name}:*`, all),
    ];
  });
  return `# svc-cli completion for bash. Load it with:
#   source <(svc-cli completion bash)
# or save it as ~/.local/share/bash-completion/completions/svc-cli
# a flag that takes a value, as "<command>:<flag>"
_svc_cli_takes_value() {
  case "$1" in
    ${valueCases || '--never'}) return 0 ;;
  esac
  return 1
}
# file names (folders completed with their slash)
_svc_cli_files() {
  local IFS=$'\n'
  compopt -o filenames 2>/dev/null
  COMPREPLY=( $(compgen -f -- "$cur") )
}
_svc_cli() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="" sub="" i w
  for (( i = 1; i < COMP_CWORD; i++ )); do
    w="\${COMP_WORDS[i]}"
    case "$w" in
      -*) if _svc_cli_takes_value "$cmd:$w"; then (( i++ )); fi ;;
      *) if [[ -z $cmd ]]; then cmd="$w"; else sub="$w"; break; fi ;;
    esac
  done
  case "\${cmd:-*}:$prev" in
${choiceCases.join('\n')}
  esac
  # a value with no choices to offer (--out, --url, --config): a file name, as bash would
  if _svc_cli_takes_value "$cmd:$prev"; then _svc_cli_files; return; fi
  case "$cmd:$sub" in
    ":") COMPREPLY=( $(compgen -W ${quoteSingle(`${commands.map((c) => c.name).join(' ')} ${globalWords}`)} -- "$cur") ) ;;
${commandCases.join('\n')}
  esac
}
complete -o default -F _svc_cli svc-cli
`;
}

function zshSpec(f: FlagInfo): string[] {
  // a value with choices offers them; one that names a file (--out <file>, --config) files
  const action = f.choices.length > 0 ? `(${f.choices.join(' ')})` : f.files ? '_files' : '';
  const value = f.takesValue ? `:value:${action}` : '';
  return f.names.map((name) => quoteSingle(`${name}[${zshText(f.description)}]${value}`));
}

function generateZsh(program: Command): string {
  const { globals, commands } = describeProgram(program);
  const globalValues =
    globals
      .filter((f) => f.takesValue)
      .flatMap((f) => f.names)
      .join('|') || '--never';
  const list = commands.map((c) => `    ${quoteSingle(`${c.name}:${zshText(c.description)}`)}`);
  const cases = commands.map((c) => {
    const subFlags = c.subcommands.flatMap((sub) => sub.flags.filter((f) => f.long !== '--help'));
    const specs = [...c.flags, ...subFlags, ...globals].flatMap(zshSpec);
    if (c.argChoices.length > 0) specs.push(quoteSingle(`1:argument:(${c.argChoices.join(' ')})`));
    // file arguments: the command's own (coverage <recordings...>), or after its subcommand's
    // name (record to-fixture <recording>)
    if (c.argFiles) specs.push(quoteSingle('*:file:_files'));
    else if (c.subcommands.some((sub) => sub.argFiles)) specs.push(quoteSingle('*:file:_files'));
    return `    ${c.name}) _arguments -s \\\n      ${specs.join(' \\\n      ')} ;;`;
  });
  return `#compdef svc-cli
# svc-cli completion for zsh. Load it with:
#   source <(svc-cli completion zsh)
# in ~/.zshrc, after compinit (oh-my-zsh and most setups load it)
_svc_cli() {
  local -a commands
  commands=(
${list.join('\n')}
  )
  local i cmd=""
  for (( i = 2; i < CURRENT; i++ )); do
    case \${words[i]} in
      ${globalValues}) (( i++ )) ;;  # a global flag's value is no command
      -*) ;;
      *) cmd=\${words[i]}; break ;;
    esac
  done
  if [[ -z $cmd ]]; then
    # the value of a global flag (--config <file>) is not a command either
    [[ \${words[CURRENT-1]} == (${globalValues}) ]] || _describe 'command' commands
    _arguments -s ${globals.flatMap(zshSpec).join(' ')}
    return
  fi
  # quoted: the empty word being completed stays a word (unquoted, it was dropped, and an
  # argument was never offered after a space)
  words=(svc-cli "\${(@)words[i+1,-1]}")
  (( CURRENT -= i - 1 ))
  case $cmd in
${cases.join('\n')}
  esac
}
compdef _svc_cli svc-cli
`;
}

function fishLine(condition: string, f: FlagInfo): string {
  const parts = ['complete -c svc-cli', `-n ${quoteSingle(condition)}`];
  for (const name of f.names)
    parts.push(name.startsWith('--') ? `-l ${name.slice(2)}` : `-s ${name.slice(1)}`);
  if (f.takesValue)
    // a value that names a file gets file names (they are off for svc-cli's other words)
    parts.push(
      f.choices.length > 0 ? `-x -a ${quoteSingle(f.choices.join(' '))}` : f.files ? '-r -F' : '-x',
    );
  parts.push(`-d ${quoteSingle(f.description)}`);
  return parts.join(' ');
}

function generateFish(program: Command): string {
  const { globals, commands } = describeProgram(program);
  const names = commands.map((c) => c.name).join(' ');
  const lines = [
    '# svc-cli completion for fish. Load it with:',
    '#   svc-cli completion fish | source',
    '# or save it as ~/.config/fish/completions/svc-cli.fish',
    'complete -c svc-cli -f',
    ...commands.map(
      (c) =>
        `complete -c svc-cli -n '__fish_use_subcommand' -a ${c.name} -d ${quoteSingle(c.description)}`,
    ),
    ...globals.map((f) => fishLine('true', f)),
  ];
  for (const c of commands) {
    const when = `__fish_seen_subcommand_from ${c.name}`;
    lines.push(...c.flags.map((f) => fishLine(when, f)));
    for (const sub of c.subcommands)
      lines.push(
        ...sub.flags
          .filter((f) => f.long !== '--help')
          .map((f) => fishLine(`${when}; and __fish_seen_subcommand_from ${sub.name}`, f)),
      );
    // a subcommand's name until one is given (record to-fixture)
    const subs = c.subcommands.map((sub) => sub.name).join(' ');
    const first = subs === '' ? when : `${when}; and not __fish_seen_subcommand_from ${subs}`;
    if (c.argChoices.length > 0)
      lines.push(
        `complete -c svc-cli -n ${quoteSingle(first)} -a ${quoteSingle(c.argChoices.join(' '))}`,
      );
    if (c.argFiles) lines.push(`complete -c svc-cli -n ${quoteSingle(when)} -F`);
    for (const sub of c.subcommands.filter((s) => s.argFiles))
      lines.push(
        `complete -c svc-cli -n ${quoteSingle(`${when}; and __fish_seen_subcommand_from ${sub.name}`)} -F`,
      );
  }
  lines.push(`# commands: ${names}`);
  return `${lines.join('\n')}\n`;
}

/**
 * @example generateCompletion(program, 'bash') // "# svc-cli completion for bash..."
 */
export function generateCompletion(program: Command, shell: Shell): string {
  switch (shell) {
    case 'bash':
      return generateBash(program);
    case 'zsh':
      return generateZsh(program);
    case 'fish':
      return generateFish(program);
    default: {
      const never: never = shell;
      throw new Error(`unknown shell ${String(never)}`);
    }
  }
}
