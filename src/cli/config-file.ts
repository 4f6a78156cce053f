/**
 * The config file `svc.config.json` as a zod schema (conventions.md 7: versioned, exported as
 * JSON Schema so editors complete and check it through `$schema`). Keys are the commands'
 * option keys (camelCase of the flags); `commands.<name>` overrides them for one command.
 * Imported lazily (it loads zod).
 */
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { closestNames } from '../suggest.js';
import { SvcError } from '../errors.js';

export const CONFIG_FILE = 'svc.config.json';
export const CONFIG_VERSION = 1;
/** Where `init` points `$schema` in a project that has svc-cli installed. */
export const CONFIG_SCHEMA_REF = './node_modules/svc-cli/schemas/svc.config.schema.json';

/**
 * The `$schema` that resolves from `dir` (issue 21): the installed package's copy when the
 * project has one, else this svc-cli's own file (a clone, a global install, npx's cache).
 * @example configSchemaRefFor('/home/me/app') // './node_modules/svc-cli/schemas/svc.config.schema.json'
 */
export function configSchemaRefFor(dir: string): string {
  if (existsSync(join(dir, CONFIG_SCHEMA_REF))) return CONFIG_SCHEMA_REF;
  const own = fileURLToPath(new URL('../../schemas/svc.config.schema.json', import.meta.url));
  const rel = relative(dir, own).split(sep).join('/');
  return isAbsolute(rel) ? rel : rel.startsWith('.') ? rel : `./${rel}`;
}

/** The parts a user can play (product.md "Who uses it"). */
export const ROLES = [
  'integrator',
  'bot-provider',
  'hook-receiver',
  'web-developer',
  'platform-qa',
] as const;
export type Role = (typeof ROLES)[number];

const url = (description: string) =>
  z
    .string()
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), {
      error: 'must be an http(s) URL',
    })
    .meta({ description, format: 'uri' });

const commandSection = z
  .object({})
  .loose()
  .meta({ description: 'option keys for this command only; they override the top level' });

/** Every key a command reads from the file; unknown keys are kept (doctor warns about them). */
export const configFileSchema = z
  .object({
    $schema: z.string().optional().meta({ description: 'JSON Schema of this file' }),
    version: z.literal(CONFIG_VERSION).meta({ description: 'format version; 1' }),
    role: z.enum(ROLES).optional().meta({ description: 'the part you play (svc-cli init)' }),
    channelUrl: url(
      'the channel URL: {base_url}/<random_string>/<channel_public_id> (send-*, status, chat)',
    ).optional(),
    senderId: z.string().optional().meta({ description: "the customer's id (send-*, chat)" }),
    name: z.string().optional().meta({ description: 'the customer name (send-*, chat)' }),
    integratorUrl: url(
      'your agent-message endpoint; the platform POSTs <url>/<channel_public_id> (platform)',
    ).optional(),
    botProviderUrl: url('your bot provider endpoint; the platform POSTs <url>/<token>').optional(),
    hookUrl: url('your event-hook receiver URL').optional(),
    widgetUrl: url('the page that loads the widget script (web developers)').optional(),
    timeScale: z.number().positive().optional().meta({ description: 'protocol timer multiplier' }),
    timeout: z.number().int().min(1).optional().meta({ description: 'reply timeout, ms' }),
    host: z.string().optional().meta({ description: 'address serving commands bind' }),
    port: z.number().int().min(0).max(65_535).optional().meta({ description: 'port; 0 = any' }),
    record: z.string().optional().meta({ description: 'record exchanges to this file' }),
    channel: z.string().optional().meta({ description: 'listen: serve only this channel id' }),
    channelId: z.string().optional().meta({ description: 'platform: the channel public id' }),
    channelName: z.string().optional().meta({ description: 'platform: the channel name' }),
    randomString: z.string().optional().meta({ description: 'platform: fixed URL random string' }),
    agents: z.enum(['online', 'offline']).optional().meta({ description: 'platform: agents' }),
    chunked: z.boolean().optional().meta({ description: 'chunked transfer encoding' }),
    lenient: z.boolean().optional().meta({ description: 'platform: answer violations 200' }),
    strict: z.boolean().optional().meta({ description: 'listen: warnings count as errors' }),
    bodyLimit: z.number().int().min(1).optional().meta({ description: 'largest body, bytes' }),
    commands: z
      .record(z.string(), commandSection)
      .optional()
      .meta({ description: 'per-command overrides: {"listen": {"port": 9000}}' }),
  })
  .loose()
  .meta({
    title: 'svc-cli config file (svc.config.json)',
    description:
      'Read by every svc-cli command. Precedence: this file < SVC_* environment < flags.',
  });

export type ConfigFile = z.output<typeof configFileSchema>;

/** Keys the file knows (without $schema, version, commands). */
export const CONFIG_KEYS: readonly string[] = Object.keys(configFileSchema.shape).filter(
  (k) => k !== '$schema' && k !== 'version' && k !== 'commands',
);

/**
 * The JSON Schema of the file, as committed in schemas/svc.config.schema.json.
 * @example writeFileSync('schemas/svc.config.schema.json', JSON.stringify(createConfigJsonSchema()))
 */
export function createConfigJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(configFileSchema, {
    target: 'draft-2020-12',
    io: 'input',
  }) as Record<string, unknown>;
  return {
    $schema: schema.$schema,
    $id: 'https://svc-cli.invalid/schemas/svc.config.schema.json',
    ...schema,
  };
}

/** `chanelUrl` -> `channelUrl`: the closest known key within 3 edits. */
export function suggestKey(
  key: string,
  known: readonly string[] = CONFIG_KEYS,
): string | undefined {
  return closestNames(key, known, { maxDistance: 3 })[0];
}

export interface LoadedConfig {
  /** the file read, undefined when there is none */
  file: string | undefined;
  /** top-level values (without $schema, version, commands) */
  values: Record<string, unknown>;
  /** the top level with `commands.<name>` on top */
  forCommand(name: string): Record<string, unknown>;
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
export function loadConfig(sources: { flags: Record<string, unknown>; cwd: string }): LoadedConfig {
  const { file, explicit } = findConfigFile(sources.flags, sources.cwd);
  if (!explicit && !existsSync(file))
    return { file: undefined, values: {}, forCommand: () => ({}) };
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new SvcError(
      'SVC_E_CONFIG',
      'input',
      `Could not read the config file ${file}: ${(error as Error).message}.`,
      'It is JSON: {"version":1,"channelUrl":"https://...","senderId":"customer-1"}; svc-cli init writes one.',
    );
  }
  if (!isObject(json)) {
    throw new SvcError('SVC_E_CONFIG', 'input', `Could not use ${file}: it is not a JSON object.`);
  }
  const { $schema: _schema, version, commands, ...values } = json;
  // conventions.md 7: every on-disk format is versioned; an unknown version is an input error.
  if (version !== CONFIG_VERSION) {
    throw new SvcError(
      'SVC_E_CONFIG_VERSION',
      'input',
      `Could not use ${file}: "version" is ${JSON.stringify(version)}; this svc-cli reads version 1.`,
    );
  }
  return {
    file,
    values,
    forCommand(name) {
      const section = isObject(commands) ? commands[name] : undefined;
      return isObject(section) ? { ...values, ...section } : values;
    },
  };
}
