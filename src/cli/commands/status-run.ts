import type { CliContext } from '../context.js';
import { createClock } from '../../clock.js';
import { checkChannelUrl } from '../channel-url.js';
import { getChannelStatus } from '../../roles/integrator/index.js';
import { resolveForCommand } from '../options/resolve.js';
import { formatStatus } from '../render/exchange.js';
import { createOutput } from '../render/output.js';
import { withSpinner } from '../render/progress.js';
import { statusOptions } from './send-options.js';
import { withScaledTimeout } from '../scaled-timeout.js';

/** `status`: GET <channel URL>/status, body 0 or 1 (spec 3, 4.1). */
export async function runStatus(
  ctx: CliContext,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const options = resolveForCommand(ctx, statusOptions, given);
  checkChannelUrl(options.channelUrl);
  const out = createOutput(ctx, { json: options.json });
  const status = await withSpinner(
    ctx,
    { json: options.json },
    'reading the channel status',
    getChannelStatus({
      channelUrl: options.channelUrl,
      clock: createClock({ timeScale: options.timeScale }),
      timeoutMs: options.timeout,
      signal: ctx.signal,
    }).catch((error: unknown) => {
      throw withScaledTimeout(error, options.timeScale, options.timeout);
    }),
  );
  const event = {
    type: 'status' as const,
    availability: status.availability,
    status: status.status,
    body: status.body,
    // a round trip is wall time: the clock's protocol ms read it 100x at --time-scale 0.01
    latencyMs: Math.round(status.latencyMs * options.timeScale),
  };
  out.event(event, formatStatus);
  return 0;
}
