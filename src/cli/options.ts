/**
 * Flags, environment and config file normalised in ONE place (conventions.md 2): every
 * command's options are a zod schema; `resolveOptions` merges config < env < flags and
 * turns every problem into an input error (exit 2) that names the flag and its source.
 * Imported lazily by commands (it loads zod).
 */
import { z } from 'zod';
import { SvcError } from '../errors.js';
import { parseFault, type Fault } from '../faults/index.js';
import { DEFAULT_BODY_LIMIT } from '../http/body.js';
import { FILE_MEDIA_TYPES } from '../roles/integrator/kinds.js';
import { CONFIG_FILE, loadConfig } from './config-file.js';

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
  integratorUrl: 'SVC_INTEGRATOR_URL',
  botProviderUrl: 'SVC_BOT_PROVIDER_URL',
  hookUrl: 'SVC_HOOK_URL',
  widgetUrl: 'SVC_WIDGET_URL',
  agents: 'SVC_AGENTS',
  channelId: 'SVC_CHANNEL_ID',
  randomString: 'SVC_RANDOM_STRING',
};

export { CONFIG_FILE, loadConfig };

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

/** `platform`: the simulator (defaults here, not in commander, so config and env apply). */
export const platformSchema = globalSchema.extend({
  host: text().default('127.0.0.1'),
  port: int(0, 65_535).default(0),
  integratorUrl: httpUrl()
    .transform((v) => v.replace(/\/+$/, ''))
    .optional(),
  chunked: flag().default(false),
  agents: z.enum(['online', 'offline'], { error: 'must be online or offline' }).default('online'),
  channelId: text().optional(),
  channelName: text().optional(),
  randomString: text().optional(),
  lenient: flag().default(false),
  record: text().optional(),
  bodyLimit: int(1).default(DEFAULT_BODY_LIMIT),
  console: flag().default(true),
  showSecrets: flag().default(false),
});

/** `chat`: sends to the channel URL (or an embedded simulator), listens on host:port. */
export const chatSchema = globalSchema.extend({
  channelUrl: httpUrl().optional(),
  senderId: text().default('customer-1'),
  name: text().optional(),
  phone: text().optional(),
  email: text().optional(),
  host: text().default('127.0.0.1'),
  port: int(0, 65_535).default(0),
  timeout: int(1).default(10_000),
  showSecrets: flag().default(false),
});

export type PlatformOptions = z.output<typeof platformSchema>;
export type ChatOptions = z.output<typeof chatSchema>;
export type SendOptions = z.output<typeof sendSchema>;
export type SendTextOptions = z.output<typeof sendTextSchema>;
export type SendMediaOptions = z.output<typeof sendMediaSchema>;
export type SendLocationOptions = z.output<typeof sendLocationSchema>;
export type TypingOptions = z.output<typeof typingSchema>;
export type StatusOptions = z.output<typeof statusSchema>;
export type ListenOptions = z.output<typeof listenSchema>;

// ---- merging ----

export interface OptionSources {
  /** flags given on the command line (`givenFlags(cmd)`) plus positional arguments, camelCase */
  flags: Record<string, unknown>;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** names positional arguments in messages: `{ text: '<text>' }` */
  labels?: Record<string, string>;
  /** the command's name: its `commands.<name>` section of the config file applies */
  command?: string;
}

/** Where a resolved value came from (`svc-cli config` prints it). */
export type OptionSource = 'file' | 'env' | 'flag' | 'default';

export interface MergedOptions {
  values: Record<string, unknown>;
  source: Record<string, OptionSource>;
  /** per key, how a message names it: `--port (from SVC_PORT)` */
  origin: Record<string, string>;
  file: string | undefined;
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/**
 * Validates a command's options from config < env < flags; throws an input SvcError naming
 * each bad flag and where its value came from.
 * @example resolveOptions(statusSchema, { flags: { channelUrl: 'http://x/a/b' }, env: {}, cwd: '.' }).timeout // 10000
 */
export function resolveOptions<S extends z.ZodObject>(
  schema: S,
  sources: OptionSources,
): z.output<S> {
  const { values: merged, origin } = mergeOptionSources(Object.keys(schema.shape), sources);
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

/**
 * Merges config file < env < flags for `keys`, remembering each value's source.
 * @example mergeOptionSources(['port'], { flags: {}, env: { SVC_PORT: '9000' }, cwd: '.' }).source.port // 'env'
 */
export function mergeOptionSources(keys: readonly string[], sources: OptionSources): MergedOptions {
  const config = loadConfig(sources);
  const merged: MergedOptions = { values: {}, source: {}, origin: {}, file: config.file };
  for (const key of keys) {
    const label = sources.labels?.[key] ?? `--${kebab(key)}`;
    merged.origin[key] = label;
    const fromFile = sources.command ? config.forCommand(sources.command) : config.values;
    if (fromFile[key] !== undefined) {
      merged.values[key] = fromFile[key];
      merged.source[key] = 'file';
      merged.origin[key] = `${label} (from "${key}" in ${config.file ?? CONFIG_FILE})`;
    }
    const envName = ENV_VARS[key];
    const envValue = envName === undefined ? undefined : sources.env[envName];
    if (envName !== undefined && envValue !== undefined && envValue !== '') {
      merged.values[key] = envValue;
      merged.source[key] = 'env';
      merged.origin[key] = `${label} (from ${envName})`;
    }
    if (sources.flags[key] !== undefined) {
      merged.values[key] = sources.flags[key];
      merged.source[key] = 'flag';
      merged.origin[key] = label;
    }
  }
  return merged;
}

function envHint(key: string): string {
  const envName = ENV_VARS[key];
  return envName === undefined ? '' : ` (or set ${envName}, or "${key}" in ${CONFIG_FILE})`;
}

/** Each command's option schema, by command name (`svc-cli config <command>` reads it). */
export const COMMAND_SCHEMAS: Readonly<Record<string, z.ZodObject>> = {
  platform: platformSchema,
  listen: listenSchema,
  'send-text': sendTextSchema,
  'send-media': sendMediaSchema,
  'send-location': sendLocationSchema,
  typing: typingSchema,
  status: statusSchema,
  chat: chatSchema,
};

/**
 * For commands that parse their own flags (platform): puts the config file's and SVC_*
 * values, as strings like argv's, under every key not given on the command line.
 * @example applyConfigValues(flags, { given: givenFlags(cmd), env, cwd, command: 'platform' })
 */
export function applyConfigValues<F extends object>(
  flags: F,
  sources: {
    given: Record<string, unknown>;
    env: Readonly<Record<string, string | undefined>>;
    cwd: string;
    command?: string;
    keys?: readonly string[];
  },
): F {
  const keys =
    sources.keys ??
    Object.keys(sources.command ? (COMMAND_SCHEMAS[sources.command]?.shape ?? {}) : {});
  const merged = mergeOptionSources(keys, {
    flags: sources.given,
    env: sources.env,
    cwd: sources.cwd,
    ...(sources.command ? { command: sources.command } : {}),
  });
  const out = { ...flags } as Record<string, unknown>;
  for (const key of keys) {
    const source = merged.source[key];
    const value = merged.values[key];
    if (source !== 'file' && source !== 'env') continue;
    out[key] = typeof value === 'boolean' ? value : String(value);
  }
  return out as F;
}
