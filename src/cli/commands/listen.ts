import type { Command } from 'commander';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addFaultOptions, addQuietOption, addRecordOptions } from './serving-options.js';

/** `listen`: the integrator's agent-message endpoint with fault injection (spec 4.2). */
export function registerListen(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('listen')
    .description(
      'serve the integrator\'s agent-message endpoint POST /<channel_public_id> (spec 4.2): validate each agent message, reply {"result":"ok"} or inject faults',
    )
    .option('--port <n>', 'port; 0 lets the OS pick (default 0, env SVC_PORT)')
    .option('--host <host>', 'interface to bind (default 127.0.0.1, env SVC_HOST)')
    .option('--channel <public_id>', 'serve only this channel public id (others get 404)');
  addFaultOptions(cmd, {
    failFirst: 'fail the first N attempts of each message (by message.id, else body hash)',
    planFile: true,
  });
  addQuietOption(addRecordOptions(cmd))
    .option('--strict', 'contract warnings count as errors')
    .addHelpText(
      'after',
      `
Prints "listening" first (with --json: {"type":"listening","url":...}), then one line per
request. Runs until Ctrl-C (exit 130) or SIGTERM (exit 143).

Examples:
  $ svc-cli listen --port 9000 --fail-first 2        # watch the platform redeliver (spec 8)
  $ svc-cli listen --port 0 --json --fault hang --record session.ndjson`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runListen } = await import('./listen-run.js');
        await runListen(ctx, givenFlags(cmd));
      }),
    );
}
