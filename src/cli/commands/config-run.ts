/** The body of `config` (imported lazily): merge the sources, print one row per key. */
import type { z } from 'zod';
import { SvcError } from '../../errors.js';
import { CONFIG_KEYS, suggestKey } from '../config-file.js';
import type { CliContext } from '../context.js';
import { COMMAND_SCHEMAS, ENV_VARS, mergeOptionSources, type OptionSource } from '../options.js';
import { formatConfigRow, type ConfigRowEvent } from '../render/config.js';
import { createOutput } from '../render/output.js';

const camel = (flag: string): string =>
  flag.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * `--port 9000 --chunked --name=x` -> `{ port: '9000', chunked: true, name: 'x' }`.
 * @example parseFlagWords(['--port', '9000']) // { port: '9000' }
 */
export function parseFlagWords(words: readonly string[]): Record<string, unknown> {
  const flags: Record<string, unknown> = {};
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (!word.startsWith('--')) continue;
    const [name = '', inline] = word.slice(2).split(/=(.*)/s, 2);
    if (name.startsWith('no-')) flags[camel(name.slice(3))] = false;
    else if (inline !== undefined) flags[camel(name)] = inline;
    else if (words[i + 1] !== undefined && !words[i + 1]?.startsWith('--'))
      flags[camel(name)] = words[++i];
    else flags[camel(name)] = true;
  }
  return flags;
}

/** `https://h/<random>/ch-1` -> `https://h/***\/ch-1` (spec 1.3: the random string is a secret). */
export function redactChannelUrl(value: string): string {
  return value.replace(/^(https?:\/\/[^/]+\/)([^/]+)(\/[^/]+\/?)$/i, '$1***$3');
}

function defaultOf(schemas: readonly z.ZodObject[], key: string): unknown {
  for (const schema of schemas) {
    const field = schema.shape[key] as z.ZodType | undefined;
    const parsed = field?.safeParse(undefined);
    if (parsed?.success && parsed.data !== undefined) return parsed.data;
  }
  return undefined;
}

/** The value as the command will use it (`'9000'` -> `9000`), or why it is invalid. */
function checkValue(
  schemas: readonly z.ZodObject[],
  key: string,
  value: unknown,
): { value: unknown; problem?: string } {
  for (const schema of schemas) {
    const field = schema.shape[key] as z.ZodType | undefined;
    if (!field) continue;
    const parsed = field.safeParse(value);
    return parsed.success
      ? { value: parsed.data }
      : { value, problem: parsed.error.issues[0]?.message ?? 'invalid' };
  }
  return { value };
}

/**
 * Prints every key's value and source; returns 2 when a value is invalid.
 * @example await runConfig(ctx, { command: 'listen', rest: ['--port', '9000'], given: {} });
 */
export function runConfig(
  ctx: CliContext,
  input: { command: string | undefined; rest: string[]; given: Record<string, unknown> },
): number {
  const schema = input.command === undefined ? undefined : COMMAND_SCHEMAS[input.command];
  if (input.command !== undefined && schema === undefined) {
    const known = Object.keys(COMMAND_SCHEMAS);
    const near = suggestKey(input.command, known);
    throw new SvcError(
      'SVC_E_UNKNOWN_COMMAND',
      'input',
      `Could not show the options of "${input.command}": it reads no options.${near ? ` Did you mean ${near}?` : ''}`,
      `Commands with options: ${known.join(', ')}.`,
    );
  }
  const schemas = schema ? [schema] : Object.values(COMMAND_SCHEMAS);
  const keys = schema
    ? Object.keys(schema.shape).filter((k) => k !== 'json')
    : [...new Set(['timeScale', ...CONFIG_KEYS])];
  const flags = { ...input.given, ...parseFlagWords(input.rest) };
  const merged = mergeOptionSources(keys, {
    flags,
    env: ctx.env,
    cwd: ctx.cwd,
    ...(input.command === undefined ? {} : { command: input.command }),
  });
  const out = createOutput(ctx, { json: Boolean(input.given.json) });
  out.event(
    { type: 'config-file', file: merged.file ?? null, command: input.command ?? null },
    (e, c) =>
      e.file === null
        ? c.dim('no config file (svc-cli init writes svc.config.json)')
        : `config file ${c.bold(e.file)}${e.command ? c.dim(` (with commands.${e.command})`) : ''}`,
  );
  let invalid = 0;
  for (const key of keys) {
    const source: OptionSource = merged.source[key] ?? 'default';
    const raw = source === 'default' ? defaultOf(schemas, key) : merged.values[key];
    const { value, problem } =
      raw === undefined ? { value: raw, problem: undefined } : checkValue(schemas, key, raw);
    if (problem) invalid++;
    const shown =
      typeof value === 'string' && key === 'channelUrl' && !input.given.showSecrets
        ? redactChannelUrl(value)
        : value;
    const from =
      source === 'file' ? (merged.file ?? '') : source === 'env' ? (ENV_VARS[key] ?? '') : '';
    const row: ConfigRowEvent = {
      type: 'config',
      key,
      ...(shown === undefined ? {} : { value: shown }),
      source,
      ...(from ? { from } : {}),
      ...(ENV_VARS[key] && source === 'default' ? { env: ENV_VARS[key] } : {}),
      ...(problem ? { problem } : {}),
    };
    out.event(row, formatConfigRow);
  }
  return invalid > 0 ? 2 : 0;
}
