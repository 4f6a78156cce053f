import type { Command } from 'commander';
import { Argument, Option } from 'commander';
import type { CliContext } from '../context.js';
import { action, globalFlags } from '../action.js';
import type { LoadFlagsInput } from './load-run.js';

/** `load <role>`: the platform's traffic (or customers') at a rate, with thresholds (issue 20). */
export function registerLoad(program: Command, ctx: CliContext): void {
  program
    .command('load')
    .description(
      "send the platform's traffic to YOUR endpoint at a rate (integrator, hooks, bot), or customers to a channel, with live figures and pass/fail thresholds",
    )
    .addArgument(
      new Argument('<role>', 'integrator | channel | hooks | bot').choices([
        'integrator',
        'channel',
        'hooks',
        'bot',
      ]),
    )
    .option(
      '--url <url>',
      'integrator: the integrator_url (spec 4.2); hooks: the hook URL (4.4); bot: the bot_provider_url (4.3)',
    )
    .addOption(
      new Option(
        '--channel-url <url>',
        'channel: {base_url}/<random_string>/<channel_public_id> (spec 4.1)',
      ).env('SVC_CHANNEL_URL'),
    )
    .option('--channel <id>', 'integrator: the channel public id in the path (default load)')
    .addOption(
      new Option('--token <token>', 'bot: the token, the last path segment (spec 5.2)').env(
        'SVC_BOT_TOKEN',
      ),
    )
    .option('--rate <rate>', 'arrivals per second or minute: 200/s, 6000/m (default 10/s)')
    .option('--duration <time>', 'how long arrivals go on: 60s, 2m (default 10s)')
    .option('--count <n>', 'send exactly n payloads instead of --duration')
    .option('--ramp-up <time>', 'grow the rate from 0 over this time (default 0)')
    .option(
      '--customers <n>',
      'distinct customers / chats the payloads cycle through (default 100)',
    )
    .option(
      '--mix <kinds|path>',
      'payload kinds with weights (text=80,photo=10,typing=10) or conversation fixtures whose customer steps are the templates (channel)',
    )
    .option(
      '--think-time <time>',
      "channel: each arrival is one customer's whole conversation (--mix fixtures or kinds), its messages this far apart",
    )
    .option('--events <list>', 'hooks: events to send in turn (default the chat lifecycle)')
    .option('--invalid <share>', 'send this share broken on purpose, reported apart: 1%')
    .option(
      '--threshold <expr>',
      "fail (exit 1) unless it holds: 'p99<500ms', 'max<=3s', 'failed<0.1%', 'rate>=190/s' (repeatable)",
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--abort-on-fail', 'stop as soon as a latency or failed threshold is broken')
    .option(
      '--max-in-flight <n>',
      'payloads under way at once (default: rate x the whole redelivery series); more are "not sent"',
    )
    .option('--no-calibrate', "skip measuring this machine's capacity first")
    .addOption(
      new Option('--reporter <name>', 'pretty | json | junit')
        .choices(['pretty', 'json', 'junit'])
        .default('pretty'),
    )
    .option('--out <file>', 'write the junit or json report (or the --export script) here')
    .addOption(
      new Option(
        '--export <engine>',
        'write the same scenario for a distributed engine instead of running it',
      ).choices(['locust']),
    )
    .addHelpText(
      'after',
      `
Open model: payloads start at the planned times whatever the endpoint does, so a slow answer
cannot hold the next one back; latency counts from when a payload was due. integrator, bot and
hooks go through the platform's delivery engine: integrator 3 attempts at 0/3/6 s, 3 s each
(spec 8); bot 2 x 3 s (spec 8); hooks 1 x 10 s (an assumption: the spec is silent). A payload
the generator could not start is "not sent" and never counted as the endpoint's failure.
Latency thresholds hold every answer (all attempts); failed is failed / sent; rate is
delivered (incl. error replies) per second of the run.

Examples:
  $ svc-cli load integrator --url http://127.0.0.1:9000/agent-messages --rate 200/s --duration 60s \\
      --threshold 'p99<500ms' --threshold 'failed<0.1%'
  $ svc-cli load channel --channel-url <url> --customers 2000 --rate 500/s --duration 2m --mix fixtures/conversations
  $ svc-cli load hooks --url http://127.0.0.1:8000/hooks --rate 100/s
  $ svc-cli load bot --url http://127.0.0.1:7000/bot --token t --rate 50/s
  $ svc-cli load integrator --url http://127.0.0.1:9000/agent-messages --rate 20000/s --export locust > locustfile.py`,
    )
    .action(
      action(ctx, async (role: string, flags: LoadFlagsInput, cmd: Command) => {
        const { runLoadCommand } = await import('./load-run.js');
        return runLoadCommand(ctx, role, flags, globalFlags(cmd));
      }),
    );
}
