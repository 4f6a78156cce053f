/**
 * Flags, environment and config file normalised in ONE place (conventions.md 2): every
 * command's options are a zod schema; `resolveOptions` merges config < env < flags and
 * turns every problem into an input error (exit 2) that names the flag and its source.
 * Imported lazily by commands (it loads zod).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { SvcError } from '../errors.js';
import { parseFault, type Fault } from '../faults/index.js';
import { DEFAULT_BODY_LIMIT } from '../http/body.js';
import { FILE_MEDIA_TYPES } from '../roles/integrator/kinds.js';

/** Environment fallbacks, by option key. */
export const ENV_VARS: Readonly<Record<string, string>> = {
  channelUrl: 'SVC_CHANNEL_URL',
  senderId: 'SVC_SENDER_ID',
  timeout: 'SVC_TIMEOUT',
  timeScale: 'SVC_TIME_SCALE',
  host: 'SVC_HOST',
  port: 'SVC_PORT',
  channel: 'SVC_CHANNEL',
  record: 'SVC_RECORD',
};

export const CONFIG_FILE = 'svc.config.json';

// ---- value schemas: strings from argv/env, numbers from the config file ----

const toNumber = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
const toBoolean = (value: unknown): unknown =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

const num = () => z.preprocess(toNumber, z.number({ error: 'must be a number' }).finite());
const int = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.preprocess(
    toNumber,
    z
      .number({ error: 'must be a number' })
      .int({ error: 'must be an integer' })
      .min(min, { error: `must be at least ${min}` })
      .max(max, { error: `must be at most ${max}` }),
  );
const flag = () => z.preprocess(toBoolean, z.boolean({ error: 'must be true or false' }));
const text = () => z.string({ error: 'must be a string' });
const httpUrl = () =>
  text().refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), {
    error: 'must be an http(s) URL',
  });
const fault = () =>
  text().transform((value, ctx): Fault => {
    const parsed = parseFault(value);
    if (parsed.ok) return parsed.fault;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });

// ---- command option schemas ----

/** Global flags every command sees. */
export const globalSchema = z.object({
  json: flag().default(false),
  timeScale: z.preprocess(toNumber, z.number({ error: 'must be a number' }).positive()).default(1),
});

/** Flags shared by the commands that send customer messages (spec 2.1). */
export const sendSchema = globalSchema.extend({
  channelUrl: httpUrl(),
  senderId: text(),
  name: text().optional(),
  phone: text().optional(),
  email: text().optional(),
  photo: text().optional(),
  invite: text().optional(),
  messageId: text().optional(),
  force: flag().default(false),
  chunked: flag().default(false),
  timeout: int(1).default(10_000),
});

export const sendTextSchema = sendSchema.extend({ text: text() });

/** Field checks (http URL, positive integers) are the contract's: --force can send bad ones. */
export const sendMediaSchema = sendSchema.extend({
  type: z.enum(FILE_MEDIA_TYPES, { error: `must be one of ${FILE_MEDIA_TYPES.join(', ')}` }),
  file: text(),
  fileName: text(),
  fileSize: num(),
  thumb: text().optional(),
  duration: num().optional(),
  width: num().optional(),
  height: num().optional(),
  caption: text().optional(),
});

export const sendLocationSchema = sendSchema.extend({ latitude: num(), longitude: num() });

export const typingSchema = sendSchema.extend({
  state: z.enum(['start', 'stop'], { error: 'must be start or stop' }),
});

export const statusSchema = globalSchema.extend({
  channelUrl: httpUrl(),
  timeout: int(1).default(10_000),
});

export const listenSchema = globalSchema.extend({
  host: text().default('127.0.0.1'),
  port: int(0, 65_535).default(0),
  channel: text().optional(),
  failFirst: int(0).optional(),
  delay: int(0).optional(),
  fault: fault().optional(),
  faultRate: z
    .preprocess(toNumber, z.number({ error: 'must be a number' }).min(0).max(1))
    .optional(),
  seed: int(-2_147_483_648, 4_294_967_295).optional(),
  faultPlan: text().optional(),
  record: text().optional(),
  bodyLimit: int(1).default(DEFAULT_BODY_LIMIT),
  strict: flag().default(false),
});

export type SendOptions = z.output<typeof sendSchema>;
export type SendTextOptions = z.output<typeof sendTextSchema>;
export type SendMediaOptions = z.output<typeof sendMediaSchema>;
export type SendLocationOptions = z.output<typeof sendLocationSchema>;
export type TypingOptions = z.output<typeof typingSchema>;
export type StatusOptions = z.output<typeof statusSchema>;
export type ListenOptions = z.output<typeof listenSchema>;

// ---- merging ----

export interface OptionSources {
  /** commander's `optsWithGlobals()` plus positional arguments, camelCase */
  flags: Record<string, unknown>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** names positional arguments in messages: `{ text: '<text>' }` */
  labels?: Record<string, string>;
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Reads the config file: `--config <file>` (must exist) or ./svc.config.json (when present).
 * @example loadConfig({ flags: {}, env: {}, cwd: '.' }) // { file: undefined, values: {} }
 */
export function loadConfig(sources: Pick<OptionSources, 'flags' | 'cwd'>): {
  file: string | undefined;
  values: Record<string, unknown>;
} {
  const explicit = sources.flags.config;
  const file =
    typeof explicit === 'string'
      ? isAbsolute(explicit)
        ? explicit
        : join(sources.cwd, explicit)
      : join(sources.cwd, CONFIG_FILE);
  if (typeof explicit !== 'string' && !existsSync(file)) return { file: undefined, values: {} };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SvcError(
      'SVC_E_CONFIG',
      'input',
      `Could not read the config file ${file}: ${(error as Error).message}.`,
      'It is JSON: {"version":1,"channelUrl":"https://...","senderId":"customer-1"}.',
    );
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new SvcError('SVC_E_CONFIG', 'input', `Could not use ${file}: it is not a JSON object.`);
  }
  const { $schema: _schema, version, ...values } = json as Record<string, unknown>;
  // conventions.md 7: every on-disk format is versioned; an unknown version is an input error.
  if (version !== 1) {
    throw new SvcError(
      'SVC_E_CONFIG_VERSION',
      'input',
      `Could not use ${file}: "version" is ${JSON.stringify(version)}; this svc-cli reads version 1.`,
    );
  }
  return { file, values };
}

/**
 * Validates a command's options from config < env < flags; throws an input SvcError naming
 * each bad flag and where its value came from.
 * @example resolveOptions(statusSchema, { flags: { channelUrl: 'http://x/a/b' }, env: {}, cwd: '.' }).timeout // 10000
 */
export function resolveOptions<S extends z.ZodObject>(
  schema: S,
  sources: OptionSources,
): z.output<S> {
  const config = loadConfig(sources);
  const merged: Record<string, unknown> = {};
  const origin: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const label = sources.labels?.[key] ?? `--${kebab(key)}`;
    origin[key] = label;
    if (config.values[key] !== undefined) {
      merged[key] = config.values[key];
      origin[key] = `${label} (from "${key}" in ${config.file ?? CONFIG_FILE})`;
    }
    const envName = ENV_VARS[key];
    const envValue = envName === undefined ? undefined : sources.env[envName];
    if (envName !== undefined && envValue !== undefined && envValue !== '') {
      merged[key] = envValue;
      origin[key] = `${label} (from ${envName})`;
    }
    if (sources.flags[key] !== undefined) {
      merged[key] = sources.flags[key];
      origin[key] = label;
    }
  }
  const parsed = schema.safeParse(merged);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? '');
    const where = origin[key] ?? key;
    const value = merged[key];
    if (value === undefined) return `${where} is required${envHint(key)}`;
    return `${where}: ${issue.message} (got ${JSON.stringify(value)})`;
  });
  throw new SvcError(
    'SVC_E_OPTIONS',
    'input',
    `Could not use the options: ${problems.join('; ')}.`,
    'Run the command with --help to see its flags.',
  );
}

function envHint(key: string): string {
  const envName = ENV_VARS[key];
  return envName === undefined ? '' : ` (or set ${envName}, or "${key}" in ${CONFIG_FILE})`;
}
