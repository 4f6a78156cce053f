import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { initOptions } from './tool-options.js';

/** `init`: asks which part you play and your URLs, writes svc.config.json. */
export function registerInit(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('init')
    .description('write svc.config.json: the part you play, your endpoint URLs, the channel URL');
  addOptions(cmd, initOptions)
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
        const { runInit } = await loadRunPath('init-run', () => import('./init-run.js'));
        return runInit(ctx, givenFlags(cmd));
      }),
    );
}
