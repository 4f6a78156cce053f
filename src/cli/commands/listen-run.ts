/** The body of `listen` (imported lazily): flags -> fault plan -> listener -> serve. */
import { resolve } from 'node:path';
import { createClock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { loadFaultPlan, type FaultPlan } from '../../faults/index.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { createJournal, type Journal } from '../../journal/index.js';
import { createListener } from '../../roles/integrator/index.js';
import type { ListeningEvent } from '../../roles/integrator/index.js';
import type { CliContext } from '../context.js';
import { listenSchema, resolveOptions, type ListenOptions } from '../options.js';
import { formatListenerEvent, formatListening } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';

/** The plan file first, then each flag given on top of it. */
async function buildPlan(ctx: CliContext, o: ListenOptions): Promise<FaultPlan> {
  const plan: FaultPlan = o.faultPlan ? await loadFaultPlan(resolve(ctx.cwd, o.faultPlan)) : {};
  if (o.failFirst !== undefined) plan.failFirst = o.failFirst;
  if (o.delay !== undefined) plan.delayMs = o.delay;
  if (o.fault !== undefined) plan.fault = o.fault;
  if (o.faultRate !== undefined) plan.rate = o.faultRate;
  if (o.seed !== undefined) plan.seed = o.seed;
  return plan;
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
 * Serves the agent-message endpoint until ctx.signal aborts.
 * @example await runListen(ctx, { port: '0', failFirst: '2' });
 */
export async function runListen(ctx: CliContext, flags: Record<string, unknown>): Promise<void> {
  const options = resolveOptions(listenSchema, {
    flags,
    env: ctx.env,
    cwd: ctx.cwd,
    command: 'listen',
  });
  const out = createOutput(ctx, { json: options.json });
  const plan = await buildPlan(ctx, options);
  if (isNonLoopbackHost(options.host)) {
    out.note(
      `warning: --host ${options.host} exposes the endpoint beyond this machine; it has no authentication (spec 5.4 shows none).`,
    );
  }
  const journal = openJournal(ctx, options.record, flags.showSecrets === true);
  const listener = await createListener({
    host: options.host,
    port: options.port,
    ...(options.channel === undefined ? {} : { channel: options.channel }),
    plan,
    clock: createClock({ timeScale: options.timeScale }),
    journal,
    bodyLimit: options.bodyLimit,
    strict: options.strict,
    onEvent: (event) => out.event(event, formatListenerEvent),
  });
  await serveUntilAborted<ListeningEvent>(ctx, {
    out,
    listening: listener.listening,
    format: formatListening,
    servers: [listener],
    journals: [journal],
  });
}
