/** The body of `hook-target` (imported lazily): flags -> replies + fault plan -> receiver -> serve. */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { createClock } from '../../clock.js';
import { HOOK_EVENTS, type HookEventName } from '../../contract/hooks.js';
import { SvcError } from '../../errors.js';
import { loadFaultPlan, type FaultPlan } from '../../faults/index.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { createJournal, type Journal } from '../../journal/index.js';
import {
  createHookTarget,
  hookEventOf,
  type HookTargetListening,
} from '../../roles/hooks/index.js';
import type { CliContext } from '../context.js';
import { listenSchema, resolveOptions } from '../options.js';
import { formatHookTargetEvent, formatHookTargetListening } from '../render/hook-events.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';

/** `listen`'s serving and fault flags, plus the receiver's own. */
export const hookTargetSchema = listenSchema.omit({ channel: true, strict: true }).extend({
  path: z.string().startsWith('/', { error: 'must start with /' }).optional(),
  reply: z.array(z.string()).default([]),
});
export type HookTargetOptions = z.output<typeof hookTargetSchema>;

/** The plan file first, then each flag given on top of it. */
async function buildPlan(ctx: CliContext, o: HookTargetOptions): Promise<FaultPlan> {
  const plan: FaultPlan = o.faultPlan ? await loadFaultPlan(resolve(ctx.cwd, o.faultPlan)) : {};
  if (o.failFirst !== undefined) plan.failFirst = o.failFirst;
  if (o.delay !== undefined) plan.delayMs = o.delay;
  if (o.fault !== undefined) plan.fault = o.fault;
  if (o.faultRate !== undefined) plan.rate = o.faultRate;
  if (o.seed !== undefined) plan.seed = o.seed;
  return plan;
}

/**
 * Reads `--reply event=file` pairs; the event must be a hook event, the file JSON.
 * @example await loadReplies(ctx, ['chat_accepted=crm.json'])
 */
export async function loadReplies(
  ctx: Pick<CliContext, 'cwd'>,
  pairs: readonly string[],
): Promise<Partial<Record<HookEventName, unknown>>> {
  const replies: Partial<Record<HookEventName, unknown>> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    const event = hookEventOf(pair.slice(0, Math.max(eq, 0)));
    if (eq <= 0 || event === undefined) {
      throw new SvcError(
        'SVC_E_REPLY_FLAG',
        'input',
        `Could not use --reply "${pair}": expected <event>=<file> with an event of ${HOOK_EVENTS.join(', ')}.`,
      );
    }
    const file = resolve(ctx.cwd, pair.slice(eq + 1));
    try {
      replies[event] = JSON.parse(await readFile(file, 'utf8')) as unknown;
    } catch (error) {
      throw new SvcError(
        'SVC_E_READ',
        'input',
        `Could not read the reply for ${event} from ${file}: ${(error as Error).message}.`,
      );
    }
  }
  return replies;
}

function openJournal(ctx: CliContext, record: string | undefined, showSecrets: boolean): Journal {
  if (record === undefined) return createJournal({ keep: 1000, showSecrets });
  try {
    return createJournal({ file: resolve(ctx.cwd, record), keep: 1000, showSecrets });
  } catch (error) {
    throw new SvcError(
      'SVC_E_RECORD',
      'input',
      `Could not open the record file ${record}: ${(error as Error).message}.`,
    );
  }
}

/**
 * Serves the hook receiver until ctx.signal aborts.
 * @example await runHookTarget(ctx, { port: '0', reply: ['chat_accepted=crm.json'] });
 */
export async function runHookTarget(
  ctx: CliContext,
  flags: Record<string, unknown>,
): Promise<void> {
  const options = resolveOptions(hookTargetSchema, { flags, env: ctx.env, cwd: ctx.cwd });
  const out = createOutput(ctx, { json: options.json });
  const plan = await buildPlan(ctx, options);
  const replies = await loadReplies(ctx, options.reply);
  if (isNonLoopbackHost(options.host)) {
    out.note(
      `warning: --host ${options.host} exposes the receiver beyond this machine; it has no authentication (spec 5.4 shows none).`,
    );
  }
  const journal = openJournal(ctx, options.record, flags.showSecrets === true);
  const target = await createHookTarget({
    host: options.host,
    port: options.port,
    ...(options.path === undefined ? {} : { path: options.path }),
    replies,
    plan,
    clock: createClock({ timeScale: options.timeScale }),
    journal,
    bodyLimit: options.bodyLimit,
    onEvent: (event) => out.event(event, formatHookTargetEvent),
  });
  await serveUntilAborted<HookTargetListening>(ctx, {
    out,
    listening: target.listening,
    format: formatHookTargetListening,
    servers: [target],
    journals: [journal],
  });
}
