import type { Command } from 'commander';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { statusOptions } from './send-options.js';

/** `status`: GET <channel URL>/status, body 0 or 1 (spec 3, 4.1). */
export function registerStatus(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('status')
    .description("read the channel's availability: online (1) or offline (0) (spec 3, 4.1)");
  addOptions(cmd, statusOptions)
    .addHelpText(
      'after',
      `
Exit codes: 0 online or offline, 1 404 (no channel at that URL) or a body other
than 0/1, 2 invalid flags, 3 platform unreachable or timed out.

Examples:
  $ svc-cli status --channel-url https://svc.example/r4nd0m/ch-1
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli --json status`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const [{ resolveForCommand }, { getChannelStatus }, { createClock }] = await Promise.all([
          import('../options/resolve.js'),
          import('../../roles/integrator/index.js'),
          import('../../clock.js'),
        ]);
        const [{ createOutput }, { formatStatus }, { withSpinner }] = await Promise.all([
          import('../render/output.js'),
          import('../render/exchange.js'),
          import('../render/progress.js'),
        ]);
        const options = resolveForCommand(ctx, statusOptions, givenFlags(cmd));
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
          }),
        );
        const event = {
          type: 'status' as const,
          availability: status.availability,
          status: status.status,
          body: status.body,
          latencyMs: Math.round(status.latencyMs),
        };
        out.event(event, formatStatus);
        return 0;
      }),
    );
}
