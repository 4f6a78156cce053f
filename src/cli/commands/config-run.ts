/** The body of `config` (imported lazily): resolve a command's table, print one row per key. */

import { SvcError } from '../../errors.js';
import { closestNames } from '../../suggest.js';
import type { CliContext } from '../context.js';
import { ALL_TABLES } from '../options/all.js';
import { configKeySpecs, inspectOptions } from '../options/resolve.js';
import { ROLE_NAMES } from '../options/roles.js';
import type { OptionSpec } from '../options/table.js';
import { plural } from '../../plural.js';

/** The file's own `role` key (svc-cli init writes it), shown by `svc-cli config`. */
const ROLE_SPEC: OptionSpec = {
  key: 'role',
  flag: '--role <role>',
  type: 'choice',
  choices: ROLE_NAMES,
  description: 'the part you play',
};
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

/**
 * Prints every key's value and source; returns 2 when a value is invalid.
 * @example await runConfig(ctx, { command: 'listen', rest: ['--port', '9000'], given: {} });
 */
export function runConfig(
  ctx: CliContext,
  typed: { command: string | undefined; rest: string[]; given: Record<string, unknown> },
): number {
  const input = joinTwoWordCommand(typed);
  const table = input.command === undefined ? undefined : tableOf(input.command);
  if (input.command !== undefined && table === undefined) {
    const known = ALL_TABLES.map((t) => t.command);
    // `record` alone: its subcommands, not the one closest by spelling
    const subs = known.filter((name) => name.startsWith(`${input.command} `));
    const [near] = closestNames(input.command, known, { maxDistance: 3 });
    const guess = subs.length > 0 ? orList(subs) : near;
    throw new SvcError(
      'SVC_E_UNKNOWN_COMMAND',
      `Could not show the options of "${input.command}": no command of that name reads options.${guess ? ` Did you mean ${guess}?` : ''}`,
      `Commands with options: ${known.join(', ')}.`,
    );
  }
  const flags = { ...input.given, ...parseFlagWords(input.rest) };
  // without a command: every key the file may hold, top level only
  const everyKey: OptionSpec[] = [ROLE_SPEC, ...configKeySpecs()];
  const inspection = inspectOptions(table ?? { command: '', options: everyKey }, {
    flags,
    env: ctx.env,
    cwd: ctx.cwd,
  });
  const out = createOutput(ctx, { json: Boolean(input.given.json) });
  for (const warning of inspection.warnings) out.note(warning);
  out.event(
    {
      type: 'config-file',
      file: inspection.file ?? null,
      command: input.command ?? null,
      section: inspection.hasSection,
    },
    (e, c) =>
      table?.readsConfig === false
        ? c.dim(`${table.command} reads no config file and no SVC_* variable: only its flags`)
        : e.file === null
          ? c.dim('no config file (svc-cli init writes svc.config.json)')
          : `config file ${c.bold(e.file)}${e.command && e.section ? c.dim(` (with commands.${e.command})`) : ''}`,
  );
  let invalid = 0;
  let atDefault = 0;
  const whole = input.command === undefined;
  for (const option of inspection.options) {
    const { spec, source } = option;
    if (spec.config === false && source === 'default') continue;
    if (['json', 'config', 'color', 'showSecrets'].includes(spec.key)) continue;
    // the HTTPS trust globals are listed once they are set
    if (['ca', 'insecure'].includes(spec.key) && source === 'default') continue;
    // without a command, a key one command requires (send-text's channelUrl) is not missing:
    // it is given when that command runs
    if (whole && option.problem?.startsWith('is required')) delete option.problem;
    // ... and the keys nobody set are counted, not listed: every command's would be ~110 rows
    if (whole && source === 'default' && !option.problem && !out.json) {
      atDefault++;
      continue;
    }
    if (option.problem) invalid++;
    const value = option.problem ? option.raw : option.value;
    const hidden = !input.given.showSecrets && typeof value === 'string';
    const shown =
      hidden && spec.secret
        ? '***'
        : hidden && spec.key === 'channelUrl'
          ? redactChannelUrl(value)
          : value;
    const row: ConfigRowEvent = {
      type: 'config',
      key: spec.key,
      ...(shown === undefined ? {} : { value: shown }),
      source,
      ...(option.from ? { from: option.from } : {}),
      ...(spec.env && source === 'default' && table?.readsConfig !== false
        ? { env: spec.env }
        : {}),
      ...(option.problem ? { problem: option.problem } : {}),
    };
    out.event(row, formatConfigRow);
  }
  if (atDefault > 0)
    out.line(
      out.chalk.dim(
        `${plural(atDefault, 'more key', 'more keys')} at their defaults; one command's, with the defaults: svc-cli config <command> (e.g. svc-cli config listen)`,
      ),
    );
  return invalid > 0 ? 2 : 0;
}

const orList = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

const tableOf = (command: string) => ALL_TABLES.find((t) => t.command === command);

/** `config record to-fixture --out x`: a two-word command typed as it runs, not quoted. */
function joinTwoWordCommand<T extends { command: string | undefined; rest: string[] }>(
  typed: T,
): T {
  const [next, ...rest] = typed.rest;
  if (typed.command === undefined || next === undefined || tableOf(typed.command)) return typed;
  const joined = `${typed.command} ${next}`;
  return tableOf(joined) ? { ...typed, command: joined, rest } : typed;
}
