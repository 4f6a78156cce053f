import { formatIssue } from '../../contract/issues.js';
import type { ValidationResult } from '../../contract/types.js';

/** A verdict as the journal stores it: issues flattened to `path: rule (spec X)` lines. */
export interface RecordedVerdict {
  ok: boolean;
  errors: string[];
  warnings: string[];
}

/** @example toRecordedVerdict(result) // { ok: false, errors: ['sender.id: required ... (spec 2.1)'], warnings: [] } */
export function toRecordedVerdict(result: ValidationResult): RecordedVerdict {
  return {
    ok: result.ok,
    errors: result.errors.map(formatIssue),
    warnings: result.warnings.map(formatIssue),
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
