import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateCompletion } from '../../../src/cli/completion.js';
import { FILE_MEDIA_TYPES } from '../../../src/contract/media-types.js';
import { createProgram } from '../../../src/cli/main.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const cwd = process.cwd();
const program = createProgram(createTestContext({ cwd }).ctx);
const commandNames = program.commands.map((c) => c.name());

describe('every command has examples in --help', () => {
  it.each(commandNames)('%s --help', async (name) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, [name, '--help'])).toBe(0);
    expect(t.stdout()).toMatch(/Examples?:\n(\s+# .*\n)*\s+\$ svc-cli /);
  });
});

describe('typos get the closest command or flag', () => {
  it.each([
    [['platfrom'], "error [SVC_E_USAGE] unknown command 'platfrom'\n(Did you mean platform?)"],
    [
      ['send-text', 'hi', '--chanel-url', 'x'],
      "error [SVC_E_USAGE] unknown option '--chanel-url'\n(Did you mean --channel-url?)",
    ],
    [['platform', '--integrator-ur', 'x'], '(Did you mean --integrator-url?)'],
    [['--jsno', 'status'], '(Did you mean --json?)'],
    // typed short: too far for commander's edit distance, but the start of exactly one flag
    [
      ['platform', '--integrator', 'x'],
      "error [SVC_E_USAGE] unknown option '--integrator'\n(Did you mean --integrator-url?)",
    ],
    [['bot-sim', '--platform', 'x'], '(Did you mean --platform-url?)'],
    // the last word of one flag, over commander's closest spelling (it said --file)
    [
      ['send-media', '--channel-url', 'http://x/a/b', '--sender-id', 'c', '--size', '5'],
      "error [SVC_E_USAGE] unknown option '--size'\n(Did you mean --file-size?)\n  svc-cli",
    ],
    // a flag as another command spells it: replay's --bot-provider-id is platform's and conform
    // bot's --provider-id (commander's closest spelling was --bot-provider-url)
    [
      ['platform', '--bot-provider-id', 'p1'],
      "error [SVC_E_USAGE] unknown option '--bot-provider-id'\n(Did you mean --provider-id?)\n  svc-cli",
    ],
    [['conform', 'bot', '--bot-provider-id', 'p1'], '(Did you mean --provider-id?)'],
  ])('%j', async (argv, message) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, argv)).toBe(2);
    expect(t.stderr()).toContain(message);
  });
});

describe('usage errors say their code and hint, as with --json', () => {
  it('an unknown command: SVC_E_USAGE, the closest command, where to look', async () => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['replya'])).toBe(2);
    expect(t.stderr()).toBe(
      "error [SVC_E_USAGE] unknown command 'replya'\n(Did you mean replay?)\n  svc-cli --help lists the commands; svc-cli <command> --help their options.\n  more: svc-cli explain SVC_E_USAGE\n",
    );
  });

  it.each([
    [
      ['trace'],
      "missing required argument 'recording': an NDJSON or HAR journal written with --record (replay, platform, listen, proxy), a saved GET /_sim/journal answer, or a HAR exported by a browser or another proxy; - for stdin",
      'For example: svc-cli trace session.ndjson\n  svc-cli trace --help lists its arguments and options.',
    ],
    [
      ['record', 'diff', 'a.ndjson'],
      "missing required argument 'b': the second recording (e.g. the simulator replaying the same conversations); - for stdin",
      'For example: svc-cli record diff real.ndjson sim.ndjson\n  svc-cli record diff --help lists its arguments and options.',
    ],
    // no example of send-text's help fits one line: the shortest, joined on one
    [
      ['send-text'],
      "missing required argument 'text': message text (over 1000 characters the platform cuts it)",
      'For example: svc-cli send-text "Hello" --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1\n  svc-cli send-text --help lists its arguments and options.',
    ],
    [
      ['send-media'],
      "missing required argument 'type': one of video, audio, voice, photo, sticker, document",
      'For example: svc-cli send-media document --file https://cdn.example/terms.pdf --sender-id c-1\n  svc-cli send-media --help lists its arguments and options.',
    ],
    [
      ['trace', 'a.ndjson', '--bogus'],
      "unknown option '--bogus'",
      'svc-cli trace --help lists its arguments and options.',
    ],
    [['record', 'foo'], "unknown command 'foo'", 'svc-cli record --help lists its commands.'],
  ])('%j: the hint names the help of the command typed', async (argv, message, hint) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, argv)).toBe(2);
    expect(t.stderr()).toBe(
      `error [SVC_E_USAGE] ${message}\n  ${hint}\n  more: svc-cli explain SVC_E_USAGE\n`,
    );
  });

  it.each([
    [['drift', '--help'], 'drift'],
    [['replya', '-h'], 'replya'],
    [['--time-scale', '0.5', 'drift', '--help'], 'drift'],
    [['record', 'foo', '--help'], 'foo'],
  ])(
    '%j: the unknown command is the error, not the help of another (exit 2)',
    async (argv, name) => {
      const t = createTestContext({ cwd });
      expect(await runInProcess(t, argv)).toBe(2);
      expect(t.stderr()).toContain(`error [SVC_E_USAGE] unknown command '${name}'`);
      expect(t.stdout()).not.toContain('Usage:');
    },
  );

  it.each([
    [['record', '--help'], 'Usage: svc-cli record'],
    [['record', 'to-fixture', '--help'], 'Usage: svc-cli record to-fixture'],
    [['replay', 'x.json', '--help'], 'Usage: svc-cli replay'],
    [['--time-scale', '0.5', 'replay', '--help'], 'Usage: svc-cli replay'],
  ])('%j: a known command still shows its help', async (argv, usage) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, argv)).toBe(0);
    expect(t.stdout()).toContain(usage);
  });

  it('hook-fire with a misspelt event names the closest one', async () => {
    const t = createTestContext({ cwd });
    expect(
      await runInProcess(t, ['hook-fire', 'chat_acepted', '--url', 'http://127.0.0.1:1']),
    ).toBe(2);
    expect(t.stderr()).toContain('it is not a hook event of spec 6.2. Did you mean chat_accepted?');
  });

  it('a bad --fault value is quoted once', async () => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['hook-target', '--fault', 'status:abc'])).toBe(2);
    expect(t.stderr()).toContain(
      'Could not use --fault "status:abc": status:<code> needs an HTTP status from 100 to 599.',
    );
  });

  it('the main --help lists exit code 5; platform --help points at docs/platform.md', async () => {
    const main = createTestContext({ cwd });
    expect(await runInProcess(main, ['--help'])).toBe(0);
    expect(main.stdout()).toMatch(/5 the machine\s+failed\s+under the run/);
    const platform = createTestContext({ cwd });
    expect(await runInProcess(platform, ['platform', '--help'])).toBe(0);
    expect(platform.stdout()).toMatch(/control API\s+under\s+\/_sim\/\s+\(docs\/platform\.md\)/);
    // where a bot posts its answers, and with which token
    expect(platform.stdout().replace(/\s+/g, ' ')).toContain(
      '{base} being this simulator\'s URL (the banner\'s "bot webhook" line) and <token> the same one',
    );
  });
});

/** What a real bash completes for a command line, with the program's script sourced. */
function bashCompleter(cwd = process.cwd()): (line: string) => string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-completion-')), 'svc-cli.bash');
  writeFileSync(file, generateCompletion(program, 'bash'));
  return (line) => {
    const words = line.split(' ');
    const script = `source ${file}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _svc_cli; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', script], { encoding: 'utf8', cwd })
      .split('\n')
      .filter(Boolean);
  };
}

/** Whether a shell is installed here (.ci/run installs zsh and fish). */
const has = (shell: string): boolean => {
  try {
    execFileSync(shell, ['-c', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * What a real zsh or fish completes for each command line, in `cwd`, with the script loaded
 * (zsh: one session in a pseudo-terminal for all the lines, test/helpers/zsh-complete.zsh).
 */
function completeIn(shell: 'zsh' | 'fish', cwd: string, lines: string[]): string[][] {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-completion-')), `svc-cli.${shell}`);
  writeFileSync(file, generateCompletion(program, shell));
  const helper = fileURLToPath(new URL('../../helpers/zsh-complete.zsh', import.meta.url));
  const run = (args: string[], command = shell): string =>
    execFileSync(command, args, { encoding: 'utf8', cwd, timeout: 30_000 }).replace(/\r/g, '');
  const outputs =
    shell === 'zsh'
      ? run(['-f', helper, file, ...lines]).split(/^--$/m)
      : lines.map((line) =>
          run(['--no-config', '-c', `source ${file}; complete -C ${JSON.stringify(line)}`]),
        );
  // fish prints "word<TAB>description" and a folder with its "/"; zsh's matches have neither
  return outputs.slice(0, lines.length).map((out) => {
    const words = out.split('\n').map((l) => (l.split('\t')[0] ?? '').replace(/\/$/, ''));
    return [...new Set(words.filter(Boolean))].sort();
  });
}

describe.each([
  ['zsh', !has('zsh')],
  ['fish', !has('fish')],
] as const)('%s completion, through a real shell', (shell, absent) => {
  it.skipIf(absent)('files where a file goes; choices; nothing for a number', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-completion-files-'));
    writeFileSync(join(dir, 'run.ndjson'), '');
    mkdirSync(join(dir, 'reports'));
    const files = ['reports', 'run.ndjson'];
    const cases: Array<[string, string[]]> = [
      // a file argument, after a space (zsh dropped the empty word and offered nothing)
      ['svc-cli trace ', files],
      ['svc-cli record to-fixture ', files],
      // a value that names a file; one that is a number gets no file names
      ['svc-cli coverage --junit ', files],
      ['svc-cli --config ', files],
      ['svc-cli coverage --min ', []],
      // choices, and a command's subcommands until one is given
      ['svc-cli completion ', ['bash', 'fish', 'zsh']],
      ['svc-cli record ', ['diff', 'profile', 'to-fixture']],
    ];
    const got = completeIn(
      shell,
      dir,
      cases.map(([line]) => line),
    );
    expect(Object.fromEntries(cases.map(([line], i) => [line, got[i]]))).toEqual(
      Object.fromEntries(cases),
    );
  });
});

describe('completion scripts come from the program', () => {
  it('bash: every command, its flags and choices; valid syntax', () => {
    const script = generateCompletion(program, 'bash');
    for (const name of commandNames) expect(script).toContain(`    ${name}:*) `);
    expect(script).toContain(
      'platform:--agents) COMPREPLY=( $(compgen -W \'online offline\' -- "$cur") )',
    );
    expect(script).toContain(
      "init:--role) COMPREPLY=( $(compgen -W 'integrator bot-provider hook-receiver web-developer platform-qa'",
    );
    expect(script).toContain(
      `completion:*) if [[ -z $sub && $cur != -* ]]; then COMPREPLY=( $(compgen -W 'bash zsh fish' -- "$cur") ); else COMPREPLY=( $(compgen -W '-h --help bash zsh fish`,
    );
    const file = join(mkdtempSync(join(tmpdir(), 'svc-completion-')), 'svc-cli.bash');
    writeFileSync(file, script);
    execFileSync('bash', ['-n', file]);
  });

  it('bash: completes through a real bash', () => {
    const complete = bashCompleter();
    expect(complete('svc-cli pla')).toEqual(['platform']);
    expect(complete('svc-cli --time-scale 0.1 platform --age')).toEqual(['--agents']);
    expect(complete('svc-cli platform --agents o')).toEqual(['online', 'offline']);
    expect(complete('svc-cli completion z')).toEqual(['zsh']);
    // a subcommand completes, and -h/--help comes once
    expect(complete('svc-cli record to')).toEqual(['to-fixture']);
    // and then its own flags, not its parent's
    expect(complete('svc-cli record to-fixture session.ndjson --o')).toEqual(['--out']);
    expect(complete('svc-cli record to-fixture -')).toEqual(
      expect.arrayContaining(['-o', '--out', '--name', '--help']),
    );
    expect(complete('svc-cli record --o')).toEqual([]);
    // a command's value is not taken for a subcommand
    expect(complete('svc-cli platform --port 0 --age')).toEqual(['--agents']);
    const all = complete('svc-cli completion -');
    expect(all.filter((w) => w === '--help')).toHaveLength(1);
  });

  it('bash: an empty word after a command is its argument (suites, media types, events); a dash its flags', () => {
    const complete = bashCompleter();
    expect(complete('svc-cli conform ')).toEqual(['integrator', 'hooks', 'platform', 'bot']);
    expect(complete('svc-cli send-media ')).toEqual([...FILE_MEDIA_TYPES]);
    expect(complete('svc-cli hook-fire chat_a')).toEqual(['chat_accepted', 'chat_assigned']);
    expect(complete('svc-cli conform --u')).toEqual(['--url']);
    // the argument given, the flags come
    expect(complete('svc-cli conform hooks ')).toContain('--url');
    // no argument to offer: the flags, as before
    expect(complete('svc-cli platform ')).toContain('--integrator-url');
  });

  it('bash: a value without choices and a file argument complete file names; config a command', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-completion-files-'));
    writeFileSync(join(dir, 'run.ndjson'), '');
    mkdirSync(join(dir, 'reports'));
    const complete = bashCompleter(dir);
    const sorted = (line: string): string[] => complete(line).sort();
    const files = ['reports', 'run.ndjson'];
    // after an option that takes a value with no choices: file names, not the flag list
    expect(sorted('svc-cli coverage --junit ')).toEqual(files);
    expect(complete('svc-cli coverage run.ndjson --junit rep')).toEqual(['reports']);
    expect(sorted('svc-cli load integrator --out ')).toEqual(files);
    expect(sorted('svc-cli load integrator --url ')).toEqual(files);
    expect(sorted('svc-cli --config ')).toEqual(files);
    expect(sorted('svc-cli record to-fixture session.ndjson -o ')).toEqual(files);
    // a positional file argument completes files; a dash still its flags
    expect(sorted('svc-cli coverage ')).toEqual(files);
    expect(complete('svc-cli coverage r')).toEqual(['reports', 'run.ndjson']);
    expect(sorted('svc-cli record to-fixture ')).toEqual(files);
    expect(complete('svc-cli coverage --u')).toEqual(['--uncovered']);
    // a value given is not taken for the argument
    expect(complete('svc-cli load --out x.json ')).toEqual([
      'integrator',
      'channel',
      'hooks',
      'bot',
    ]);
    // config's argument is a command of the program
    expect(complete('svc-cli config ')).toEqual(expect.arrayContaining(commandNames));
    expect(complete('svc-cli config lis')).toEqual(['listen']);
    // explain's argument: the error codes (its own reply holds no file names)
    expect(complete('svc-cli explain SVC_E_TLS_F')).toEqual(['SVC_E_TLS_FILE']);
    expect(complete('svc-cli explain r')).toEqual([]);
    // choices are offered as before
    expect(complete('svc-cli replay --reporter j')).toEqual(['json', 'junit']);
    expect(complete('svc-cli init --role b')).toEqual(['bot-provider']);
  });

  it('zsh and fish name every command and the choices', () => {
    const zsh = generateCompletion(program, 'zsh');
    const fish = generateCompletion(program, 'fish');
    expect(zsh.startsWith('#compdef svc-cli')).toBe(true);
    expect(zsh).toContain(
      "'--agents[agents online (status 1) or offline (status 0) (default online; env SVC_AGENTS)]:value:(online offline)'",
    );
    expect(fish).toContain(
      "complete -c svc-cli -n '__fish_seen_subcommand_from platform' -l agents -x -a 'online offline'",
    );
    expect(fish).toContain(
      "complete -c svc-cli -n '__fish_seen_subcommand_from record; and __fish_seen_subcommand_from to-fixture' -s o -l out -r",
    );
    expect(zsh).toMatch(/ {4}record\) _arguments[^;]*'--out\[/);
    for (const name of commandNames) {
      expect(zsh).toContain(`    ${name}) _arguments`);
      expect(fish).toContain(`-a ${name} -d`);
    }
  });
});
