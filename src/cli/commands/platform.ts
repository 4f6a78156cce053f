import type { Command } from 'commander';
import { Option } from 'commander';
import type { CliContext } from '../context.js';
import { action, givenFlags } from '../action.js';

export function registerPlatform(program: Command, ctx: CliContext): void {
  program
    .command('platform')
    .description(
      'run the platform simulator: channel URL + status, agent messages to your integrator URL with the redelivery policy',
    )
    .option('-p, --port <port>', 'port to listen on (0 = any free port)', '0')
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; others are reachable from the network)',
    )
    .addOption(
      new Option(
        '--integrator-url <url>',
        'where agent messages go: POST <url>/<channel_public_id> (spec 4.2; env SVC_INTEGRATOR_URL)',
      ),
    )
    .option(
      '--chunked',
      "send agent messages with Transfer-Encoding: chunked (the channel's chunked switch)",
    )
    .addOption(
      new Option('--agents <state>', 'agents online (status 1) or offline (status 0)')
        .choices(['online', 'offline'])
        .default('online'),
    )
    .option('--channel-id <id>', 'the channel public id (default: random)')
    .option('--channel-name <name>', 'the channel name')
    .option(
      '--random-string <s>',
      'fix the URL random string (default: 128 random bits) for a stable channel URL',
    )
    .option('--lenient', 'answer contract violations 200 (still not delivered) instead of 400')
    .option('--record <file>', 'append every exchange to this file (NDJSON; .har writes HAR 1.2)')
    .option(
      '--body-limit <bytes>',
      'largest request body accepted (413 beyond)',
      String(1024 * 1024),
    )
    .option('--no-console', 'do not read agent messages from stdin')
    .addHelpText(
      'after',
      `
The agent console reads stdin: a plain line answers the last active customer,
"@<customer> text" one customer; /help lists /typing, /media, /location, /offline, /close.
Tests and tools drive the agent side through the control API under /_sim/ (README).

Assumption (spec silent): each delivery attempt waits at most 3 s (derived from the 9 s figure).

Examples:
  $ svc-cli platform --integrator-url http://127.0.0.1:9000/agent-messages
  $ svc-cli platform --port 8800 --channel-id shop --random-string dev-only-secret-1234
  $ svc-cli --json --time-scale 0.01 platform --port 0 --integrator-url http://127.0.0.1:9000`,
    )
    .action(
      action(ctx, async (_flags: unknown, cmd: Command) => {
        const { runPlatform } = await import('./platform-run.js');
        return runPlatform(ctx, givenFlags(cmd));
      }),
    );
}
