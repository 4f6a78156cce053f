/**
 * Validation results as data (conventions.md 5): only src/cli/render formats them.
 */
export type Severity = 'error' | 'warning';

export interface ContractIssue {
  /** JSON path with dots and [i], '' for the root: `message.text`, `buttons[3]` */
  path: string;
  /** Stable machine code: `required`, `too_long`, `not_http_url`, `unknown_field`, `type_drift`, ... */
  code: string;
  /** Human rule: `required when type is "text"` */
  rule: string;
  /** Spec section the rule comes from: `2.1` */
  spec: string;
  severity: Severity;
}

export interface ValidationResult<T = unknown> {
  /** The kind the value was validated as. */
  kind: string;
  /** True when there are no errors (with `strict`, warnings count as errors). */
  ok: boolean;
  /** The parsed value when ok (unknown fields kept). */
  data?: T;
  errors: ContractIssue[];
  warnings: ContractIssue[];
}

export interface ValidateOptions {
  /** Warnings become errors (`--strict`). */
  strict?: boolean;
}
