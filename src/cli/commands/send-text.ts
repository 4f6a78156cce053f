import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { sendTextOptions } from './send-options.js';

/** `send-text <text>`: a customer text message to the channel URL (spec 2.1, 4.1). */
export function registerSendText(program: Command, ctx: CliContext): void {
  const command = program
    .command('send-text')
    .description('send a customer text message to the platform (interface A, spec 2.1)')
    .argument('<text>', 'message text (over 1000 characters the platform cuts it)');
  addOptions(command, sendTextOptions)
    .addHelpText(
      'after',
      `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-text "Hello" --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1`,
    )
    .action(
      action(ctx, async (text: string, _opts: unknown, cmd: Command) => {
        const { runSend } = await loadRunPath('send-run', () => import('./send-run.js'));
        return runSend(ctx, { variant: 'text', text }, givenFlags(cmd));
      }),
    );
}
