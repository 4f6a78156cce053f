import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import type { CliContext } from '../context.js';
import { action, givenFlags } from '../action.js';
import { addOptions } from '../options/register.js';
import { widgetOptions } from './misc-options.js';

/** `widget`: a demo page whose svc_api double talks to a simulator (interface C). */
export function registerWidget(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('widget')
    .description(
      'serve a demo page that loads the svc_api double (spec 4.5, 6.4) wired to the simulator, with the agent web console beside it',
    );
  addOptions(cmd, widgetOptions)
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
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runWidget } = await loadRunPath('widget-run', () => import('./widget-run.js'));
        return runWidget(ctx, givenFlags(cmd));
      }),
    );
}
