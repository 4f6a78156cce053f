import { compiledExports } from '../compiled.js';
import { validateOptions } from './validate-options.js';
import { defineCommand } from './spec.js';
import type * as ValidateRun from './validate-run.js';

type ValidateRunModule = typeof ValidateRun;
/**
 * The bundled run path (`npm run build`: one module to load, with the option
 * resolver, the output, zod and the contract, not ~140, and its code cache), else the sources.
 * Lazy: --help must not load zod (start-up is a feature).
 */
async function loadValidateRun(): Promise<ValidateRunModule> {
  const bundled = compiledExports<ValidateRunModule>(
    new URL('./validate-run.bundle.cjs', import.meta.url),
  );
  return bundled ?? import('./validate-run.js'); // tests on the sources: no bundle
}

/** `svc-cli validate`: flags -> options -> core (imported lazily) -> render. */
export const validateCommand = defineCommand({
  name: 'validate',
  description: 'validate payloads against the contract (files, folders, globs, stdin, NDJSON)',
  arguments: [
    {
      name: 'inputs',
      optional: true,
      variadic: true,
      description: 'files, folders (recursive), globs, or - for stdin',
      default: ['-'],
    },
  ],
  options: validateOptions,
  helpAfter: `
Inputs: .json files hold one payload; .ndjson/.jsonl files and stdin with several lines
hold one payload per line (streamed). A JSON document over 10 MB is refused.

Who wrote it decides how strict (docs/FIDELITY.md): what an integrator, bot provider or
hook receiver writes is held to the spec's types (file_size "48213", a numeric sender.id:
errors); what the platform writes may carry the drift its public samples show (numeric
ids, string agent.id, null optional fields): warnings, errors with --strict. The spec's
own dual forms (timestamp number or string, numeric button id) stay valid.
In the simulator only a missing or mistyped required field, or an empty sender.id
(spec 2.1), blocks a customer message; an invalid optional field is left out and the
message delivered. An empty text is valid: the spec sets no minimum length.
The public Bot API's CHAT_CLOSED and CLIENT_INFO (not in spec 6.1) are known kinds; the
simulator uses them with platform --bot-events docs.

Examples:
  $ svc-cli validate fixtures/payloads/real
  $ svc-cli validate 'fixtures/**/*.invalid.json' --json
  $ svc-cli validate --kind channel.customer.text body.json --strict
  $ cat traffic.ndjson | svc-cli validate -
  $ svc-cli validate fixtures/payloads --check-expectations`,
  run: {
    path: 'validate-run',
    load: loadValidateRun,
    call: (m, ctx, { args, flags }) => m.runValidate(ctx, args.inputs, flags),
  },
});
