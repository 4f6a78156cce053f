/** The body of `init` (imported lazily): answers (prompted or not) -> validated file. */
import { existsSync } from 'node:fs';
import { writeFileWhole } from '../../io/write-whole.js';
import { relative } from 'node:path';
import { SvcError } from '../../errors.js';
import { configSchemaRefFor, CONFIG_VERSION, findConfigFile, type Role } from '../config-file.js';
import type { CliContext } from '../context.js';
import { checkConfigValues, httpUrlProblem, resolveForCommand } from '../options/resolve.js';
import { initOptions } from './init-options.js';
import { askInitQuestions, QUESTIONS_BY_ROLE, type InitAnswers } from '../render/init-prompts.js';
import { createOutput } from '../render/output.js';

/** Local defaults that fit the toolkit's own commands (`listen --port 9000` ...). */
const LOCAL_DEFAULTS: Partial<InitAnswers> = {
  integratorUrl: 'http://127.0.0.1:9000',
  senderId: 'customer-1',
  botProviderUrl: 'http://127.0.0.1:9100',
  hookUrl: 'http://127.0.0.1:9200/hooks',
};

const NEXT_STEPS: Readonly<Record<Role, string>> = {
  integrator: 'svc-cli platform   # the simulator delivers agent messages to your integratorUrl',
  // the platform cannot attach a bot without its token (SVC_E_FLAG), and init does not ask it
  'bot-provider':
    'svc-cli platform --bot-token <token>   # your bot’s token (spec 5.2): events go to <botProviderUrl>/<token>',
  'hook-receiver': 'svc-cli platform   # the simulator sends event hooks to your hookUrl',
  'web-developer': 'svc-cli platform   # then load the widget double (README: page script)',
  'platform-qa': 'svc-cli listen & svc-cli chat   # play the integrator against the platform',
};

export function validateUrl(value: string): string | true {
  return httpUrlProblem(value) ?? true;
}

function pickAnswers(role: Role, flags: Record<string, unknown>): InitAnswers {
  const answers: InitAnswers = { role };
  for (const key of QUESTIONS_BY_ROLE[role]) {
    if (key === 'role') continue;
    const value = typeof flags[key] === 'string' ? flags[key] : LOCAL_DEFAULTS[key];
    if (value !== undefined) answers[key] = value;
  }
  return answers;
}

/**
 * Writes the config file; returns the exit code.
 * @example await runInit(ctx, { yes: true, role: 'integrator' });
 */
export async function runInit(
  ctx: CliContext,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags: Record<string, unknown> = resolveForCommand(ctx, initOptions, given);
  const out = createOutput(ctx, { json: Boolean(flags.json) });
  const { file } = findConfigFile(flags, ctx.cwd);
  const shown = relative(ctx.cwd, file) || file;
  const interactive = !flags.yes && Boolean(ctx.stdin.isTTY) && !flags.json;
  if (!interactive) {
    const why = flags.yes ? '--yes' : flags.json ? '--json' : 'no TTY on stdin';
    out.note(`init: not asking (${why}); using the flags and defaults`);
  }
  if (existsSync(file) && !flags.force) {
    let overwrite = false;
    if (interactive) {
      const { confirm } = await import('@inquirer/prompts');
      overwrite = await confirm(
        { message: `${shown} exists. Overwrite it?`, default: false },
        { input: ctx.stdin, output: ctx.stdout, signal: ctx.signal },
      );
    }
    if (!overwrite) {
      throw new SvcError(
        'SVC_E_CONFIG_EXISTS',
        `Could not write ${shown}: it exists.`,
        'Pass --force to overwrite it, or --config <file> to write another file.',
      );
    }
  }
  const role = (flags.role as Role | undefined) ?? 'integrator';
  const defaults = pickAnswers(role, flags);
  for (const [key, value] of Object.entries(defaults) as [string, string][]) {
    const check = key === 'role' || key === 'senderId' ? true : validateUrl(value);
    if (check !== true) {
      throw new SvcError('SVC_E_OPTIONS', `Could not use --${kebab(key)}: ${check}.`);
    }
  }
  const answers = interactive
    ? await askInitQuestions(
        { input: ctx.stdin, output: ctx.stdout, signal: ctx.signal },
        { ...LOCAL_DEFAULTS, ...defaults },
        validateUrl,
        typeof given.role === 'string',
      )
    : defaults;
  const schema = configSchemaRefFor(ctx.cwd);
  const content = {
    ...(schema === undefined ? {} : { $schema: schema }),
    version: CONFIG_VERSION,
    ...answers,
  };
  const { problems } = checkConfigValues(content);
  if (problems.length > 0) {
    throw new SvcError('SVC_E_CONFIG', `Could not write ${shown}: ${problems.join('; ')}.`);
  }
  writeFileWhole(file, `${JSON.stringify(content, null, 2)}\n`);
  out.event({ type: 'config-written', file, role: answers.role, config: content }, (e, c) =>
    [
      `${c.green('✓')} wrote ${c.bold(shown)} for the role ${c.cyan(e.role)}`,
      c.dim(`  next: ${NEXT_STEPS[e.role]}`),
      c.dim(
        '  svc-cli config shows every value and where it came from; svc-cli doctor checks them',
      ),
    ].join('\n'),
  );
  return 0;
}

const kebab = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
