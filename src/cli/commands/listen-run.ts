/** The body of `listen` (imported lazily): flags -> fault plan -> listener -> serve. */
import { createListener } from '../../roles/integrator/index.js';
import type { ListeningEvent } from '../../roles/integrator/index.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { listenOptions } from './listen-options.js';
import { bannerLineOnly, formatListenerEvent, formatListening } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { serveUntilAborted } from '../serve.js';
import { listeningWithFaults, roleServing, withFaultsLine } from '../serving-flags.js';

/**
 * Serves the agent-message endpoint until ctx.signal aborts.
 * @example await runListen(ctx, { port: '0', failFirst: '2' });
 */
export async function runListen(ctx: CliContext, flags: Record<string, unknown>): Promise<void> {
  const options = resolveForCommand(ctx, listenOptions, flags);
  const out = createOutput(ctx, { json: options.json, quiet: options.quiet });
  const serving = await roleServing(ctx, options, out, 'the endpoint');
  const listener = await createListener({
    ...serving,
    ...(options.channel === undefined ? {} : { channel: options.channel }),
    strict: options.strict,
    onEvent: (event) => out.event(event, formatListenerEvent),
  });
  await serveUntilAborted<ListeningEvent>(ctx, {
    out,
    listening: listeningWithFaults(listener.listening, serving.plan),
    format: withFaultsLine(
      options.quiet ? bannerLineOnly(formatListening) : formatListening,
      serving.plan,
      'message',
    ),
    servers: [listener],
    journals: [serving.journal],
  });
}
