/**
 * Human output of `validate`: one aligned line per payload (mark, kind, file[:line]), the
 * issues indented below it, and a summary line. --json prints the events as NDJSON.
 */
import type { ChalkInstance } from 'chalk';
import type { ContractIssue } from '../../contract/types.js';
import type {
  ValidateEvent,
  ValidateResultEvent,
  ValidateSummaryEvent,
} from '../../contract/run-validate.js';
import type { Output } from './output.js';
import { plural } from '../../plural.js';
import { explainCommandFor } from '../../reference/hint.js';

/** Wide enough for the longest kind name (`widget.callback.svc_onChangeState.args`). */
const KIND_WIDTH = 38;

/** What to do about an input that is not there; the source shows the path as given. */
const MISSING_HINT =
  'Check the path: a relative path is read from the folder svc-cli runs in. svc-cli validate takes payload files (.json, .ndjson) and folders of them.';

/** `path: rule (spec X)`; duplicated from contract/issues.ts so rendering loads no zod. */
export function formatIssueLine(issue: ContractIssue): string {
  const where = issue.path === '' ? '(root)' : issue.path;
  return issue.spec === ''
    ? `${where}: ${issue.rule}`
    : `${where}: ${issue.rule} (spec ${issue.spec})`;
}

function formatMark(event: ValidateResultEvent, c: ChalkInstance): string {
  switch (event.verdict) {
    case 'valid':
      return c.green('✓');
    case 'warning':
      return c.yellow('✓');
    case 'invalid':
      return c.red('✗');
    case 'unreadable':
      return c.red('!');
    default: {
      const never: never = event.verdict;
      return String(never);
    }
  }
}

export function formatResult(event: ValidateResultEvent, c: ChalkInstance): string {
  const where = event.line === undefined ? event.source : `${event.source}:${event.line}`;
  const kind = event.verdict === 'unreadable' ? 'unreadable' : event.kind;
  const lines = [`${formatMark(event, c)} ${c.cyan(kind.padEnd(KIND_WIDTH))} ${where}`];
  for (const issue of event.errors) {
    // An unreadable input has no JSON path: its reason stands alone.
    const text = event.verdict === 'unreadable' ? issue.rule : formatIssueLine(issue);
    lines.push(`    ${c.red('error  ')} ${text}`);
  }
  for (const issue of event.warnings)
    lines.push(`    ${c.yellow('warning')} ${formatIssueLine(issue)}`);
  // a name that is not there: the path is what to check, as it is given (the source)
  if (event.verdict === 'unreadable' && event.errors[0]?.code === 'not_found')
    lines.push(`    ${c.dim(MISSING_HINT)}`);
  // One line that helps with the first issue (the rest share its kind and most its rule).
  const first = event.verdict === 'unreadable' ? undefined : (event.errors[0] ?? event.warnings[0]);
  if (first !== undefined)
    lines.push(`    ${c.dim(`more: ${explainCommandFor(first, event.kind)}`)}`);
  if (event.mismatches !== undefined) {
    if (event.mismatches.length === 0) {
      lines[0] += c.dim(`  (expected ${event.expected ?? 'as sidecar says'}: met)`);
    } else {
      for (const m of event.mismatches) lines.push(`    ${c.magenta('UNMET  ')} ${m}`);
    }
  }
  return lines.join('\n');
}

export function formatSummary(event: ValidateSummaryEvent, c: ChalkInstance): string {
  const parts = [
    c.green(`${event.valid} valid`),
    c.yellow(`${event.warning} with warnings`),
    (event.invalid > 0 ? c.red : c.dim)(`${event.invalid} invalid`),
    (event.unreadable > 0 ? c.red : c.dim)(`${event.unreadable} unreadable`),
  ];
  // the count is of what the parts add up to: an unreadable input is one too (6 files, one
  // of them broken, read "5 payloads: 1 valid, 4 invalid, 1 unreadable")
  let line = `${plural(event.payloads + event.unreadable, 'payload')}: ${parts.join(', ')}`;
  if (event.checked !== undefined) {
    const unmet = event.unmet ?? 0;
    line +=
      unmet === 0
        ? `; ${c.green(`all ${event.checked} expectations met`)}`
        : `; ${c.red(`${unmet} of ${event.checked} expectations not met`)}`;
  }
  return line;
}

/** Renders one event of the validate core. */
export function renderValidateEvent(out: Output, event: ValidateEvent): void {
  out.event(
    event,
    (e, c) => {
      const typed = e;
      return typed.type === 'result' ? formatResult(typed, c) : formatSummary(typed, c);
    },
    validateEventJson,
  );
}

let lastSource = '';
let lastSourceJson = '""';
const kindJson = new Map<string, string>();

/**
 * JSON.stringify of a validate event, byte for byte; a plain result (no expectation) is
 * written from a template with its source and kind quoted once, not walked key by key: a 100k
 * line stream spent a tenth of its time in JSON.stringify. The template's keys are
 * in the order `run-validate.ts` sets them; a result with an expectation is stringified.
 */
export function validateEventJson(event: ValidateEvent): string {
  if (event.type !== 'result' || event.expected !== undefined || event.mismatches !== undefined)
    return JSON.stringify(event);
  if (event.source !== lastSource) {
    lastSource = event.source;
    lastSourceJson = JSON.stringify(event.source);
  }
  let kind = kindJson.get(event.kind);
  if (kind === undefined) {
    kind = JSON.stringify(event.kind);
    if (kindJson.size < 1000) kindJson.set(event.kind, kind);
  }
  const errors = event.errors.length === 0 ? '[]' : JSON.stringify(event.errors);
  const warnings = event.warnings.length === 0 ? '[]' : JSON.stringify(event.warnings);
  const line = event.line === undefined ? '' : `,"line":${event.line}`;
  return `{"type":"result","source":${lastSourceJson},"kind":${kind},"verdict":"${event.verdict}","errors":${errors},"warnings":${warnings}${line}}`;
}
