import type { SvcError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { makeChalk } from './style.js';

/** Prints an error: one line (plus a hint) on stderr, or an NDJSON `error` object on stdout with --json. */
export function printError(ctx: CliContext, error: SvcError, options: { json: boolean }): void {
  if (options.json) {
    ctx.stdout.write(`${JSON.stringify(error.toJSON())}\n`);
    return;
  }
  const c = makeChalk(ctx, ctx.stderr);
  ctx.stderr.write(`${c.red('error')} ${c.dim(`[${error.code}]`)} ${error.message}\n`);
  if (error.hint) ctx.stderr.write(`  ${c.dim(error.hint)}\n`);
}
