import type { Command } from 'commander';
import { action, globalFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addFaultOptions, addQuietOption, addRecordOptions } from './serving-options.js';

/** `hook-target`: the hook receiver (a CRM's endpoint, spec 4.4, 6.2) with scripted replies and faults. */
export function registerHookTarget(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('hook-target')
    .description(
      'serve a hook receiver (spec 4.4): validate every hook event, reply with valid defaults per event, scripted replies or injected faults',
    )
    .option('--port <n>', 'port; 0 lets the OS pick (default 0, env SVC_PORT)')
    .option('--host <host>', 'interface to bind (default 127.0.0.1, env SVC_HOST)')
    .option('--path <path>', 'serve only this path (default: POST on any path)')
    .option(
      '--reply <event=file>',
      'reply to <event> with the JSON in <file> (repeatable), e.g. chat_accepted=fixtures/hooks/crm-reply.json',
      (value: string, previous: string[] = []) => [...previous, value],
    );
  addFaultOptions(cmd, {
    failFirst: 'fail the first N attempts of each event (by body hash)',
    planFile: true,
  });
  addQuietOption(addRecordOptions(cmd))
    .addHelpText(
      'after',
      `
Accepts both offline_message and offline_messages (spec 6.2 note). Default replies:
chat_accepted shows custom_data, contact_info, enable_assign and crm_link; the other
events get {"result":"ok"}. Prints "listening" first (with --json: {"type":"listening",...}),
then one line per event with its verdict and indented issues. Ctrl-C exits 130.

Assumption (spec 5.4 silent): hook requests carry no authentication; none is checked.

Examples:
  $ svc-cli hook-target --port 9100
  $ svc-cli hook-target --port 9100 --reply chat_accepted=fixtures/hooks/crm-reply.json
  $ svc-cli --json hook-target --port 0 --fault status:500 --fault-rate 0.5 --seed 7`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runHookTarget } = await import('./hook-target-run.js');
        await runHookTarget(ctx, globalFlags(cmd) as Record<string, unknown>);
      }),
    );
}
