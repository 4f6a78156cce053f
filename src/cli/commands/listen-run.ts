/** The body of `listen` (imported lazily): flags -> fault plan -> listener -> serve. */
import { createClock } from '../../clock.js';
import { isNonLoopbackHost } from '../../http/server.js';
import { createListener } from '../../roles/integrator/index.js';
import type { ListeningEvent } from '../../roles/integrator/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { listenOptions } from './listen-options.js';
import { bannerLineOnly, formatListenerEvent, formatListening } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';
import { buildFaultPlan, openRecordJournal, recordPolicyOf, serverTls } from '../serving-flags.js';

/**
 * Serves the agent-message endpoint until ctx.signal aborts.
 * @example await runListen(ctx, { port: '0', failFirst: '2' });
 */
export async function runListen(ctx: CliContext, flags: Record<string, unknown>): Promise<void> {
  const options = resolveForCommand(ctx, listenOptions, flags);
  const out = createOutput(ctx, { json: options.json, quiet: options.quiet });
  const plan = await buildFaultPlan(ctx, options);
  if (isNonLoopbackHost(options.host)) {
    out.note(
      `warning: --host ${options.host} exposes the endpoint beyond this machine; it has no authentication (spec 5.4 shows none).`,
    );
  }
  const tls = await serverTls(ctx, options, (line) => out.note(line));
  const journal = openRecordJournal(
    ctx,
    options.record,
    options.showSecrets,
    undefined,
    recordPolicyOf(options, out),
  );
  const listener = await createListener({
    tls,
    host: options.host,
    allowedHosts: options.allowedHost,
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
    format: options.quiet ? bannerLineOnly(formatListening) : formatListening,
    servers: [listener],
    journals: [journal],
  });
}
