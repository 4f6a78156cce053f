/**
 * Every option of every command is declared ONCE, as data (vitest's `cli-config.ts`
 * is the model): flag, description, environment variable, type with its range or choices,
 * default, secret or not. From a table come the commander registration and `--help`
 * (register.ts), the resolver with config file < env < flag (resolve.ts, loaded lazily), the
 * JSON Schema of `svc.config.json` (json-schema.ts, at build time) and `svc-cli config`.
 * Plain data with no runtime imports: registration modules load it for `--help`
 * (start-up is a feature: `--help` must not load them).
 */
import type { Fault } from '../../faults/index.js';

interface OptionBase<K extends string> {
  /** camelCase: the config-file key and the options object's property */
  readonly key: K;
  /** commander's syntax: `-p, --port <n>`, `--strict`, `--no-console` */
  readonly flag: string;
  readonly description: string;
  /** environment fallback (precedence: config file < env < flag) */
  readonly env?: string;
  /** false: a flag only (never read from the config file or the environment) */
  readonly config?: false;
  /**
   * a flag only: what a config file sets instead, said when one holds its key (conform's
   * --url, which means the URL of the suite run: integratorUrl, hookUrl or botProviderUrl)
   */
  readonly configInstead?: string;
  /** never printed unredacted by `svc-cli config` */
  readonly secret?: true;
  /** the `--help` section it is listed under */
  readonly group?: string;
  readonly required?: true;
  /** where to get a value, added to the error when a required option is not given */
  readonly whenMissing?: string;
}

export type OptionSpec<K extends string = string> = OptionBase<K> &
  (
    | {
        readonly type: 'string' | 'path';
        readonly default?: string;
        /**
         * the string is a duration (`10s`, `500ms`, `2m`), a bare number being in this unit:
         * checked where every value is (a config file's too), read by the command
         */
        readonly duration?: 's' | 'ms';
        /** with `duration`: `off` is a value too (`--chat-idle-timeout off`) */
        readonly off?: true;
      }
    /** an address to bind: an IP address or a host name (checked before it is used) */
    | { readonly type: 'host'; readonly default?: string }
    | {
        readonly type: 'url';
        readonly default?: string;
        /**
         * the URL is used exactly as given, its trailing slash kept (a hook URL, spec 4.4: a
         * receiver routed at `/hooks/` must be posted there); else trailing slashes are
         * dropped, as for a base that paths are joined to
         */
        readonly asGiven?: boolean;
      }
    | {
        readonly type: 'int';
        readonly min?: number;
        readonly max?: number;
        readonly default?: number;
        /** unit shown in messages: "ms", "bytes" */
        readonly unit?: string;
        /**
         * a value may be a duration with a unit (10s, 2m): read in the option's `unit` (ms,
         * or s), which a bare number is in
         */
        readonly duration?: true;
      }
    | {
        readonly type: 'number';
        readonly min?: number;
        readonly max?: number;
        /** strictly greater than `min` */
        readonly exclusiveMin?: true;
        readonly default?: number;
      }
    | { readonly type: 'boolean'; readonly default?: boolean }
    | {
        readonly type: 'choice';
        readonly choices: readonly string[];
        readonly default?: string;
        /** the value of the flag given bare (its value is optional: `--flag [value]`) */
        readonly preset?: string;
      }
    /** repeatable: `--text a --text b`; env comma-separated; a JSON array in the file */
    | { readonly type: 'list' }
    /** the fault module's syntax (`status:503`, `reset`, ...), parsed by the resolver */
    | { readonly type: 'fault' }
  );

/** A command's table: its name (`commands.<name>` in the config file) and its options. */
export interface OptionTable<S extends readonly OptionSpec[] = readonly OptionSpec[]> {
  readonly command: string;
  readonly options: S;
  /** false: the command reads no config file (`init`, which writes it; `explain`) */
  readonly readsConfig?: false;
}

type ValueOf<S> = S extends { type: 'int' | 'number' }
  ? number
  : S extends { type: 'boolean' }
    ? boolean
    : S extends { type: 'choice'; choices: readonly (infer C)[] }
      ? C
      : S extends { type: 'list' }
        ? string[]
        : S extends { type: 'fault' }
          ? Fault
          : string;

type Present<S> = S extends { default: unknown }
  ? true
  : S extends { required: true }
    ? true
    : S extends { type: 'boolean' | 'list' }
      ? true
      : false;

/** The resolved options of a table: a property per key, optional unless defaulted. */
export type OptionsOf<T extends OptionTable> = {
  [S in T['options'][number] as S['key']]: Present<S> extends true
    ? ValueOf<S>
    : ValueOf<S> | undefined;
};

/**
 * Declares a command's table; `as const` keeps each key's literal type for `OptionsOf`.
 * @example const t = defineOptions('listen', [{ key: 'port', flag: '--port <n>', type: 'int', description: 'port' }] as const)
 */
export function defineOptions<const S extends readonly OptionSpec[]>(
  command: string,
  options: S,
  settings: { readsConfig?: false } = {},
): OptionTable<S> {
  return { command, options, ...settings };
}

/** The global flags every command sees (main.ts registers them on the program). */
export const GLOBAL_OPTIONS = [
  {
    key: 'json',
    flag: '--json',
    type: 'boolean',
    description: 'print NDJSON on stdout, one object per line, each with a "type"',
  },
  {
    key: 'color',
    flag: '--no-color',
    type: 'boolean',
    default: true,
    config: false,
    description: 'disable colors (NO_COLOR is honoured too)',
  },
  {
    key: 'timeScale',
    flag: '--time-scale <factor>',
    type: 'number',
    min: 0,
    exclusiveMin: true,
    // 1000x slower turns 3 s into 50 minutes; far beyond, a timer no longer fits Node's
    // 32-bit timeout (it fires at once, with a warning per timer)
    max: 1000,
    default: 1,
    env: 'SVC_TIME_SCALE',
    description: 'multiply every protocol timer (0.01 = 100x faster, at most 1000)',
  },
  {
    key: 'config',
    flag: '--config <file>',
    type: 'path',
    config: false,
    description: 'config file (default: ./svc.config.json when present)',
  },
  {
    key: 'ca',
    flag: '--ca <pem>',
    type: 'list',
    env: 'SVC_CA',
    description:
      'trust this CA certificate (PEM file) for https:// URLs, on top of the system roots (NODE_EXTRA_CA_CERTS is read too)',
  },
  {
    key: 'insecure',
    flag: '--insecure',
    type: 'boolean',
    description: 'do not verify the certificates of https:// URLs (a warning is printed)',
  },
  {
    key: 'showSecrets',
    flag: '--show-secrets',
    type: 'boolean',
    description: 'print tokens and channel random strings unredacted',
  },
] as const satisfies readonly OptionSpec[];

export type GlobalOptions = OptionsOf<OptionTable<typeof GLOBAL_OPTIONS>>;
