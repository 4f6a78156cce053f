import { detectKind } from '../../contract/detect.js';
import { validate } from '../../contract/validate.js';
import type { ValidateOptions, ValidationResult } from '../../contract/types.js';

/**
 * Validates `value` as a contract kind (zod schemas of src/contract).
 * @example checkKind('channel.customer.text', payload).ok
 */
export function checkKind(
  kind: string,
  value: unknown,
  options: ValidateOptions = {},
): ValidationResult {
  return validate(kind, value, options);
}

/**
 * The kind of a value, detected from its shape; undefined when it is none the contract knows.
 * @example detectChannelKind({ recipient: { id: 'c1' }, message: { type: 'text', text: 'hi' } }) // 'channel.agent.text'
 */
export function detectChannelKind(value: unknown): string | undefined {
  return detectKind(value).kind;
}
