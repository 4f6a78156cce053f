import { Option, type Command } from 'commander';
import { action, globalFlags } from '../action.js';
import type { CliContext } from '../context.js';

/** `status`: GET <channel URL>/status, body 0 or 1 (spec 3, 4.1). */
export function registerStatus(program: Command, ctx: CliContext): void {
  program
    .command('status')
    .description("read the channel's availability: online (1) or offline (0) (spec 3, 4.1)")
    .addOption(new Option('--channel-url <url>', 'the channel URL (env SVC_CHANNEL_URL)'))
    .option('--timeout <ms>', 'wait at most this long for the reply (default 10000; assumed)')
    .addHelpText(
      'after',
      `
Exit codes: 0 online or offline, 1 404 (no channel has that public id) or a body other
than 0/1, 2 invalid flags, 3 platform unreachable or timed out.`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const [{ resolveOptions, statusSchema }, { getChannelStatus }, { createClock }] =
          await Promise.all([
            import('../options.js'),
            import('../../roles/integrator/index.js'),
            import('../../clock.js'),
          ]);
        const [{ createOutput }, { formatStatus }, { withSpinner }] = await Promise.all([
          import('../render/output.js'),
          import('../render/exchange.js'),
          import('../render/spinner.js'),
        ]);
        const options = resolveOptions(statusSchema, {
          flags: globalFlags(cmd) as Record<string, unknown>,
          env: ctx.env,
          cwd: ctx.cwd,
        });
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
