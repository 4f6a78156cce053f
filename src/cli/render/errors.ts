import type { ContractIssue } from '../../contract/types.js';
import type { SvcError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { formatIssueLine } from './exchange.js';
import { makeChalk } from './style.js';

/** Contract issues an error carries in `details.issues` (e.g. an invalid payload). */
function issuesOf(error: SvcError): ContractIssue[] {
  const details = error.details as { issues?: unknown } | undefined;
  return Array.isArray(details?.issues) ? (details.issues as ContractIssue[]) : [];
}

/**
 * Prints an error: one line, its contract issues as `path: rule (spec X)`, and a hint on
 * stderr; or an NDJSON `error` object (with `issues`) on stdout with --json.
 */
export function printError(ctx: CliContext, error: SvcError, options: { json: boolean }): void {
  const issues = issuesOf(error);
  if (options.json) {
    const object = issues.length > 0 ? { ...error.toJSON(), issues } : error.toJSON();
    ctx.stdout.write(`${JSON.stringify(object)}\n`);
    return;
  }
  const c = makeChalk(ctx, ctx.stderr);
  ctx.stderr.write(`${c.red('error')} ${c.dim(`[${error.code}]`)} ${error.message}\n`);
  for (const issue of issues) {
    const mark = issue.severity === 'warning' ? c.yellow('!') : c.red('✗');
    ctx.stderr.write(`  ${mark} ${formatIssueLine(issue)}\n`);
  }
  if (error.hint) ctx.stderr.write(`  ${c.dim(error.hint)}\n`);
}
