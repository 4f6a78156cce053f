import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import { action, givenFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addOptions } from '../options/register.js';
import { mutateOptions } from './tool-options.js';

/** `svc-cli mutate -- <test command>`: would your tests notice the platform misbehaving? */
export function registerMutate(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('mutate')
    .argument('[command...]', 'your test command, after --')
    .description(
      'run your test command against simulator mutants (named deviations from the contract): which would your tests not notice?',
    );
  addOptions(cmd, mutateOptions)
    .addHelpText(
      'after',
      `
The command runs once against the clean simulator (it must pass), then once per mutant with
SVC_MUTANT set: every simulator it starts (svc-cli platform, replay, the msw handlers) runs
that mutant. A failing run kills the mutant; a passing one is a survivor, printed with what
your tests do not check. The score is killed (and timed out) over all run.
docs/coverage.md has the catalogue.

Exit codes: 0 ok, 1 score below --min-score, 2 the clean run failed or a bad flag.

Examples:
  $ svc-cli mutate --list
  $ svc-cli mutate -- npm test
  $ svc-cli mutate --only redelivery,hooks -- npx vitest run test/integration
  $ svc-cli mutate --skip 6.2 --jobs 2 --min-score 80 -- ./run-tests.sh
  $ svc-cli mutate --coverage run.ndjson --junit mutants.xml --report mutants.html -- npm test
  $ svc-cli --json mutate -- pytest -q`,
    )
    .action(
      action(ctx, async (command: string[], _opts: unknown, cmd: Command) => {
        const { runMutate } = await loadRunPath('mutate-run', () => import('./mutate-run.js'));
        return runMutate(ctx, command, givenFlags(cmd));
      }),
    );
}
