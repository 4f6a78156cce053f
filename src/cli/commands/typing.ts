import type { Command } from 'commander';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addSendFlags, SEND_HELP_AFTER } from './send-flags.js';

/** `typing <start|stop>`: the customer's typing notice, typein / typeout (spec 2.3). */
export function registerTyping(program: Command, ctx: CliContext): void {
  const command = program
    .command('typing')
    .description('send a customer typing notice: start = typein, stop = typeout (spec 2.3)')
    .argument('<state>', 'start | stop');
  addSendFlags(command)
    .addHelpText(
      'after',
      `${SEND_HELP_AFTER}

Examples:
  $ svc-cli typing start --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli typing stop --sender-id c-1`,
    )
    .action(
      action(ctx, async (state: string, _opts: unknown, cmd: Command) => {
        const { runSend } = await import('./send-run.js');
        return runSend(ctx, 'typing', { ...givenFlags(cmd), state }, { state: '<state>' });
      }),
    );
}
