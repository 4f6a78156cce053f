import type { Command } from 'commander';
import { Option } from 'commander';
import type { CliContext } from '../context.js';
import { action, globalFlags } from '../action.js';

export interface ReplayFlags {
  integratorUrl?: string;
  botUrl?: string;
  hookUrl?: string;
  platformUrl?: string;
  grep?: string;
  bail?: boolean;
  concurrency?: string;
  seed?: string;
  reporter: 'pretty' | 'json' | 'junit';
  out?: string;
  verbose?: boolean;
}

export function registerReplay(program: Command, ctx: CliContext): void {
  program
    .command('replay')
    .description(
      'replay fixture conversations against the embedded simulator and roles (or real peers)',
    )
    .argument('[paths...]', 'conversation files or folders', ['fixtures/conversations'])
    .option(
      '--integrator-url <url>',
      'a real integrator endpoint instead of the embedded listen (real time)',
    )
    .option('--bot-url <url>', 'a real bot provider instead of the embedded bot-sim (real time)')
    .option(
      '--hook-url <url>',
      'a real hook receiver instead of the embedded hook-target (real time)',
    )
    .option(
      '--platform-url <url>',
      'a running svc simulator (svc-cli platform) instead of the embedded one (real time): customer, agent and control steps and event expectations run; integrator, bot and hook expectations are skipped',
    )
    .option(
      '--grep <pattern>',
      'only conversations whose name or file matches (a regular expression)',
    )
    .option('--bail', 'stop at the first failing conversation')
    .option(
      '--concurrency <n>',
      'conversations replayed at once, each in its own world (default 4; 1 with a real peer)',
    )
    .option('--seed <n>', 'seed for everything random (fault rates)')
    .option('--verbose', 'print every step of every conversation (default: steps of failed ones)')
    .addOption(
      new Option('--reporter <name>', 'pretty, json (NDJSON) or junit')
        .choices(['pretty', 'json', 'junit'])
        .default('pretty'),
    )
    .option('--out <file>', 'write the report to a file (junit, json) instead of stdout')
    .addHelpText(
      'after',
      `
Everything runs in one process on a virtual clock by default: a conversation with a 9 s
redelivery series takes milliseconds. Naming a real peer switches to real time (scale it
with --time-scale).

--platform-url <url> replays against a running \`svc-cli platform\`: the channel URL comes
from GET <url>/_sim/state, agent, agents and close steps go through its control API, event
expectations read GET <url>/_sim/events. That simulator talks to the integrator, bot and hook
URLs it was started with, so integrator, bot and hook expectations and the fixture's
setup.integrator / bot / hooks do not apply there: those expectations are skipped, with the
reason. Give both sides the same --time-scale.

--concurrency <n> replays up to n conversations at once, each in its own embedded world on
its own virtual clock (default 4; 1 = one after another). Output is the same as one after
another: each conversation's block is printed when its turn in input order comes, and
--bail reports up to the first failing conversation. With a real peer (--integrator-url,
--bot-url, --hook-url, --platform-url) the default is 1: a real peer may not handle parallel
conversations on the same channel; pass --concurrency to run several anyway.

Examples:
  $ svc-cli replay                                       # every bundled conversation
  $ svc-cli replay fixtures/conversations/redelivery-exhausted.json
  $ svc-cli replay my-flows/ --integrator-url http://127.0.0.1:9000 --reporter junit --out report.xml
  $ svc-cli replay --grep bot --bail
  $ svc-cli replay --concurrency 1                       # one conversation at a time
  $ svc-cli --time-scale 0.1 replay my-flows/ --platform-url http://127.0.0.1:8800`,
    )
    .action(
      action(ctx, async (paths: string[], flags: ReplayFlags, cmd: Command) => {
        const { runReplay } = await import('./replay-run.js');
        return runReplay(ctx, paths, flags, globalFlags(cmd));
      }),
    );
}
