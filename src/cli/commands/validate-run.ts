/**
 * The body of `svc-cli validate`: options, then the contract's validation (core), then the
 * renderer. Bundled with everything it loads into validate-run.bundle.cjs (a git
 * hook validating one file pays for one module, not ~140).
 */
import { join } from 'node:path';
import { localOrShippedFixture } from '../../package-files.js';
import { validateInputBatches } from '../../contract/run-validate.js';
import { SvcError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { createOutput } from '../render/output.js';
import { renderValidateEvent } from '../render/validate.js';
import { validateOptions } from './validate-options.js';

/**
 * Validates the inputs and prints one line per payload and a summary; resolves to the exit code.
 * @example await runValidate(ctx, ['fixtures/payloads'], {}) // 0
 */
export async function runValidate(
  ctx: CliContext,
  inputs: string[],
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, validateOptions, given);
  if (inputs.length === 1 && inputs[0] === '-' && ctx.stdin.isTTY) {
    throw new SvcError(
      'SVC_E_NO_INPUT',
      'Could not validate: no input given and stdin is a terminal.',
      'Pass files, folders or globs, or pipe payloads: cat body.json | svc-cli validate -',
    );
  }
  // Output buffers stdout: one write per event-loop turn, not one per payload.
  const out = createOutput(ctx, { json: flags.json });
  let exitCode = 0;
  for await (const events of validateInputBatches({
    // `fixtures/...` of the examples: the shipped ones outside a clone
    inputs: inputs.map((input) => {
      const found = localOrShippedFixture(ctx.cwd, input);
      return found === join(ctx.cwd, input) ? input : found;
    }),
    cwd: ctx.cwd,
    stdin: ctx.stdin,
    strict: Boolean(flags.strict),
    checkExpectations: Boolean(flags.checkExpectations),
    ...(flags.kind === undefined ? {} : { kind: flags.kind }),
  })) {
    if (ctx.signal.aborted) break;
    for (const event of events) {
      renderValidateEvent(out, event);
      if (event.type === 'summary') exitCode = event.exitCode;
    }
    // a reader slower than the validation (`| jq`, `| less`): read on once it caught up
    const full = out.backpressure();
    if (full) await full;
  }
  await out.flush();
  return exitCode;
}
