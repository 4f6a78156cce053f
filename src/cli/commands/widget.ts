import type { Command } from 'commander';
import { Option } from 'commander';
import type { CliContext } from '../context.js';
import { action, globalFlags } from '../action.js';

export interface WidgetFlags {
  port: string;
  host?: string;
  platformUrl?: string;
  platformPort: string;
  agents: 'online' | 'offline';
  hookUrl?: string;
  record?: string;
}

/** `widget`: a demo page whose svc_api double talks to a simulator (interface C). */
export function registerWidget(program: Command, ctx: CliContext): void {
  program
    .command('widget')
    .description(
      'serve a demo page that loads the svc_api double (spec 4.5, 6.4) wired to the simulator, with the agent web console beside it',
    )
    .option('-p, --port <port>', 'port of the demo page (0 = any free port)', '0')
    .option('--host <host>', 'address to bind both servers (default 127.0.0.1)')
    .addOption(
      new Option(
        '--platform-url <url>',
        'use a running simulator (svc-cli platform --web) instead of starting one',
      ).env('SVC_PLATFORM_URL'),
    )
    .option('--platform-port <port>', 'port of the simulator started here (0 = any)', '0')
    .addOption(
      new Option('--agents <state>', 'agents online or offline at start (chatMode())')
        .choices(['online', 'offline'])
        .default('online'),
    )
    .addOption(
      new Option('--hook-url <url>', 'the started simulator sends event hooks here (spec 6.2)').env(
        'SVC_HOOK_URL',
      ),
    )
    .option('--record <file>', 'append every exchange to this file (NDJSON; .har writes HAR 1.2)')
    .addHelpText(
      'after',
      `
Prints the page URL first (with --json: {"type":"listening","url":...,"consoleUrl":...}).
The page's chat box sends visitor messages to the simulator's widget channel; answer them in
the agent web console. Ctrl-C stops both servers.

Examples:
  $ svc-cli widget --port 8080
  $ svc-cli widget --agents offline          # try sendOfflineMessage
  $ svc-cli platform --web --port 8800 & svc-cli widget --platform-url http://127.0.0.1:8800`,
    )
    .action(
      action(ctx, async (flags: WidgetFlags, cmd: Command) => {
        const { runWidget } = await import('./widget-run.js');
        return runWidget(ctx, flags, globalFlags(cmd));
      }),
    );
}
