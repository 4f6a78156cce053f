/**
 * The one resolver of every command's options, so a flag is normalised in one place: the config file
 * (top level, then `commands.<name>`) < SVC_* environment < flags, each value checked against
 * its table entry and remembered with its source. Loaded lazily by the `*-run.ts` bodies.
 */
import { isIP } from 'node:net';
import { parseFault } from '../../faults/fault.js';
import { applyClientTrust } from '../client-trust.js';
import { noticeLine } from '../render/notice.js';
import { SvcError } from '../../errors.js';
import { closestNames } from '../../suggest.js';
import { CONFIG_FILE, CONFIG_VERSION, ROLES, loadConfig } from '../config-file.js';
import { ALL_TABLES } from './all.js';
import { rangeProblem } from './range.js';
import { readDuration } from '../../duration.js';
import {
  GLOBAL_OPTIONS,
  type GlobalOptions,
  type OptionSpec,
  type OptionTable,
  type OptionsOf,
} from './table.js';

/** Where a resolved value came from (`svc-cli config` prints it). */
export type OptionSource = 'file' | 'env' | 'flag' | 'default';

export interface ResolveSources {
  /** the flags given on the command line (`givenFlags(cmd)`), camelCase */
  flags: Readonly<Record<string, unknown>>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

export interface ResolvedOption {
  spec: OptionSpec;
  /** the value as the command uses it (undefined when unset or invalid) */
  value: unknown;
  /** the value as given, when invalid */
  raw?: unknown;
  source: OptionSource;
  /** how a message names it: `--port (from SVC_PORT)` */
  origin: string;
  /** for file and env: the file or the variable */
  from?: string;
  problem?: string;
}

export interface Inspection {
  file: string | undefined;
  /** whether the file has a `commands.<command>` section */
  hasSection: boolean;
  options: ResolvedOption[];
  /** unknown keys of the config file, with "did you mean" */
  warnings: string[];
}

/** The options of a table plus the global ones, as one typed object. */
export type Resolved<T extends OptionTable> = OptionsOf<T> & GlobalOptions;

const NO_CONFIG: ReturnType<typeof loadConfig> = {
  file: undefined,
  values: {},
  forCommand: () => ({}),
  section: () => undefined,
  sectionNames: () => [],
};

/** The global options, widened to the spec type. */
const GLOBALS: readonly OptionSpec[] = GLOBAL_OPTIONS;

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

type Checked = { ok: true; value: unknown } | { ok: false; problem: string };

function toNumber(raw: unknown): number | undefined {
  if (typeof raw === 'number') return raw;
  if (typeof raw === 'string' && raw.trim() !== '') return Number(raw);
  return undefined;
}

const HOST_NAME =
  /^[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** An IP address, or a host name that is not a mistyped IPv4 address (`999.1.1.1`). */
function isHost(value: string): boolean {
  if (isIP(value) !== 0) return true;
  if (/^[\d.]+$/.test(value) || value.includes(':')) return false;
  return value.length <= 253 && HOST_NAME.test(value);
}

/** A host (a name with a dot, localhost, an IPv4 address), a port, a path: no scheme. */
const SCHEMELESS = /^(localhost|[\w-]+(\.[\w-]+)+)(:\d+)?(\/\S*)?$/i;

/** `http://host...` or `https://host...` that parses as a URL. */
const isHttpUrl = (value: string): boolean =>
  /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value);

/**
 * What is wrong with `value` as an http(s) URL, undefined when nothing: a URL typed without
 * its scheme (127.0.0.1:8800/r/ch) is shown with one. Flags, config values and init's answers
 * are read alike.
 * @example httpUrlProblem('localhost:9200/hooks') // 'must start with http:// or https://, e.g. "http://localhost:9200/hooks"'
 */
export function httpUrlProblem(value: string): string | undefined {
  if (isHttpUrl(value)) return undefined;
  return SCHEMELESS.test(value) && isHttpUrl(`http://${value}`)
    ? `must start with http:// or https://, e.g. "http://${value}"`
    : 'must be an http(s) URL, e.g. http://127.0.0.1:9000/path';
}

/**
 * An int of the option's unit (ms, or s) that may also be written as a duration with a unit
 * (`--timeout 10s`, `--platform-wait 500ms` is refused: not whole seconds).
 */
function checkDuration(spec: OptionSpec & { type: 'int' }, raw: unknown): Checked {
  const unit = spec.unit === 's' ? 's' : 'ms';
  const ms = typeof raw === 'string' ? readDuration(raw, unit) : undefined;
  const n = ms === undefined ? toNumber(raw) : unit === 's' ? ms / 1000 : ms;
  if (n === undefined || !Number.isFinite(n))
    return {
      ok: false,
      problem: `must be a number of ${unit} or a duration with a unit (10s, 2m)`,
    };
  if (!Number.isInteger(n)) return { ok: false, problem: `must be a whole number of ${unit}` };
  const problem = rangeProblem(n, spec);
  return problem === undefined ? { ok: true, value: n } : { ok: false, problem };
}

/**
 * One value (a string from argv or env; JSON from the file) against its table entry.
 * @example checkValue({ key: 'port', flag: '--port <n>', type: 'int', min: 0, description: '' }, '80') // { ok: true, value: 80 }
 */
export function checkValue(spec: OptionSpec, raw: unknown): Checked {
  const fail = (problem: string): Checked => ({ ok: false, problem });
  switch (spec.type) {
    case 'string':
    case 'path': {
      if (typeof raw !== 'string') return fail('must be a string');
      if (spec.type === 'string' && spec.duration !== undefined) {
        const off = spec.off === true && /^\s*(off|never)\s*$/i.test(raw);
        if (!off && readDuration(raw.trim(), spec.duration) === undefined)
          return fail(
            `must be a duration with ms, s, m or h (10s, 500ms, 2m; a bare number is ${spec.duration === 's' ? 'seconds' : 'ms'})${spec.off ? ', or off' : ''}`,
          );
      }
      return { ok: true, value: raw };
    }
    case 'host':
      // refused here, not after a warning that binding it exposes the server to the network
      return typeof raw === 'string' && isHost(raw)
        ? { ok: true, value: raw }
        : fail('must be an IP address or a host name, e.g. 127.0.0.1 or 0.0.0.0');
    case 'url': {
      const problem = httpUrlProblem(typeof raw === 'string' ? raw : '');
      if (problem !== undefined || typeof raw !== 'string') return fail(problem ?? '');
      return { ok: true, value: spec.asGiven ? raw : raw.replace(/\/+$/, '') };
    }
    case 'int':
    case 'number': {
      if (spec.type === 'int' && spec.duration) return checkDuration(spec, raw);
      const n = toNumber(raw);
      // `--time-scale 0,1`, a decimal comma as many locales write it
      if (spec.type === 'number' && typeof raw === 'string' && /^\s*-?\d+,\d+\s*$/.test(raw))
        return fail(`must be a number, with a decimal point (${raw.trim().replace(',', '.')})`);
      if (n === undefined || !Number.isFinite(n)) return fail('must be a number');
      if (spec.type === 'int' && !Number.isInteger(n)) return fail('must be a whole number');
      const problem = rangeProblem(n, spec);
      return problem === undefined ? { ok: true, value: n } : fail(problem);
    }
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === '1') return { ok: true, value: true };
      if (raw === 'false' || raw === '0') return { ok: true, value: false };
      return fail('must be true or false');
    case 'choice':
      return typeof raw === 'string' && spec.choices.includes(raw)
        ? { ok: true, value: raw }
        : fail(`must be one of ${spec.choices.join(', ')}`);
    case 'list': {
      if (typeof raw === 'string') {
        return {
          ok: true,
          value: raw
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean),
        };
      }
      if (Array.isArray(raw) && raw.every((s) => typeof s === 'string')) {
        return { ok: true, value: [...raw] };
      }
      return fail('must be a list of strings');
    }
    case 'fault': {
      if (typeof raw !== 'string') return fail('must be a fault such as "status:503"');
      const parsed = parseFault(raw);
      return parsed.ok ? { ok: true, value: parsed.fault } : fail(parsed.message);
    }
    default: {
      const unknown: never = spec;
      throw new Error(`unknown option type ${JSON.stringify(unknown)}`);
    }
  }
}

/** What an option is without any source: its default (lists and switches have one). */
function defaultOf(spec: OptionSpec): unknown {
  if ('default' in spec && spec.default !== undefined) return spec.default;
  if (spec.type === 'boolean') return false;
  if (spec.type === 'list') return [];
  return undefined;
}

/**
 * A set SVC_* variable that no option reads and that is one or two letters from `wanted`: a
 * typo in an export is otherwise silent, and the option reads as never given.
 * @example misspeltEnv('SVC_CHANNEL_URL', { SVC_CHANEL_URL: 'http://...' }) // 'SVC_CHANEL_URL'
 */
function misspeltEnv(wanted: string, env: ResolveSources['env']): string | undefined {
  const unread = Object.keys(env).filter(
    (name) => name.startsWith('SVC_') && Boolean(env[name]) && !knownEnv.has(name),
  );
  return closestNames(wanted, unread, { maxDistance: 2 })[0];
}

/** Every SVC_* variable some option reads (SVC_MUTANT is read by the simulator itself). */
const knownEnv: ReadonlySet<string> = new Set([
  'SVC_MUTANT',
  ...[...GLOBALS, ...ALL_TABLES.flatMap((t) => t.options)].flatMap((s) =>
    s.env === undefined ? [] : [s.env],
  ),
]);

/**
 * Every option of `table` (globals included) from its three sources, without throwing.
 * @example inspectOptions(listenOptions, { flags: {}, env: { SVC_PORT: '9000' }, cwd: '.' }).options
 */
export function inspectOptions(table: OptionTable, sources: ResolveSources): Inspection {
  const config =
    table.readsConfig === false
      ? NO_CONFIG
      : loadConfig({ flags: sources.flags, cwd: sources.cwd, unknownKeys: unknownKeysOf });
  const fromFile = config.forCommand(table.command);
  const fileName = config.file ?? CONFIG_FILE;
  const specs = [...GLOBALS, ...table.options];
  const options = specs.map((spec): ResolvedOption => {
    const label = spec.flag.replace(/^-\w, /, '').split(' ')[0] ?? `--${kebab(spec.key)}`;
    const name = label.startsWith('--no-') ? `--${kebab(spec.key)}` : label;
    let raw: unknown;
    let source: OptionSource = 'default';
    let origin = name;
    let from: string | undefined;
    if (spec.config !== false && fromFile[spec.key] !== undefined) {
      raw = fromFile[spec.key];
      source = 'file';
      origin = `${name} (from "${spec.key}" in ${fileName})`;
      from = fileName;
    }
    const envValue =
      spec.env === undefined || table.readsConfig === false ? undefined : sources.env[spec.env];
    if (spec.env !== undefined && envValue !== undefined && envValue !== '') {
      raw = envValue;
      source = 'env';
      origin = `${name} (from ${spec.env})`;
      from = spec.env;
    }
    if (sources.flags[spec.key] !== undefined) {
      raw = sources.flags[spec.key];
      source = 'flag';
      origin = name;
      from = undefined;
    }
    const base = { spec, source, origin, ...(from === undefined ? {} : { from }) };
    if (source === 'default') {
      const value = defaultOf(spec);
      if (value === undefined && spec.required) {
        const where = spec.env ? ` (or set ${spec.env}, or "${spec.key}" in ${CONFIG_FILE})` : '';
        const misspelt = spec.env === undefined ? undefined : misspeltEnv(spec.env, sources.env);
        const meant =
          misspelt === undefined ? '' : `; ${misspelt} is set, but svc-cli reads ${spec.env}`;
        return { ...base, value, problem: `is required${where}${meant}` };
      }
      return { ...base, value };
    }
    const checked = checkValue(spec, raw);
    return checked.ok
      ? { ...base, value: checked.value }
      : { ...base, value: undefined, raw, problem: checked.problem };
  });
  return {
    file: config.file,
    hasSection: config.section(table.command) !== undefined,
    options,
    warnings: unknownKeyWarnings(config, table),
  };
}

/**
 * The options a command runs with; an input error (exit 2) names every bad value and its
 * source. Unknown config keys are warned about once, on stderr.
 * @example const o = resolveOptions(listenOptions, { flags: { port: '0' }, env: {}, cwd: '.' }) // o.port === 0
 */
export function resolveOptions<T extends OptionTable>(
  table: T,
  sources: ResolveSources & { warn?: (text: string) => void },
): Resolved<T> {
  const inspection = inspectOptions(table, sources);
  for (const warning of inspection.warnings) sources.warn?.(warning);
  const bad = inspection.options.filter((o) => o.problem !== undefined);
  if (bad.length > 0) {
    // one problem reads as one sentence; several are listed
    const describe = (o: ResolvedOption) =>
      o.raw === undefined
        ? `${o.origin} ${o.problem}`
        : // a parser that quotes the value itself ("status:abc": ...) is not quoted twice
          `${o.origin} ${JSON.stringify(o.raw)}: ${o.problem?.replace(`${JSON.stringify(o.raw)}: `, '')}`;
    throw new SvcError(
      'SVC_E_OPTIONS',
      bad.length === 1 && bad[0]
        ? `Could not ${bad[0].raw === undefined ? 'run' : 'use'} ${bad[0].raw === undefined ? `svc-cli ${table.command}: ` : ''}${describe(bad[0])}.`
        : `Could not use the options: ${bad.map(describe).join('; ')}.`,
      [
        ...bad.flatMap((o) =>
          o.raw === undefined && o.spec.whenMissing !== undefined ? [o.spec.whenMissing] : [],
        ),
        `Run svc-cli ${table.command} --help to see its flags.`,
      ].join('\n  '),
    );
  }
  return Object.fromEntries(inspection.options.map((o) => [o.spec.key, o.value])) as Resolved<T>;
}

/** Every key some command reads from the config file (another command's key is no typo). */
const knownKeys: ReadonlySet<string> = new Set(
  [...GLOBALS, ...ALL_TABLES.flatMap((t) => t.options)]
    .filter((s) => s.config !== false)
    .map((s) => s.key),
);
const knownCommands: ReadonlyMap<string, OptionTable> = new Map(
  ALL_TABLES.map((t) => [t.command, t]),
);

const FILE_KEYS = new Set(['$schema', 'version', 'commands', 'role']);

/**
 * A config file's unknown keys, each with its closest known one: the top level's, then those of
 * its `commands` section (a command name, a key in a command's section, by its whole path), said
 * together with a missing or wrong "version", so a first file's typo is not found one error later.
 * @example unknownKeysOf({ sendrId: 'x' }) // ['unknown key "sendrId" (did you mean "senderId"?)']
 * @example unknownKeysOf({}, { conform: { reprot: 'junit' } }) // ['unknown key "commands.conform.reprot" (did you mean "reporter"?)']
 */
export function unknownKeysOf(values: Record<string, unknown>, commands?: unknown): string[] {
  const top = Object.keys(values)
    .filter((key) => !knownKeys.has(key) && !FILE_KEYS.has(key))
    .map((key) => {
      const [best] = closestNames(key, [...knownKeys], { maxDistance: 3 });
      return `unknown key "${key}"${best ? ` (did you mean "${best}"?)` : ''}`;
    });
  const sections = sectionTypos(
    commands !== null && typeof commands === 'object' && !Array.isArray(commands)
      ? (commands as Record<string, unknown>)
      : {},
  ).map(
    (t) => `unknown key "${t.path}"${t.best === undefined ? '' : ` (did you mean "${t.best}"?)`}`,
  );
  return [...top, ...sections];
}

/** A key of the `commands` section no command reads: its whole path and its closest known key. */
interface SectionTypo {
  /** `commands.conform.reprot`, or `commands.replai` for a section naming no command */
  path: string;
  /** the command whose section holds it; undefined for a section naming no command */
  command?: string;
  key: string;
  best?: string;
  /** the key is a flag of the command, which the config file cannot set */
  flagOnly?: OptionSpec;
}

/**
 * The typos of a `commands` section (of `only` those commands' sections: default all): a key
 * that is not one of its command's options, a section that names no command with options.
 * @example sectionTypos({ conform: { reprot: 'junit' } }) // [{ path: 'commands.conform.reprot', command: 'conform', key: 'reprot', best: 'reporter' }]
 */
function sectionTypos(commands: Record<string, unknown>, only?: readonly string[]): SectionTypo[] {
  const nearest = (key: string, known: Iterable<string>): string | undefined =>
    closestNames(key, [...known], { maxDistance: 3 })[0];
  const typos: SectionTypo[] = [];
  for (const command of only ?? Object.keys(commands)) {
    const table = knownCommands.get(command);
    const section = commands[command];
    if (!table || section === null || typeof section !== 'object' || Array.isArray(section))
      continue;
    const options = [...GLOBALS, ...table.options];
    const own = new Set(options.filter((s) => s.config !== false).map((s) => s.key));
    for (const key of Object.keys(section)) {
      if (own.has(key)) continue;
      const flagOnly = flagOnlyNamed(key, options);
      const best = flagOnly ? undefined : nearest(key, own);
      typos.push({
        path: `commands.${command}.${key}`,
        command,
        key,
        ...(best === undefined ? {} : { best }),
        ...(flagOnly ? { flagOnly } : {}),
      });
    }
  }
  for (const name of Object.keys(commands))
    if (!knownCommands.has(name)) {
      const best = nearest(name, knownCommands.keys());
      typos.push({ path: `commands.${name}`, key: name, ...(best === undefined ? {} : { best }) });
    }
  return typos;
}

/**
 * A top-level key of the config file that no option has, as every command and `doctor` say it.
 * @example unknownKeyProblem('tme-scale', 'timeScale') // 'unknown key "tme-scale" is ignored. Did you mean "timeScale"?'
 */
export function unknownKeyProblem(key: string, near: string | undefined): string {
  return `unknown key "${key}" is ignored.${near ? ` Did you mean "${near}"?` : ''}`;
}

function unknownKeyWarnings(config: ReturnType<typeof loadConfig>, table: OptionTable): string[] {
  if (config.file === undefined) return [];
  const warnings: string[] = [];
  const fileName = config.file;
  const near = (key: string, known: Iterable<string>): string | undefined =>
    closestNames(key, [...known], { maxDistance: 3 })[0];
  const all = knownKeys;
  for (const key of Object.keys(config.values)) {
    if (!all.has(key) && !FILE_KEYS.has(key)) {
      // a flag only of this command, at the top level: said as in its section
      const flagOnly = flagOnlyNamed(key, [...GLOBALS, ...table.options]);
      warnings.push(
        flagOnly
          ? `warning: ${fileName}: ${flagOnlyProblem(flagOnly, 'the top level', key)}`
          : `warning: ${fileName}: ${unknownKeyProblem(key, near(key, all))}`,
      );
    }
  }
  // `svc-cli config` without a command (table '') checks the file whole: every command's section
  const commands = table.command === '' ? undefined : [table.command];
  for (const problem of sectionProblems(config, commands))
    warnings.push(`warning: ${fileName}: ${problem}`);
  return warnings;
}

/** The long flag of an option as typed: `--no-color` for `color`. */
const longFlagOf = (spec: OptionSpec): string =>
  spec.flag.split(/[ ,]+/).find((word) => word.startsWith('--')) ?? spec.flag;

/**
 * The flag-only option a config key names, by its key or by its flag in camelCase: the guide
 * says keys are the flags in camelCase, so `noColor` and `noInvariant` mean --no-color and
 * --no-invariant, and deserve the flag-only warning rather than a far-fetched "did you mean".
 * @example flagOnlyNamed('noColor', GLOBALS) // the --no-color spec
 */
function flagOnlyNamed(key: string, specs: readonly OptionSpec[]): OptionSpec | undefined {
  const camel = (flag: string): string =>
    flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
  return specs.find((s) => s.config === false && (s.key === key || camel(longFlagOf(s)) === key));
}

/**
 * A top-level key that names a global flag only (`color`, `noColor`, `config`), said as every
 * command says it; doctor, which runs no command, says it the same way.
 * @example globalFlagOnlyProblem('config') // '"config" in the top level is --config, a flag only: ...'
 */
export function globalFlagOnlyProblem(key: string): string | undefined {
  const spec = flagOnlyNamed(key, GLOBALS);
  return spec === undefined ? undefined : flagOnlyProblem(spec, 'the top level', key);
}

/**
 * A config key that names a flag-only option: why it is ignored, and what to set instead.
 * @example flagOnlyProblem(urlSpec, 'commands.load') // '"url" in commands.load is --url, a flag only: ...'
 */
function flagOnlyProblem(spec: OptionSpec, where: string, key = spec.key): string {
  const flag = longFlagOf(spec);
  return `"${key}" in ${where} is ${flag}, a flag only: the config file cannot set it; it is ignored. ${spec.configInstead === undefined ? `Give ${flag} on the command line` : `Give ${flag} on the command line, or ${spec.configInstead}`}.`;
}

/**
 * What is wrong in the config file's `commands` sections: a section that names no command
 * with options, and in the sections of `commands` (default: all), a key that is not one of
 * that command's options; each with the closest known name.
 * @example sectionProblems(config) // ['commands.lisen names no command with options. Did you mean "listen"?']
 */
export function sectionProblems(
  config: Pick<ReturnType<typeof loadConfig>, 'section' | 'sectionNames' | 'commands'>,
  commands?: readonly string[],
): string[] {
  const sections = Object.fromEntries(
    config.sectionNames().map((name) => [name, config.section(name) ?? {}]),
  );
  return [
    ...misshapenSections(config, commands),
    ...sectionTypos(sections, commands).map((t) => {
      const meant = t.best === undefined ? '' : ` Did you mean "${t.best}"?`;
      if (t.command === undefined) return `${t.path} names no command with options.${meant}`;
      // an option of the command that is a flag only: say so, not "did you mean" another key
      if (t.flagOnly) return flagOnlyProblem(t.flagOnly, `commands.${t.command}`, t.key);
      return `unknown key "${t.path}" is ignored: not an option of ${t.command}.${meant}`;
    }),
  ];
}

/** `a JSON array`, `the number 9000`: what a value is, in words. */
const jsonTypeOf = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a JSON array'
      : typeof value === 'string'
        ? `the string ${JSON.stringify(value)}`
        : `the ${typeof value} ${JSON.stringify(value)}`;

/**
 * A `commands` that is no object, or a command's section that is none (`"listen": 9000`): the
 * schema wants objects, and without this warning the values would be ignored without a word.
 * @example misshapenSections(config) // ['commands.listen is the number 9000, not an object ...']
 */
function misshapenSections(
  config: Pick<ReturnType<typeof loadConfig>, 'section' | 'sectionNames' | 'commands'>,
  only?: readonly string[],
): string[] {
  const example = (name: string, key: string) => `"commands": {"${name}": {"${key}": ...}}`;
  if (config.commands === undefined) return [];
  if (
    config.commands === null ||
    typeof config.commands !== 'object' ||
    Array.isArray(config.commands)
  )
    return [
      `"commands" is ${jsonTypeOf(config.commands)}, not an object of sections: it is ignored. Write ${example('listen', 'port')}.`,
    ];
  const raw = config.commands as Record<string, unknown>;
  return config
    .sectionNames()
    .filter((name) => knownCommands.has(name) && (only ?? [name]).includes(name))
    .filter((name) => config.section(name) === undefined)
    .map((name) => {
      const key = knownCommands.get(name)?.options.find((o) => o.config !== false)?.key ?? 'key';
      return `commands.${name} is ${jsonTypeOf(raw[name])}, not an object of ${name}'s options: it is ignored. Write ${example(name, key)}.`;
    });
}

/**
 * `resolveOptions` for a command body: sources from the context, warnings on stderr.
 * @example const o = resolveForCommand(ctx, listenOptions, givenFlags(cmd));
 */
export function resolveForCommand<T extends OptionTable>(
  ctx: {
    env: Readonly<Record<string, string | undefined>>;
    cwd: string;
    stderr: { write(text: string): unknown };
  },
  table: T,
  flags: Readonly<Record<string, unknown>>,
): Resolved<T> {
  // a warning is printed once --json is known (a flag, the environment or the config file)
  const warnings: string[] = [];
  const say = (json: boolean): void => {
    for (const text of warnings.splice(0)) ctx.stderr.write(noticeLine(text, json));
  };
  let resolved: Resolved<T>;
  try {
    resolved = resolveOptions(table, {
      flags,
      env: ctx.env,
      cwd: ctx.cwd,
      warn: (text) => warnings.push(text),
    });
  } catch (error) {
    say(flags['json'] === true);
    throw error;
  }
  const json = (resolved as unknown as { json?: boolean }).json === true;
  say(json);
  // --ca / --insecure (globals): set once, before the body calls any URL
  const trust = resolved as unknown as { ca?: string[]; insecure?: boolean };
  applyClientTrust(ctx, { ca: trust.ca ?? [], insecure: trust.insecure ?? false }, json);
  return resolved;
}

/** The first spec of each config key across every table (the same key has one meaning). */
export function specsByKey(): Map<string, OptionSpec> {
  const byKey = new Map<string, OptionSpec>();
  for (const spec of [...GLOBALS, ...ALL_TABLES.flatMap((t) => t.options)]) {
    if (spec.config !== false && !byKey.has(spec.key)) byKey.set(spec.key, spec);
  }
  return byKey;
}

export interface ConfigCheck {
  /** `path: problem` for each bad value */
  problems: string[];
  /** keys no command reads, with the closest known key */
  unknown: { key: string; near: string | undefined }[];
}

/**
 * Checks a config file's values against the option tables (`init` before writing, `doctor`).
 * @example checkConfigValues({ version: 1, port: 'x' }).problems // ['port: must be a number']
 */
export function checkConfigValues(file: Readonly<Record<string, unknown>>): ConfigCheck {
  const byKey = specsByKey();
  const result: ConfigCheck = { problems: [], unknown: [] };
  if (file.version !== CONFIG_VERSION) {
    result.problems.push(`version: must be ${CONFIG_VERSION}`);
  }
  if (file.role !== undefined && !(ROLES as readonly unknown[]).includes(file.role)) {
    result.problems.push(`role: must be one of ${ROLES.join(', ')}`);
  }
  const check = (path: string, spec: OptionSpec, value: unknown) => {
    const checked = checkValue(spec, value);
    if (!checked.ok) result.problems.push(`${path}: ${checked.problem}`);
  };
  for (const [key, value] of Object.entries(file)) {
    if (FILE_KEYS.has(key)) continue;
    const spec = byKey.get(key);
    if (spec) check(key, spec, value);
    else
      result.unknown.push({
        key,
        near: closestNames(key, [...byKey.keys()], { maxDistance: 3 })[0],
      });
  }
  const commands = file.commands;
  if (
    commands !== undefined &&
    (typeof commands !== 'object' || commands === null || Array.isArray(commands))
  ) {
    result.problems.push('commands: must be an object of command names');
  } else if (commands) {
    for (const [name, section] of Object.entries(commands)) {
      const table = knownCommands.get(name);
      if (!table || typeof section !== 'object' || section === null) continue;
      const own = new Map([...GLOBALS, ...table.options].map((s) => [s.key, s]));
      for (const [key, value] of Object.entries(section as Record<string, unknown>)) {
        const spec = own.get(key);
        if (spec) check(`commands.${name}.${key}`, spec, value);
      }
    }
  }
  return result;
}

/** Every key the config file may hold at its top level (the globals' are in every table). */
export function configKeySpecs(): OptionSpec[] {
  const globals = new Set(GLOBALS.map((s) => s.key));
  return [...specsByKey().values()].filter((s) => !globals.has(s.key));
}
