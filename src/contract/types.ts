/**
 * Validation results as data: only src/cli/render formats them.
 */
import type { RuleCode } from './rule-codes.js';

export type Severity = 'error' | 'warning';

/**
 * Why an input could not be read at all (`validate` on a file, stdin or a folder): no rule of
 * the contract, so not in the rule catalogue; `validate` reports it as its result's one issue.
 */
export type UnreadableCode =
  | 'binary'
  | 'empty'
  | 'too_large'
  | 'not_json'
  | 'no_stdin'
  | 'no_match'
  | 'not_found'
  | 'no_access'
  | 'is_folder'
  | 'read_failed';

export interface ContractIssue {
  /** JSON path with dots and [i], '' for the root: `message.text`, `buttons[3]` */
  path: string;
  /** Stable machine code from the rule catalogue (rule-codes.ts): `required`, `not_http_url` ... */
  code: RuleCode | UnreadableCode;
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

/** The four interfaces of the spec: channel, bot, page script, hooks. */
export type InterfaceId = 'A' | 'B' | 'C' | 'D';

/** One payload kind, as `listKinds()` and `svc-cli schema --list` show it. */
export interface KindInfo {
  /** Stable dotted name: `channel.customer.text`, `bot.event.CLIENT_MESSAGE`, ... */
  name: string;
  interface: InterfaceId;
  /** Spec section of the payload: `2.1` */
  spec: string;
  /** Who sends it to whom: `integrator -> platform` */
  direction: string;
  /** One line. */
  description: string;
}

/** What `detectKind` found: a kind, or why not (with the candidates when ambiguous). */
export type DetectResult =
  | { kind: string }
  | {
      kind?: undefined;
      ambiguous?: string[];
      reason: string;
      /** a file of another sort (a conversation fixture): no --kind would make it a payload */
      notPayload?: true;
    };
