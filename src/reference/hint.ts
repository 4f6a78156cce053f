/**
 * The one `svc-cli explain ...` line an error or a contract issue prints. Plain strings only:
 * the error renderer is on the start-up path and must not load the schemas.
 */
import type { ContractIssue } from '../contract/types.js';

/**
 * Rules about how a value is read rather than about one field: the rule explains best. The
 * guards (a `__proto__` key, nesting past 64 levels) sit at paths no kind has a field for.
 */
const POLICY_CODES = new Set([
  'type_drift',
  'null_optional',
  'unknown_field',
  'text_cut',
  'timestamp_ms',
  'ignored_type',
  'forbidden_key',
  'too_deep',
]);

/**
 * The explain command that helps with an issue: the rule for a policy (drift, null, unknown
 * fields, ...), else the field of the kind, else the section.
 * @example explainCommandFor({ path: 'sender.id', code: 'empty', ... }, 'channel.customer.text')
 */
export function explainCommandFor(
  // a code as printed, a warning's `warn:` prefix included
  issue: { readonly code: string } & Pick<ContractIssue, 'path' | 'spec'>,
  kind?: string,
): string {
  const code = issue.code.replace(/^warn:/, '');
  if (POLICY_CODES.has(code)) return `svc-cli explain ${code}`;
  const path = issue.path.replace(/\[\d*\]/g, '');
  if (kind !== undefined && /^(channel|bot|hook|widget)\./.test(kind) && path !== '')
    return `svc-cli explain ${kind} ${path}`;
  return issue.spec === '' ? `svc-cli explain ${code}` : `svc-cli explain ${issue.spec}`;
}

/** The explain command for an error code of the catalogue. */
export const explainCommandForError = (code: string): string => `svc-cli explain ${code}`;
