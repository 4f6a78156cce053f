import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { listenOptions } from './serving-tables.js';

/** `listen`: the integrator's agent-message endpoint with fault injection (spec 4.2). */
export function registerListen(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('listen')
    .description(
      'serve the integrator\'s agent-message endpoint POST /<channel_public_id> (spec 4.2): validate each agent message, reply {"result":"ok"} or inject faults',
    );
  addOptions(cmd, listenOptions)
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
        const { runListen } = await loadRunPath('listen-run', () => import('./listen-run.js'));
        await runListen(ctx, givenFlags(cmd));
      }),
    );
}
