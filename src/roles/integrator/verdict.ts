import type { ContractIssue, ValidationResult } from '../../contract/types.js';

/** A verdict as the journal stores it: issues flattened to `path: rule (spec X)` lines. */
export interface RecordedVerdict {
  ok: boolean;
  errors: string[];
  warnings: string[];
}

/** One issue as a journal line; the CLI renders issues itself (src/cli/render). */
export function issueLine(issue: ContractIssue): string {
  return `${issue.path || '(root)'}: ${issue.rule} (spec ${issue.spec})`;
}

/** @example toRecordedVerdict(result) // { ok: false, errors: ['sender.id: required ... (spec 2.1)'], warnings: [] } */
export function toRecordedVerdict(result: ValidationResult): RecordedVerdict {
  return {
    ok: result.ok,
    errors: result.errors.map(issueLine),
    warnings: result.warnings.map(issueLine),
  };
}

/** A verdict for a body that is no channel kind at all. */
export function unknownKindVerdict(kind: string, spec: string, rule: string): ValidationResult {
  return {
    kind,
    ok: false,
    errors: [{ path: 'message.type', code: 'unknown_kind', rule, spec, severity: 'error' }],
    warnings: [],
  };
}
