import { Argument, type Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { typingOptions } from './send-options.js';

/** `typing <start|stop>`: the customer's typing notice, typein / typeout (spec 2.3). */
export function registerTyping(program: Command, ctx: CliContext): void {
  const command = program
    .command('typing')
    .description('send a customer typing notice: start = typein, stop = typeout (spec 2.3)')
    .addArgument(
      new Argument('<state>', 'start = typein, stop = typeout').choices(['start', 'stop']),
    );
  addOptions(command, typingOptions)
    .addHelpText(
      'after',
      `${SEND_HELP_AFTER}

Examples:
  $ svc-cli typing start --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli typing stop --sender-id c-1`,
    )
    .action(
      action(ctx, async (state: 'start' | 'stop', _opts: unknown, cmd: Command) => {
        const { runSend } = await loadRunPath('send-run', () => import('./send-run.js'));
        return runSend(ctx, { variant: 'typing', state }, givenFlags(cmd));
      }),
    );
}
