import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';

/** `config [command]`: the resolved options and where each came from (file, env, flag, default). */
export function registerConfig(program: Command, ctx: CliContext): void {
  program
    .command('config')
    .description('print the resolved options and where each came from: file, env, flag or default')
    .argument('[command]', "show one command's options (its commands.<name> section applies)")
    .argument('[flags...]', "that command's flags, to see how they combine")
    .allowUnknownOption()
    .addHelpText(
      'after',
      `
Precedence: ${'svc.config.json'} < SVC_* environment < flags. --config <file> reads another file.
Secrets (the channel URL's random string) are redacted unless --show-secrets.
Exit codes: 0 every value valid, 2 a value (or the file) is invalid.

Examples:
  $ svc-cli config
  $ svc-cli config listen --port 9100
  $ SVC_PORT=9000 svc-cli --json config listen`,
    )
    .action(
      action(
        ctx,
        async (command: string | undefined, rest: string[], _o: unknown, cmd: Command) => {
          const { runConfig } = await loadRunPath('config-run', () => import('./config-run.js'));
          return runConfig(ctx, { command, rest, given: givenFlags(cmd) });
        },
      ),
    );
}
