/**
 * The config file `svc.config.json` (versioned, with a JSON Schema built from
 * the option tables so editors complete and check it through `$schema`, options/json-schema.ts).
 * Keys are the commands' option keys (camelCase of the flags); `commands.<name>` overrides them
 * for one command.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { parseJsonText } from '../contract/json-text.js';
import { SvcError } from '../errors.js';
import { readInputFileSync } from '../io/input-file.js';
import { ROLE_NAMES } from './options/roles.js';
import { packageFiles } from '../package-files.js';
import { versionProblem, type VersionedKind } from '../versioned.js';

export const CONFIG_FILE = 'svc.config.json';
export const CONFIG_VERSION = 1;

const CONFIG_KIND: VersionedKind = {
  shape:
    'the config file is one JSON object: {"version":1,"channelUrl":"https://...","senderId":"customer-1"}',
  example: 'svc-cli init writes one',
};
/** Where `init` points `$schema` in a project that has svc-cli installed. */
export const CONFIG_SCHEMA_REF = './node_modules/svc-cli/schemas/svc.config.schema.json';

/**
 * The `$schema` that resolves from `dir`: the installed package's copy when the
 * project has one, else this svc-cli's own file (a clone, a global install, npx's cache);
 * undefined from the single binary, which has no schema file on disk to point at.
 * @example configSchemaRefFor('/home/me/app') // './node_modules/svc-cli/schemas/svc.config.schema.json'
 */
export function configSchemaRefFor(dir: string): string | undefined {
  if (existsSync(join(dir, CONFIG_SCHEMA_REF))) return CONFIG_SCHEMA_REF;
  const own = packageFiles().pathOf('schemas/svc.config.schema.json');
  if (own === undefined) return undefined;
  const rel = relative(dir, own).split(sep).join('/');
  return isAbsolute(rel) ? rel : rel.startsWith('.') ? rel : `./${rel}`;
}

/** The parts a user can play (who uses svc-cli). */
export const ROLES = ROLE_NAMES;
export type Role = (typeof ROLES)[number];

export interface LoadedConfig {
  /** the file read, undefined when there is none */
  file: string | undefined;
  /** top-level values (without $schema, version, commands) */
  values: Record<string, unknown>;
  /** the top level with `commands.<name>` on top */
  forCommand(name: string): Record<string, unknown>;
  /** `commands.<name>` alone, when the file has it */
  section(name: string): Record<string, unknown> | undefined;
  /** the command names under `commands` */
  sectionNames(): string[];
  /** the file's `commands` as written (undefined when absent), to say when it is no object */
  commands?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `--config <file>` (must exist), else ./svc.config.json when present. */
export function findConfigFile(
  flags: Record<string, unknown>,
  cwd: string,
): { file: string; explicit: boolean } {
  const explicit = flags.config;
  if (typeof explicit === 'string')
    return { file: isAbsolute(explicit) ? explicit : join(cwd, explicit), explicit: true };
  return { file: join(cwd, CONFIG_FILE), explicit: false };
}

/**
 * Reads the config file: `--config <file>` (must exist) or ./svc.config.json (when present).
 * @example loadConfig({ flags: {}, cwd: '.' }).values // {}
 */
export function loadConfig(sources: {
  flags: Record<string, unknown>;
  cwd: string;
  /**
   * the file's unknown keys, the `commands` section's included, each with its closest known
   * one (named with a wrong version)
   */
  unknownKeys?: (values: Record<string, unknown>, commands: unknown) => string[];
}): LoadedConfig {
  const { file, explicit } = findConfigFile(sources.flags, sources.cwd);
  if (!explicit && !existsSync(file))
    return {
      file: undefined,
      values: {},
      forCommand: () => ({}),
      section: () => undefined,
      sectionNames: () => [],
    };
  const hint =
    'It is JSON: {"version":1,"channelUrl":"https://...","senderId":"customer-1"}; svc-cli init writes one.';
  // only a --config path can be missing (./svc.config.json is read when present): the
  // path is what to check, not the file's format
  const text = readInputFileSync({
    kind: 'config',
    given: typeof sources.flags.config === 'string' ? sources.flags.config : CONFIG_FILE,
    cwd: sources.cwd,
    path: file,
    code: 'SVC_E_CONFIG',
  });
  if (text.trim() === '')
    throw new SvcError(
      'SVC_E_CONFIG',
      `Could not read the config file ${file}: it is empty.`,
      'Write {"version": 1} and the options to set (svc-cli init writes one), or delete the file.',
    );
  // where an editor shows it: line and column, not V8's character offset
  const parsed = parseJsonText(text);
  if (!parsed.ok)
    throw new SvcError(
      'SVC_E_CONFIG',
      `Could not read the config file ${file}: not JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.message}.`,
      hint,
    );
  const json = parsed.value;
  const object: Record<string, unknown> = isObject(json) ? json : {};
  const { $schema: _schema, version: _version, commands, ...values } = object;
  // every on-disk format is versioned; an unknown version is an input error, said with the
  // typos that would show once it is fixed (a first file often has both)
  const wrong = versionProblem(json, CONFIG_VERSION, CONFIG_KIND);
  if (wrong) {
    const typos = isObject(json) ? (sources.unknownKeys?.(values, commands) ?? []) : [];
    throw new SvcError(
      wrong.about === 'shape' ? 'SVC_E_CONFIG' : 'SVC_E_CONFIG_VERSION',
      `Could not use ${file}: ${[...typos, wrong.problem].join('; ')}.`,
      wrong.hint,
    );
  }
  return {
    file,
    values,
    forCommand(name) {
      const section = isObject(commands) ? commands[name] : undefined;
      return isObject(section) ? { ...values, ...section } : values;
    },
    section(name) {
      const section = isObject(commands) ? commands[name] : undefined;
      return isObject(section) ? section : undefined;
    },
    sectionNames: () => (isObject(commands) ? Object.keys(commands) : []),
    commands,
  };
}
