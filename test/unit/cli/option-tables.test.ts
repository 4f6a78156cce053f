/**
 * Every option of every command is declared once, in its table, and reaches the
 * command from each of its three sources: the config file (top level and commands.<name>),
 * the SVC_* environment, and the flag as commander parses it.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
// CommonJS: its plugin is the default export's `default` under NodeNext types
import ajvFormats from 'ajv-formats';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { givenFlags } from '../../../src/cli/action.js';
import { createProgram } from '../../../src/cli/main.js';
import { ALL_TABLES } from '../../../src/cli/options/all.js';
import { createConfigJsonSchema } from '../../../src/cli/options/json-schema.js';
import { addOptions } from '../../../src/cli/options/register.js';
import {
  checkConfigValues,
  inspectOptions,
  resolveOptions,
} from '../../../src/cli/options/resolve.js';
import {
  GLOBAL_OPTIONS,
  type OptionSpec,
  type OptionTable,
} from '../../../src/cli/options/table.js';
import { SvcError } from '../../../src/errors.js';
import { ERROR_HELP } from '../../../src/error-help.js';
import { createTestContext } from '../../helpers/cli-context.js';
import { repoRoot } from '../../helpers/run-cli.js';

const emptyDir = mkdtempSync(join(tmpdir(), 'svc-tables-'));

/** A valid value other than the default: [argv words, env text, config JSON, resolved]. */
function sampleOf(spec: OptionSpec): [string[], string, unknown, unknown] {
  const long = spec.flag.replace(/^-\w, /, '').split(' ')[0] ?? '';
  switch (spec.type) {
    case 'string':
      // a duration option is checked as one: a value it takes
      if (spec.duration !== undefined) return [[long, '7s'], '7s', '7s', '7s'];
      return [[long, `v-${spec.key}`], `v-${spec.key}`, `v-${spec.key}`, `v-${spec.key}`];
    case 'path':
      return [[long, `v-${spec.key}`], `v-${spec.key}`, `v-${spec.key}`, `v-${spec.key}`];
    case 'host':
      return [[long, 'localhost'], 'localhost', 'localhost', 'localhost'];
    case 'url': {
      const url = `http://127.0.0.1:9/${spec.key}`;
      return [[long, url], url, url, url];
    }
    case 'int': {
      const n = Math.min((spec.min ?? 0) + 1, spec.max ?? Number.MAX_SAFE_INTEGER);
      const value = n === spec.default ? n + 1 : n;
      return [[long, String(value)], String(value), value, value];
    }
    case 'number': {
      const value =
        spec.min !== undefined && spec.max !== undefined
          ? (spec.min + spec.max) / 2 + 0.25
          : (spec.min ?? 0) + 0.5;
      return [[long, String(value)], String(value), value, value];
    }
    case 'boolean': {
      const value = spec.default !== true;
      return [[long], String(value), value, value];
    }
    case 'choice': {
      const value = spec.choices.find((c) => c !== spec.default) ?? spec.choices[0] ?? '';
      return [[long, value], value, value, value];
    }
    case 'list':
      return [[long, 'a', long, 'b'], 'a,b', ['a', 'b'], ['a', 'b']];
    case 'fault':
      return [[long, 'status:503'], 'status:503', 'status:503', { kind: 'status', status: 503 }];
    default: {
      const never: never = spec;
      throw new Error(`no sample for ${JSON.stringify(never)}`);
    }
  }
}

/** What every required option of a table needs, as flags, so a run can resolve. */
function requiredFlags(table: OptionTable, except: string): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (const spec of table.options) {
    if (spec.required && spec.key !== except) flags[spec.key] = sampleOf(spec)[3];
  }
  return flags;
}

/** The flags commander hands a command for argv, through the same registration. */
function parseArgv(table: OptionTable, argv: string[]): Record<string, unknown> {
  const cmd = new Command('t').exitOverride();
  addOptions(cmd, GLOBAL_OPTIONS);
  addOptions(cmd, table);
  cmd.parse(argv, { from: 'user' });
  return givenFlags(cmd);
}

const dirWith = (config: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-tables-'));
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return dir;
};

const cases = ALL_TABLES.flatMap((table) =>
  [...GLOBAL_OPTIONS, ...table.options]
    .filter((spec) => spec.key !== 'config')
    .map((spec) => [`${table.command} ${spec.flag}`, table, spec] as const),
);

describe.each(cases)('%s', (_name, table, spec: OptionSpec) => {
  const [argv, envText, configValue, expected] = sampleOf(spec);
  const base = requiredFlags(table, spec.key);

  it('from the flag', () => {
    const flags = { ...base, ...parseArgv(table, argv) };
    const resolved = resolveOptions(table, { flags, env: {}, cwd: emptyDir }) as Record<
      string,
      unknown
    >;
    expect(resolved[spec.key]).toEqual(expected);
  });

  if (spec.env !== undefined && table.readsConfig !== false)
    it('from the environment', () => {
      const inspected = inspectOptions(table, {
        flags: base,
        env: { [spec.env ?? '']: envText },
        cwd: emptyDir,
      }).options.find((o) => o.spec.key === spec.key);
      expect(inspected).toMatchObject({ value: expected, source: 'env', from: spec.env });
    });

  if (spec.config !== false && table.readsConfig !== false)
    it('from the config file, top level and commands.<name>', () => {
      const top = dirWith({ version: 1, [spec.key]: configValue });
      const section = dirWith({
        version: 1,
        commands: { [table.command]: { [spec.key]: configValue } },
      });
      for (const cwd of [top, section]) {
        const inspection = inspectOptions(table, { flags: base, env: {}, cwd });
        expect(inspection.warnings).toEqual([]);
        expect(inspection.options.find((o) => o.spec.key === spec.key)).toMatchObject({
          value: expected,
          source: 'file',
        });
      }
      // the generated JSON Schema accepts what the resolver accepts
      expect(checkConfigValues({ version: 1, [spec.key]: configValue }).problems).toEqual([]);
    });

  if (spec.config === false && table.readsConfig !== false)
    it('never from the config file', () => {
      const cwd = dirWith({
        version: 1,
        commands: { [table.command]: { [spec.key]: configValue } },
      });
      const inspection = inspectOptions(table, { flags: base, env: {}, cwd });
      expect(inspection.options.find((o) => o.spec.key === spec.key)?.source).toBe('default');
    });
});

describe('registration', () => {
  /** Every command of the real program, with its full name (`record to-fixture`). */
  function commandsOf(cmd: Command, prefix = ''): [string, Command][] {
    return cmd.commands.flatMap((c) => {
      const name = `${prefix}${c.name()}`;
      return [[name, c] as [string, Command], ...commandsOf(c, `${name} `)];
    });
  }

  it('every flag of every command comes from its table, and every table from a command', () => {
    const program = createProgram(createTestContext({ cwd: emptyDir }).ctx);
    const tables = new Map(ALL_TABLES.map((t) => [t.command, t]));
    const seen = new Set<string>();
    for (const [name, cmd] of commandsOf(program)) {
      const table = tables.get(name);
      const flags = cmd.options.map((o) => o.flags).sort();
      if (table) seen.add(name);
      expect({ name, flags }).toEqual({
        name,
        flags: (table?.options ?? []).map((s) => s.flag).sort(),
      });
    }
    expect(
      program.options
        .map((o) => o.flags)
        .filter((f) => f !== '-V, --version')
        .sort(),
    ).toEqual(GLOBAL_OPTIONS.map((s) => s.flag).sort());
    expect([...tables.keys()].filter((t) => !seen.has(t))).toEqual([]);
  });

  it('every flag `svc-cli explain` names is a flag of some command', () => {
    const program = createProgram(createTestContext({ cwd: emptyDir }).ctx);
    const known = new Set(
      ['--help', '--version', ...[program, ...commandsOf(program).map(([, c]) => c)]].flatMap(
        (c) =>
          typeof c === 'string'
            ? [c]
            : c.options.flatMap((o) => [o.long, o.long?.replace(/^--no-/, '--')]),
      ),
    );
    const named = Object.entries(ERROR_HELP).flatMap(([code, help]) =>
      [...JSON.stringify(help).matchAll(/(?<![\w-])--[a-z][a-z0-9-]+/g)].map(
        (m) => `${code}: ${m[0]}`,
      ),
    );
    expect(named.length).toBeGreaterThan(20);
    expect(named.filter((n) => !known.has(n.split(': ')[1]))).toEqual([]);
  });

  it('one key means one thing: the same key has the same type in every table', () => {
    const byKey = new Map<string, OptionSpec>();
    for (const spec of ALL_TABLES.flatMap((t) => t.options)) {
      if (spec.config === false) continue;
      const first = byKey.get(spec.key);
      if (!first) byKey.set(spec.key, spec);
      else expect(`${spec.key}: ${spec.type}`).toBe(`${spec.key}: ${first.type}`);
    }
  });
});

describe('the resolver', () => {
  const error = (run: () => unknown): SvcError => {
    try {
      run();
    } catch (e) {
      if (e instanceof SvcError) return e;
      throw e;
    }
    throw new Error('expected an SvcError');
  };
  const listen = ALL_TABLES.find((t) => t.command === 'listen')!;
  const sendText = ALL_TABLES.find((t) => t.command === 'send-text')!;

  it.each([
    [{ timeScale: '-1' }, 'Could not use --time-scale "-1": must be greater than 0.'],
    // beyond, a protocol timer no longer fits Node's 32-bit timeout
    [{ timeScale: '1e9' }, 'Could not use --time-scale "1e9": must be at most 1000.'],
    [{ faultRate: '2' }, 'Could not use --fault-rate "2": must be at most 1.'],
    [{ port: '70000' }, 'Could not use --port "70000": must be at most 65535.'],
    [{ port: 'soon' }, 'Could not use --port "soon": must be a number.'],
    // a decimal comma, as many locales write it: the fix, not only the refusal
    [
      { timeScale: '0,1' },
      'Could not use --time-scale "0,1": must be a number, with a decimal point (0.1).',
    ],
    [{ delay: '1.5' }, 'Could not use --delay "1.5": must be a whole number of ms.'],
    [{ fault: 'explode' }, 'Could not use --fault "explode": unknown fault "explode"'],
    // refused before a warning that binding it exposes the server (then "no such host")
    [{ host: '999.1.1.1' }, 'Could not use --host "999.1.1.1": must be an IP address or a host'],
    [{ host: 'my host' }, 'Could not use --host "my host": must be an IP address or a host'],
  ])('names the flag and the problem: %j', (flags, message) => {
    const e = error(() => resolveOptions(listen, { flags, env: {}, cwd: emptyDir }));
    expect(e.code).toBe('SVC_E_OPTIONS');
    expect(e.category).toBe('input');
    expect(e.message).toContain(message);
  });

  it('checks a duration written as a string where every value is checked (svc-cli config too)', () => {
    const platform = ALL_TABLES.find((t) => t.command === 'platform')!;
    const idle = (value: string) =>
      inspectOptions(platform, {
        flags: { chatIdleTimeout: value },
        env: {},
        cwd: emptyDir,
      }).options.find((o) => o.spec.key === 'chatIdleTimeout');
    expect(idle('5x')?.problem).toBe(
      'must be a duration with ms, s, m or h (10s, 500ms, 2m; a bare number is seconds), or off',
    );
    for (const fine of ['30m', 'off', '90', '500ms']) expect(idle(fine)?.problem).toBeUndefined();
    const wait = inspectOptions(sendText, {
      flags: { wait: 'soon' },
      env: {},
      cwd: emptyDir,
    }).options.find((o) => o.spec.key === 'wait');
    expect(wait?.problem).toContain('must be a duration');
    // --delay and --hook-timeout take a unit too, as --timeout does
    const delay = inspectOptions(listen, {
      flags: { delay: '2s' },
      env: {},
      cwd: emptyDir,
    }).options.find((o) => o.spec.key === 'delay');
    expect(delay?.value).toBe(2000);
  });

  it.each(['127.0.0.1', '0.0.0.0', '::1', '::', 'localhost', 'svc-sim.internal'])(
    'takes --host %s',
    (host) => {
      const { options } = inspectOptions(listen, { flags: { host }, env: {}, cwd: emptyDir });
      expect(options.find((o) => o.spec.key === 'host')?.value).toBe(host);
    },
  );

  it('--timeout takes ms or a duration with a unit, from a flag, env or the file', () => {
    const timeout = (flags: Record<string, unknown>, env: Record<string, string> = {}) =>
      inspectOptions(sendText, { flags, env, cwd: emptyDir }).options.find(
        (o) => o.spec.key === 'timeout',
      );
    expect(timeout({ timeout: '10s' })?.value).toBe(10_000);
    expect(timeout({ timeout: '1.5s' })?.value).toBe(1500);
    expect(timeout({ timeout: '2500' })?.value).toBe(2500);
    expect(timeout({}, { SVC_TIMEOUT: '2m' })?.value).toBe(120_000);
    expect(
      inspectOptions(sendText, { flags: {}, env: {}, cwd: dirWith({ version: 1, timeout: '3s' }) }),
    ).toMatchObject({
      options: expect.arrayContaining([expect.objectContaining({ value: 3000 })]),
    });
    expect(timeout({ timeout: 'soon' })?.problem).toBe(
      'must be a number of ms or a duration with a unit (10s, 2m)',
    );
    expect(timeout({ timeout: '0s' })?.problem).toBe('must be at least 1');
  });

  it('--platform-wait takes seconds or a duration with a unit, in whole seconds', () => {
    const table = ALL_TABLES.find((t) => t.command === 'widget')!;
    const wait = (platformWait: string) =>
      inspectOptions(table, { flags: { platformWait }, env: {}, cwd: emptyDir }).options.find(
        (o) => o.spec.key === 'platformWait',
      );
    expect(wait('2m')?.value).toBe(120);
    expect(wait('30')?.value).toBe(30);
    expect(wait('2s')?.value).toBe(2);
    expect(wait('500ms')?.problem).toBe('must be a whole number of s');
    expect(wait('soon')?.problem).toBe('must be a number of s or a duration with a unit (10s, 2m)');
  });

  it('names the source of a bad value and says how to give a missing one', () => {
    const e = error(() =>
      resolveOptions(sendText, { flags: {}, env: { SVC_CHANNEL_URL: 'nope' }, cwd: emptyDir }),
    );
    expect(e.message).toMatchInlineSnapshot(
      `"Could not use the options: --channel-url (from SVC_CHANNEL_URL) "nope": must be an http(s) URL, e.g. http://127.0.0.1:9000/path; --sender-id is required (or set SVC_SENDER_ID, or "senderId" in svc.config.json)."`,
    );
  });

  it('a missing value names a set SVC_* variable one typo from its own', () => {
    const env = { SVC_CHANEL_URL: 'http://127.0.0.1:9/r/c', SVC_SENDER_ID: 'c-1', SVC_FOO: 'x' };
    const e = error(() => resolveOptions(sendText, { flags: {}, env, cwd: emptyDir }));
    expect(e.message).toMatchInlineSnapshot(
      `"Could not run svc-cli send-text: --channel-url is required (or set SVC_CHANNEL_URL, or "channelUrl" in svc.config.json); SVC_CHANEL_URL is set, but svc-cli reads SVC_CHANNEL_URL."`,
    );
    // a variable another option reads, or one far from the name, is no typo
    const far = error(() =>
      resolveOptions(sendText, {
        flags: {},
        env: { SVC_CHANNEL: 'x', SVC_SENDER_ID: 'c-1', SVC_FOO: 'x' },
        cwd: emptyDir,
      }),
    );
    expect(far.message).not.toContain('is set, but');
  });

  it('a missing channel URL says where to get one; a bad one does not', () => {
    const missing = error(() => resolveOptions(sendText, { flags: {}, env: {}, cwd: emptyDir }));
    expect(missing.hint).toBe(
      'No channel yet? `svc-cli platform` in another terminal prints one (export SVC_CHANNEL_URL=<it>); `svc-cli chat` runs a platform of its own.\n  Run svc-cli send-text --help to see its flags.',
    );
    const bad = error(() =>
      resolveOptions(sendText, { flags: {}, env: { SVC_CHANNEL_URL: 'nope' }, cwd: emptyDir }),
    );
    expect(bad.hint).not.toContain('No channel yet');
  });

  it('a URL typed without its scheme is shown with one; other bad URLs get the example', () => {
    const problem = (url: string) =>
      inspectOptions(sendText, { flags: { channelUrl: url }, env: {}, cwd: emptyDir }).options.find(
        (o) => o.spec.key === 'channelUrl',
      )?.problem;
    expect(problem('127.0.0.1:8800/r4nd0m/shop')).toBe(
      'must start with http:// or https://, e.g. "http://127.0.0.1:8800/r4nd0m/shop"',
    );
    expect(problem('localhost:9000')).toBe(
      'must start with http:// or https://, e.g. "http://localhost:9000"',
    );
    expect(problem('svc.example/r/ch')).toBe(
      'must start with http:// or https://, e.g. "http://svc.example/r/ch"',
    );
    for (const url of ['nope', 'ftp://svc.example/r/ch', 'http:/svc.example', ''])
      expect(problem(url), url).toBe('must be an http(s) URL, e.g. http://127.0.0.1:9000/path');
  });

  it('precedence: file < env < flag, and a file value names its file', () => {
    const dir = dirWith({ version: 1, port: 9000, commands: { listen: { port: 9001 } } });
    const portOf = (flags: Record<string, unknown>, env: Record<string, string>) =>
      inspectOptions(listen, { flags, env, cwd: dir }).options.find((o) => o.spec.key === 'port');
    expect(portOf({}, {})).toMatchObject({ value: 9001, source: 'file' });
    expect(portOf({}, { SVC_PORT: '9100' })).toMatchObject({ value: 9100, source: 'env' });
    expect(portOf({}, { SVC_PORT: '' })).toMatchObject({ value: 9001, source: 'file' });
    expect(portOf({ port: '9200' }, { SVC_PORT: '9100' })).toMatchObject({
      value: 9200,
      source: 'flag',
    });
    const bad = dirWith({ version: 1, port: 'x' });
    expect(error(() => resolveOptions(listen, { flags: {}, env: {}, cwd: bad })).message).toContain(
      `--port (from "port" in ${join(bad, 'svc.config.json')}) "x": must be a number`,
    );
  });

  it('warns about unknown keys with the closest one', () => {
    const dir = dirWith({
      version: 1,
      prot: 1,
      hookUrl: 'http://127.0.0.1:1/h',
      commands: { listen: { hookUrl: 'http://x.test' }, lisen: {} },
    });
    const { warnings } = inspectOptions(listen, { flags: {}, env: {}, cwd: dir });
    expect(warnings.map((w) => w.replace(dir, '<dir>'))).toEqual([
      'warning: <dir>/svc.config.json: unknown key "prot" is ignored. Did you mean "port"?',
      'warning: <dir>/svc.config.json: unknown key "commands.listen.hookUrl" is ignored: not an option of listen.',
      'warning: <dir>/svc.config.json: commands.lisen names no command with options. Did you mean "listen"?',
    ]);
  });

  it("names a typo in a command's section by its whole path, with the nearest key", () => {
    const dir = dirWith({
      version: 1,
      commands: { conform: { reprot: 'junit', tolerence: 5 }, replai: {} },
    });
    const conform = ALL_TABLES.find((t) => t.command === 'conform')!;
    const { warnings } = inspectOptions(conform, { flags: {}, env: {}, cwd: dir });
    expect(warnings.map((w) => w.replace(dir, '<dir>'))).toEqual([
      'warning: <dir>/svc.config.json: unknown key "commands.conform.reprot" is ignored: not an option of conform. Did you mean "reporter"?',
      'warning: <dir>/svc.config.json: unknown key "commands.conform.tolerence" is ignored: not an option of conform. Did you mean "tolerance"?',
      'warning: <dir>/svc.config.json: commands.replai names no command with options. Did you mean "replay"?',
    ]);
    // refused for its version, the file's section typos are named with it, as the top level's
    const noVersion = dirWith({ commands: { conform: { reprot: 'junit' } } });
    expect(
      error(() => resolveOptions(conform, { flags: {}, env: {}, cwd: noVersion })).message,
    ).toContain(
      'unknown key "commands.conform.reprot" (did you mean "reporter"?); it has no "version"',
    );
  });

  it('a flag-only key in a section says it is a flag only, and what to set instead', () => {
    const dir = dirWith({
      version: 1,
      commands: {
        load: { url: 'http://127.0.0.1:1/agent-messages' },
        conform: { url: 'http://127.0.0.1:1/agent-messages' },
      },
    });
    const table = (command: string): OptionTable => ALL_TABLES.find((t) => t.command === command)!;
    const warningsOf = (command: string): string[] =>
      inspectOptions(table(command), { flags: {}, env: {}, cwd: dir }).warnings.map((w) =>
        w.replace(dir, '<dir>'),
      );
    // not "not an option of load ... Did you mean "ca"?"
    expect(warningsOf('load')).toEqual([
      'warning: <dir>/svc.config.json: "url" in commands.load is --url, a flag only: the config file cannot set it; it is ignored. Give --url on the command line.',
    ]);
    expect(warningsOf('conform')).toEqual([
      'warning: <dir>/svc.config.json: "url" in commands.conform is --url, a flag only: the config file cannot set it; it is ignored. Give --url on the command line, or set the URL of each suite under test: integratorUrl, hookUrl or botProviderUrl (read when --url is not given).',
    ]);
    // and the keys it names are read from commands.conform
    const suites = dirWith({
      version: 1,
      commands: { conform: { integratorUrl: 'http://127.0.0.1:1/agent-messages' } },
    });
    const resolved = inspectOptions(table('conform'), { flags: {}, env: {}, cwd: suites });
    expect(resolved.warnings).toEqual([]);
    expect(resolved.options.find((o) => o.spec.key === 'integratorUrl')).toMatchObject({
      value: 'http://127.0.0.1:1/agent-messages',
      source: 'file',
    });
  });

  it('every flag-only option with a config-file alternative names keys the command reads', () => {
    for (const t of ALL_TABLES)
      for (const spec of t.options.filter((o) => o.configInstead !== undefined)) {
        expect(spec.config, `${t.command} ${spec.flag}`).toBe(false);
        const readable = new Set(t.options.filter((o) => o.config !== false).map((o) => o.key));
        const named = [...(spec.configInstead ?? '').matchAll(/\b([a-z]+[A-Z]\w*)\b/g)].map(
          (m) => m[1]!,
        );
        expect(named.length).toBeGreaterThan(0);
        for (const key of named) expect(readable, `${t.command}: ${key}`).toContain(key);
      }
  });

  it('docs/configuration.md lists every flag only, per command', () => {
    const docs = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');
    const long = (flag: string): string => flag.split(/[ ,]+/).find((w) => w.startsWith('--'))!;
    const row = (name: string, options: readonly OptionSpec[]): string | undefined => {
      const only = options.filter((o) => o.config === false).map((o) => `\`${long(o.flag)}\``);
      return only.length > 0 ? `| ${name} | ${only.join(', ')} |` : undefined;
    };
    const rows = [
      row('every command', GLOBAL_OPTIONS),
      ...ALL_TABLES.filter((t) => t.readsConfig !== false).map((t) =>
        row(`\`${t.command}\``, t.options),
      ),
    ].filter((r): r is string => r !== undefined);
    const table = docs.slice(docs.indexOf('| command | flags only |'));
    expect(table.split('\n').slice(2, 2 + rows.length + 1)).toEqual([...rows, '']);
  });

  it('docs/configuration.md names every SVC_* variable an option reads', () => {
    const docs = readFileSync(join(repoRoot, 'docs/configuration.md'), 'utf8');
    const table = docs.slice(docs.indexOf('| key | variable | used by |'));
    const envs = new Set(
      [...GLOBAL_OPTIONS, ...ALL_TABLES.flatMap((t) => t.options)].flatMap((o) =>
        'env' in o && typeof o.env === 'string' ? [o.env] : [],
      ),
    );
    for (const env of envs) expect(table, env).toContain(`\`${env}\``);
  });

  it('reads --config, and refuses a missing file or an unknown version', () => {
    const dir = dirWith({ version: 2 });
    expect(error(() => resolveOptions(listen, { flags: {}, env: {}, cwd: dir })).code).toBe(
      'SVC_E_CONFIG_VERSION',
    );
    expect(
      error(() => resolveOptions(listen, { flags: { config: 'missing.json' }, env: {}, cwd: dir }))
        .code,
    ).toBe('SVC_E_CONFIG');
  });

  it('a file without "version" names its typos first, then the missing version', () => {
    const e = error(() =>
      resolveOptions(listen, { flags: {}, env: {}, cwd: dirWith({ sendrId: 'x' }) }),
    );
    expect(e.code).toBe('SVC_E_CONFIG_VERSION');
    expect(e.message).toMatch(
      /: unknown key "sendrId" \(did you mean "senderId"\?\); it has no "version"\.$/,
    );
    expect(e.hint).toContain('Add "version": 1');
    expect(e.message + (e.hint ?? '')).not.toMatch(/upgrade/i);
    const array = error(() => resolveOptions(listen, { flags: {}, env: {}, cwd: dirWith([]) }));
    expect(array.code).toBe('SVC_E_CONFIG');
    expect(array.message).toContain('it is a JSON array; the config file is one JSON object');
    const newer = error(() =>
      resolveOptions(listen, { flags: {}, env: {}, cwd: dirWith({ version: 2 }) }),
    );
    expect(newer.hint).toMatch(/^Upgrade svc-cli/);
  });
});

describe('the JSON Schema of svc.config.json', () => {
  const ajv = new Ajv2020({ strict: false });
  ajvFormats.default(ajv); // checks `uri` and the other formats instead of warning
  const validate = ajv.compile(createConfigJsonSchema());

  it('accepts a file that sets every key of every command, and refuses bad values', () => {
    const file: Record<string, unknown> = { version: 1, role: 'integrator', commands: {} };
    for (const table of ALL_TABLES) {
      const section: Record<string, unknown> = {};
      for (const spec of table.options) {
        if (spec.config === false) continue;
        section[spec.key] = sampleOf(spec)[2];
        file[spec.key] ??= sampleOf(spec)[2];
      }
      (file.commands as Record<string, unknown>)[table.command] = section;
    }
    expect(validate(file), JSON.stringify(validate.errors)).toBe(true);
    expect(checkConfigValues(file).problems).toEqual([]);
    for (const bad of [
      { version: 1, port: 70000 },
      { version: 1, integratorUrl: 'ftp://x' },
      { version: 1, commands: { listen: { port: 'x' } } },
      { version: 2 },
    ]) {
      expect(validate(bad)).toBe(false);
      expect(checkConfigValues(bad).problems.length).toBeGreaterThan(0);
    }
  });
});

describe('an option with a default in its table', () => {
  it('does not state it in its description too: --help adds "(default: ...)" once', () => {
    const doubled = ALL_TABLES.flatMap((table) =>
      (table.options as readonly OptionSpec[])
        .filter(
          (o) => 'default' in o && o.default !== undefined && /\bdefault\b/i.test(o.description),
        )
        .map((o) => `${table.command} ${o.flag}`),
    );
    expect(doubled).toEqual([]);
  });
});
