import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { sendLocationOptions } from './send-options.js';

/** `send-location --latitude --longitude` (spec 2.4). */
export function registerSendLocation(program: Command, ctx: CliContext): void {
  const command = program
    .command('send-location')
    .description('send a customer geo-location message (spec 2.4)');
  addOptions(command, sendLocationOptions)
    .addHelpText(
      'after',
      `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-location --latitude 55.7558 --longitude=-37.6173 --sender-id c-1`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runSend } = await loadRunPath('send-run', () => import('./send-run.js'));
        return runSend(ctx, { variant: 'location' }, givenFlags(cmd));
      }),
    );
}
