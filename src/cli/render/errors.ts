/**
 * The error renderer. It is part of the start-up bundle, not imported when an error happens:
 * an error may be that no file can be opened (too many open files), and loading a module then
 * would fail too and end in Node's stack trace. So it holds no chalk (plain ANSI codes) and
 * imports nothing that is not loaded at start.
 */
import type { ContractIssue } from '../../contract/types.js';
import type { SvcError } from '../../errors.js';
import type { CliContext } from '../context.js';
import { colorEnabled } from './color.js';
import { fitFor } from './fit.js';
import { escapeControlChars } from './control-chars.js';
import { explainCommandFor, explainCommandForError } from '../../reference/hint.js';

/** Contract issues an error carries in `details.issues` (e.g. an invalid payload). */
function issuesOf(error: SvcError): ContractIssue[] {
  const details = error.details as { issues?: unknown } | undefined;
  return Array.isArray(details?.issues) ? (details.issues as ContractIssue[]) : [];
}

/** `path: rule (spec X)`, as render/exchange.ts prints an issue. */
function issueLine(issue: ContractIssue): string {
  const where = issue.path === '' ? '(root)' : issue.path;
  return issue.spec === ''
    ? `${where}: ${issue.rule}`
    : `${where}: ${issue.rule} (spec ${issue.spec})`;
}

/** The kind the issues were found in, when the error says (`details.kind`). */
function kindOf(error: SvcError): string | undefined {
  const details = error.details as { kind?: unknown } | undefined;
  return typeof details?.kind === 'string' ? details.kind : undefined;
}

/**
 * The one `svc-cli explain ...` that helps most: the first contract issue's field or rule,
 * else the error code.
 */
export function explainLineFor(error: SvcError): string {
  const [first] = issuesOf(error).filter((i) => i.severity === 'error');
  return first === undefined
    ? explainCommandForError(error.code)
    : explainCommandFor(first, kindOf(error));
}

/**
 * Prints an error: one line, its contract issues as `path: rule (spec X)`, a hint and the
 * explain command that helps on stderr (as rustc --explain); or an NDJSON `error` object
 * (with `issues`) on stdout with --json.
 */
export function printError(ctx: CliContext, error: SvcError, options: { json: boolean }): void {
  const issues = issuesOf(error);
  if (options.json) {
    const object = issues.length > 0 ? { ...error.toJSON(), issues } : error.toJSON();
    ctx.stdout.write(`${JSON.stringify(object)}\n`);
    return;
  }
  const on = colorEnabled(ctx, ctx.stderr);
  const paint = (code: number, close: number) => (text: string) =>
    on ? `\u001b[${code}m${text}\u001b[${close}m` : text;
  const red = paint(31, 39);
  const yellow = paint(33, 39);
  const dim = paint(2, 22);
  // in a terminal, a line longer than it breaks at spaces, indented (fit.ts)
  const fit = fitFor(ctx.stderr);
  const write = (line: string) => ctx.stderr.write(`${fit(line)}\n`);
  // a message may quote what a peer answered: its control characters are escaped
  const shown = escapeControlChars;
  write(`${red('error')} ${dim(`[${error.code}]`)} ${shown(error.message)}`);
  for (const issue of issues) {
    const mark = issue.severity === 'warning' ? yellow('!') : red('✗');
    write(`  ${mark} ${shown(issueLine(issue))}`);
  }
  if (error.hint) write(`  ${dim(shown(error.hint))}`);
  write(`  ${dim(`more: ${explainLineFor(error)}`)}`);
}

/**
 * An error in one line on stderr (`error [CODE] message hint`), or its NDJSON object there with
 * --json: for a fault of stdout itself (main.ts), where stdout can no longer carry it.
 */
export function printErrorLine(ctx: CliContext, error: SvcError, options: { json: boolean }): void {
  if (options.json) {
    ctx.stderr.write(`${JSON.stringify(error.toJSON())}\n`);
    return;
  }
  const on = colorEnabled(ctx, ctx.stderr);
  const head = on
    ? `\u001b[31merror\u001b[39m \u001b[2m[${error.code}]\u001b[22m`
    : `error [${error.code}]`;
  ctx.stderr.write(
    `${fitFor(ctx.stderr)(`${head} ${error.message}${error.hint ? ` ${error.hint}` : ''}`)}\n`,
  );
}
