import type { Command } from 'commander';
import { Option } from 'commander';
import { action, globalFlags } from '../action.js';
import type { CliContext } from '../context.js';

/** `hook-fire`: the platform firing one synthetic hook event at a receiver (like `stripe trigger`). */
export function registerHookFire(program: Command, ctx: CliContext): void {
  program
    .command('hook-fire')
    .description(
      'fire a realistic hook event (spec 6.2) at a hook receiver and check its reply against the contract',
    )
    .argument(
      '[event]',
      'call_event | chat_accepted | chat_assigned | chat_finished | chat_updated | offline_message',
    )
    .option('--url <url>', 'the hook receiver URL (env SVC_HOOK_URL)')
    .option(
      '--set <path=value>',
      'override a field by dotted path; the value is JSON when it parses (repeatable)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--from <file>', 'send the JSON body in <file> (the event comes from its event_name)')
    .option('--all', 'fire every event in lifecycle order, as one chat')
    .option(
      '--verbose',
      'print each request and reply body (default: only bodies that break the contract)',
    )
    .addOption(
      new Option(
        '--offline-name <name>',
        'send offline_message under this name (the spec 6.2 field table says offline_messages)',
      ).choices(['offline_message', 'offline_messages']),
    )
    .option('--timeout <ms>', 'protocol ms to wait for the reply (default 10000, an assumption)')
    .addHelpText(
      'after',
      `
Prints the request, the reply, the latency and the reply's validation
(issues as "path: rule (spec X)"). Exit 0 when every reply conforms, 1 when a reply breaks
the contract, 2 for bad input, 3 when the receiver is unreachable or times out.

Assumptions (the spec is silent): the platform waits 10 s for a hook reply and does not
redeliver (spec 6.2, 8); hook requests carry no authentication (spec 5.4).

Examples:
  $ svc-cli hook-fire chat_accepted --url http://127.0.0.1:9100/hooks
  $ svc-cli hook-fire chat_finished --url http://127.0.0.1:9100 --set chat.rate=negative
  $ svc-cli hook-fire call_event --url http://127.0.0.1:9100 --set call.status=error --set call.reason=busy
  $ svc-cli --json hook-fire --all --url http://127.0.0.1:9100`,
    )
    .action(
      action(ctx, async (event: string | undefined, _opts: unknown, cmd: Command) => {
        const { runHookFire } = await import('./hook-fire-run.js');
        return runHookFire(ctx, { ...globalFlags(cmd), event });
      }),
    );
}
