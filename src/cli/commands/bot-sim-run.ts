/** The body of `bot-sim` (imported lazily): flags -> script and fault plan -> provider -> serve. */
import { resolve } from 'node:path';
import { z } from 'zod';
import { createClock } from '../../clock.js';
import { parseFault, type FaultPlan } from '../../faults/index.js';
import { DEFAULT_BODY_LIMIT } from '../../http/body.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { createJournal } from '../../journal/index.js';
import { createBotProvider, loadBotScript, type BotListeningEvent } from '../../roles/bot/index.js';
import type { CliContext } from '../context.js';
import { globalSchema, resolveOptions } from '../options.js';
import { formatBotSimEvent, formatBotSimListening } from '../render/bot-sim-events.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';
import { buildFaultPlan } from '../serving-flags.js';

const toNumber = (v: unknown): unknown =>
  typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
const int = (min: number) =>
  z.preprocess(toNumber, z.number({ error: 'must be a number' }).int().min(min));

/** bot-sim's options (conventions.md 2: a schema, merged by resolveOptions). */
export const botSimSchema = globalSchema.extend({
  host: z.string().default('127.0.0.1'),
  port: z.preprocess(toNumber, z.number().int().min(0).max(65_535)).default(0),
  token: z.string().min(1).default('dev-bot-token'),
  providerId: z.string().min(1).default('dev-provider'),
  platformUrl: z
    .string()
    .refine((v) => URL.canParse(v) && /^https?:/i.test(v), { error: 'must be an http(s) URL' })
    .optional(),
  script: z.string().optional(),
  auth: z.boolean().default(false),
  clientId: z.string().min(1).default('dev-client'),
  clientSecret: z.string().min(1).default('dev-secret'),
  failFirst: int(0).optional(),
  delay: int(0).optional(),
  fault: z
    .string()
    .transform((value, ctx) => {
      const parsed = parseFault(value);
      if (parsed.ok) return parsed.fault;
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    })
    .optional(),
  faultRate: z.preprocess(toNumber, z.number().min(0).max(1)).optional(),
  seed: int(0).optional(),
  silent: z.boolean().default(false),
  record: z.string().optional(),
  bodyLimit: int(1).default(DEFAULT_BODY_LIMIT),
});

/**
 * Serves the scripted provider until ctx.signal aborts.
 * @example await runBotSim(ctx, { port: '0', platformUrl: 'http://127.0.0.1:8800' });
 */
export async function runBotSim(ctx: CliContext, flags: Record<string, unknown>): Promise<void> {
  const env = { ...ctx.env };
  if (flags.token === undefined && env.SVC_BOT_TOKEN) flags.token = env.SVC_BOT_TOKEN;
  if (flags.clientSecret === undefined && env.SVC_BOT_CLIENT_SECRET)
    flags.clientSecret = env.SVC_BOT_CLIENT_SECRET;
  const o = resolveOptions(botSimSchema, { flags, env: ctx.env, cwd: ctx.cwd });
  const out = createOutput(ctx, { json: o.json, quiet: flags.quiet === true });
  const plan: FaultPlan = await buildFaultPlan(ctx, o);
  if (o.silent) plan.fault = { kind: 'hang' }; // never answer: exercises the 3 s x 2 timeouts
  const script = o.script ? await loadBotScript(resolve(ctx.cwd, o.script)) : undefined;
  if (isNonLoopbackHost(o.host))
    out.note(`warning: --host ${o.host} exposes bot-sim beyond this machine.`);
  if (!o.platformUrl)
    out.note('note: no --platform-url: bot-sim answers events but sends none back.');
  const showSecrets = flags.showSecrets === true;
  const journal = createJournal({
    keep: 1000,
    ...(o.record ? { file: resolve(ctx.cwd, o.record) } : {}),
    showSecrets,
    ...(showSecrets
      ? {}
      : {
          redact: (text: string) =>
            text.split(o.token).join('<token>').split(o.clientSecret).join('<secret>'),
        }),
  });
  const bot = await createBotProvider({
    token: o.token,
    providerId: o.providerId,
    ...(o.platformUrl ? { platformUrl: o.platformUrl } : {}),
    ...(script ? { script } : {}),
    ...(o.auth ? { auth: { clientId: o.clientId, clientSecret: o.clientSecret } } : {}),
    plan,
    bodyLimit: o.bodyLimit,
    host: o.host,
    port: o.port,
    clock: createClock({ timeScale: o.timeScale }),
    journal,
    onEvent: (event) => out.event(event, formatBotSimEvent),
  });
  await serveUntilAborted<BotListeningEvent>(ctx, {
    out,
    listening: bot.listening,
    format: formatBotSimListening,
    servers: [bot],
    journals: [journal],
  });
}
