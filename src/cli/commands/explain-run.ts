/** The body of `explain` (imported lazily): look the topic up, render it. */
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { renderExplanation } from '../render/explain.js';
import { createOutput } from '../render/output.js';
import { explainOptions } from './explain-options.js';
import { explain } from '../../reference/explain.js';

export function runExplain(
  ctx: CliContext,
  what: string[] | undefined,
  given: Record<string, unknown>,
): number {
  const { json } = resolveForCommand(ctx, explainOptions, given);
  const out = createOutput(ctx, { json });
  // a table as wide as the terminal allows; piped, 80 columns
  const width = (ctx.stdout as { columns?: number }).columns ?? 80;
  renderExplanation(out, explain(what ?? []), width);
  return 0;
}
