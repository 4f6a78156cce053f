import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { doctorOptions } from './tool-options.js';

/** `doctor`: Node version, config file, reachability of the configured URLs. */
export function registerDoctor(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('doctor')
    .description('check Node, the config file and that the configured URLs answer');
  addOptions(cmd, doctorOptions)
    .addHelpText(
      'after',
      `
Checks: Node >= 20.19; svc.config.json is valid (unknown keys are warnings, with the
closest known key); the channel status URL answers 0 or 1; the integrator, bot provider,
hook and widget URLs answer HTTP at all (any status counts: it is a reachability check).
Exit codes: 0 all passed, 1 a check failed, 3 a URL is unreachable or timed out (and nothing
else failed).

Examples:
  $ svc-cli doctor
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli doctor --timeout 500
  $ svc-cli --json doctor`,
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runDoctor } = await loadRunPath('doctor-run', () => import('./doctor-run.js'));
        return runDoctor(ctx, givenFlags(cmd));
      }),
    );
}
