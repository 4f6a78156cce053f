import { Option, type Command } from 'commander';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';

/** `init`: asks which part you play and your URLs, writes svc.config.json. */
export function registerInit(program: Command, ctx: CliContext): void {
  program
    .command('init')
    .description('write svc.config.json: the part you play, your endpoint URLs, the channel URL')
    .addOption(
      new Option('--role <role>', 'the part you play').choices([
        'integrator',
        'bot-provider',
        'hook-receiver',
        'web-developer',
        'platform-qa',
      ]),
    )
    .option('--channel-url <url>', 'the channel URL from the channel settings')
    .option('--sender-id <id>', 'the customer id to send as')
    .option('--integrator-url <url>', 'your agent-message endpoint')
    .option('--bot-provider-url <url>', 'your bot provider endpoint')
    .option('--hook-url <url>', 'your event-hook receiver URL')
    .option('--widget-url <url>', 'the page that loads the widget')
    .option('-y, --yes', 'ask nothing: use the flags and defaults (also without a TTY)')
    .option('--force', 'overwrite an existing config file')
    .addHelpText(
      'after',
      `
Writes ./svc.config.json (or --config <file>) with "$schema" pointing to the JSON Schema
shipped in the package, so editors complete and check it. Without a TTY, or with --yes,
nothing is asked: the flags and defaults are used and the command says so.

Examples:
  $ svc-cli init
  $ svc-cli init --yes --role integrator --integrator-url http://127.0.0.1:9000
  $ svc-cli init --yes --role platform-qa --channel-url https://svc.example/r4nd0m/ch-1 --force`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runInit } = await import('./init-run.js');
        return runInit(ctx, givenFlags(cmd));
      }),
    );
}
