import { defineCommand } from './spec.js';
import { mutateOptions } from './mutate-options.js';

/** `svc-cli mutate -- <test command>`: would your tests notice the platform misbehaving? */
export const mutateCommand = defineCommand({
  name: 'mutate',
  description:
    'run your test command against simulator mutants (named deviations from the contract): which would your tests not notice?',
  arguments: [
    { name: 'command', optional: true, variadic: true, description: 'your test command, after --' },
  ],
  options: mutateOptions,
  helpAfter: `
The command runs once against the clean simulator (it must pass), then once per mutant with
SVC_MUTANT set: every simulator it starts (svc-cli platform, replay, the msw handlers) runs
that mutant. A failing run kills the mutant; a passing one is a survivor, printed with what
your tests do not check. The score is killed (and timed out) over all run.
svc-cli mutate --list prints the catalogue (docs/CONTRACT.md has it too, under
Simulator mutants); docs/coverage.md says how to read a run.

Examples:
  $ svc-cli mutate --list
  $ svc-cli mutate -- npm test
  $ svc-cli mutate --only redelivery,hooks -- npx vitest run test/integration
  $ svc-cli mutate --skip 6.2 --jobs 2 --min-score 80 -- ./run-tests.sh
  $ svc-cli mutate --coverage run.ndjson --junit mutants.xml --report mutants.html -- npm test
  $ svc-cli --json mutate -- pytest -q`,
  run: {
    path: 'mutate-run',
    sources: () => import('./mutate-run.js'),
    call: (m, ctx, { args, flags }) => m.runMutate(ctx, args.command, flags),
  },
});
