/**
 * zod issues in svc-cli's words: the rule a value breaks (`must be an object`, `must be at most
 * 1`), where zod wrote the message itself. The contract's issues (`src/contract/issues.ts`) and
 * every file or body svc-cli reads (a fixture, a fault plan, a bot script, a control body) say
 * a problem this one way. Imports nothing at run time: every layer may use it.
 */
import type { z } from 'zod';
import { plural } from './plural.js';

type RawIssue = z.core.$ZodRawIssue;

function expectedWords(expected: unknown): string {
  switch (expected) {
    case 'int':
      return 'must be an integer';
    case 'string':
    case 'number':
    case 'boolean':
      return `must be a ${expected}`;
    case 'object':
    case 'array':
      return `must be an ${expected}`;
    default:
      return `must be ${String(expected)}`;
  }
}

/**
 * The rule a zod issue breaks, in words.
 * @example ruleWords({ code: 'too_big', origin: 'number', maximum: 1, input: 2 }) // 'must be at most 1'
 */
export function ruleWords(issue: RawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'required' : expectedWords(issue.expected);
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'must not be empty';
      if (issue.origin === 'array')
        return `needs at least ${plural(Number(issue.minimum), 'item')}`;
      return `must be at least ${String(issue.minimum)}`;
    case 'too_big':
      if (issue.origin === 'array') return `at most ${plural(Number(issue.maximum), 'item')}`;
      return `must be at most ${String(issue.maximum)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return `must match the ${issue.format} format`;
    case 'invalid_union':
      return 'matches none of the allowed shapes';
    case 'custom':
    case 'invalid_element':
    case 'invalid_key':
    case 'not_multiple_of':
    case 'unrecognized_keys':
    case undefined:
      return 'is invalid';
  }
}

/** How zod's own English messages begin; a schema's `error` of its own never does. */
const ZOD_WORDS =
  /^(Invalid input|Invalid option|Invalid string|Invalid number|Invalid key|Invalid element|Invalid value|Too big|Too small)\b/;

/** `a string`, `an object`, `null` */
const article = (type: string): string =>
  type === 'null' ? type : /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;

/**
 * An issue zod reported, in these words where zod wrote the message itself: `Invalid input:
 * expected object, received string` -> `must be an object, not a string`, `Too big: expected
 * number to be <=1` -> `must be at most 1`. A message a schema gave (a duration's `ms or "2s"`)
 * is kept.
 */
export function inWords(issue: { code?: string; message: string }): string {
  if (!ZOD_WORDS.test(issue.message)) return issue.message;
  // a reported issue no longer holds its input: what was received is read from the message
  const received = /received (\w+)$/.exec(issue.message)?.[1];
  const raw = { ...issue, input: received === 'undefined' ? undefined : received };
  if (issue.code !== 'invalid_type') return ruleWords(raw as unknown as RawIssue);
  if (received === 'undefined') {
    // a field left out: what it takes, as a person fills it in
    const expected = /expected (\w+)/.exec(issue.message)?.[1];
    return expected === undefined
      ? 'required'
      : `required (${article(expected === 'int' ? 'integer' : expected)})`;
  }
  const rule = ruleWords({ ...raw, input: received ?? '' } as unknown as RawIssue);
  return received === undefined ? rule : `${rule}, not ${article(received)}`;
}

/**
 * One problem of a file or body svc-cli reads, as `path: words`, `root` naming the whole value.
 * @example issueLine({ path: ['steps', 0, 'customer'], code: 'invalid_type', message: 'Invalid input: expected object, received string' }) // 'steps.0.customer: must be an object, not a string'
 */
export function issueLine(
  issue: { path: readonly PropertyKey[]; code?: string; message: string },
  root = '(root)',
): string {
  return `${issue.path.map(String).join('.') || root}: ${inWords(issue)}`;
}
