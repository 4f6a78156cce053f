/**
 * zod issues -> ContractIssues (issues as data, never a raw ZodError).
 * Rules tagged in rules.ts decode to their code, spec section and words; anything else
 * gets a generic description and the kind's spec section.
 */
import type { z } from 'zod';
import { nearAllowedValue } from '../suggest.js';
import { TAG_SEPARATOR, WARNING_PREFIX, describeIssue } from './rules.js';
import type { RuleCode } from './rule-codes.js';
import type { ContractIssue, ValidationResult } from './types.js';

type Issue = z.core.$ZodIssue;
type Segment = PropertyKey;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Formats a path the way users write it: `message.text`, `buttons[3]`, `''` for the root. */
export function formatPath(segments: readonly Segment[]): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else {
      const key = String(segment);
      if (IDENTIFIER.test(key)) out += out === '' ? key : `.${key}`;
      else out += `[${JSON.stringify(key)}]`;
    }
  }
  return out;
}

/**
 * One line per issue, the one message template of every violation:
 * `message.text: required when type is "text" (spec 2.1)`.
 */
export function formatIssue(issue: ContractIssue): string {
  const where = issue.path === '' ? '(root)' : issue.path;
  // Guards and detection failures come from svc-cli itself, not from a spec section.
  return issue.spec === ''
    ? `${where}: ${issue.rule}`
    : `${where}: ${issue.rule} (spec ${issue.spec})`;
}

/**
 * Why a payload is refused: its errors, then the fields sent that the spec does not name, with
 * their "did you mean" (a required field missing is often one sent under another name).
 * @example refusalText(validate('channel.customer.text', body)) // 'message.text: required ... (spec 2.1); sent but not in the spec: message.txt (did you mean text?)'
 */
export function refusalText(result: Pick<ValidationResult, 'errors' | 'warnings'>): string {
  const errors = result.errors.map(formatIssue).join('; ');
  const unknown = result.warnings
    .filter((issue) => issue.code === 'unknown_field')
    .map((issue) => {
      const meant = /did you mean ([^?]+)\?/.exec(issue.rule)?.[1];
      return meant === undefined ? issue.path : `${issue.path} (did you mean ${meant}?)`;
    });
  return unknown.length === 0
    ? errors
    : `${errors}; sent but not in the spec: ${unknown.join(', ')}`;
}

function decode(
  message: string,
): { code: RuleCode; spec: string; rule: string; warning: boolean } | undefined {
  const first = message.indexOf(TAG_SEPARATOR);
  if (first < 0) return undefined;
  const second = message.indexOf(TAG_SEPARATOR, first + 1);
  if (second < 0) return undefined;
  let code = message.slice(0, first);
  const warning = code.startsWith(WARNING_PREFIX);
  if (warning) code = code.slice(WARNING_PREFIX.length);
  // encoded by encodeRule, which takes a RuleCode only
  return {
    code: code as RuleCode,
    spec: message.slice(first + 1, second),
    rule: message.slice(second + 1),
    warning,
  };
}

/**
 * How far a value is from a union branch: an error on the branch's own fields (a missing
 * `result`) weighs more than one deeper down, and a warning hardly counts.
 */
function scoreBranch(issues: readonly Issue[]): number {
  let score = 0;
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') score += 1;
    else if (issue.code === 'custom' && decode(issue.message)?.warning) score += 1;
    else score += issue.path.length <= 1 ? 100 : 10;
  }
  return score;
}

/** Sorts zod issues into errors and warnings (appends to the arrays given). */
export function collectIssues(
  issues: readonly Issue[],
  base: readonly Segment[],
  defaultSpec: string,
  errors: ContractIssue[],
  warnings: ContractIssue[],
  /** the field an unknown key was likely meant to be, at the object `segments` names */
  meantField?: (segments: readonly Segment[], key: string) => string | undefined,
  /** the payload validated: a string one typo away from an allowed value is named */
  input?: unknown,
): void {
  for (const issue of issues) {
    const segments = base.length === 0 ? issue.path : [...base, ...issue.path];
    const tagged = decode(issue.message);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        // __proto__ is reported by the guard in validate.ts, once, as an error.
        if (key === '__proto__') continue;
        const meant = meantField?.(segments, key);
        warnings.push({
          path: formatPath([...segments, key]),
          code: 'unknown_field',
          rule: `not in the spec (allowed: real traffic carries extra fields)${meant === undefined ? '' : `; did you mean ${meant}?`}`,
          spec: tagged?.spec ?? defaultSpec,
          severity: 'warning',
        });
      }
      continue;
    }
    if (issue.code === 'invalid_union' && tagged === undefined && issue.errors.length > 0) {
      // Report the branch the value came closest to, not every branch.
      let best = issue.errors[0]!;
      let bestScore = scoreBranch(best);
      for (const branch of issue.errors) {
        const score = scoreBranch(branch);
        if (score < bestScore) {
          best = branch;
          bestScore = score;
        }
      }
      collectIssues(best, segments, defaultSpec, errors, warnings, meantField, input);
      continue;
    }
    const described = tagged ?? {
      ...describeIssue(issue as unknown as z.core.$ZodRawIssue),
      spec: defaultSpec,
      warning: false,
    };
    const target = described.warning ? warnings : errors;
    target.push({
      path: formatPath(segments),
      code: described.code,
      rule: `${described.rule}${meantValue(described.rule, input, segments)}`,
      spec: described.spec,
      severity: described.warning ? 'warning' : 'error',
    });
  }
}

/**
 * `; did you mean "error"?` for a string one or two letters from a value that
 * `must be one of "start", ..., "error"` allows (`"eror"`), as an unknown key gets its field;
 * empty for anything else.
 */
function meantValue(rule: string, input: unknown, segments: readonly Segment[]): string {
  const listed = /^must be one of (.+)$/.exec(rule)?.[1];
  if (listed === undefined) return '';
  const allowed = [...listed.matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  const near = nearAllowedValue(input, segments, allowed);
  return near === undefined ? '' : `; did you mean "${near}"?`;
}
