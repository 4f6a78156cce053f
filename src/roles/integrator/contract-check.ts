import * as contract from '../../contract/index.js';
import type { ValidateOptions, ValidationResult } from '../../contract/types.js';
import { detectChannelKindFallback, validateChannelFallback } from './fallback-rules.js';

/** The part of the contract API (branch `contract`, issue #2) the integrator side uses. */
interface ContractApi {
  validate(kind: string, value: unknown, options?: ValidateOptions): ValidationResult;
  detectKind(value: unknown): unknown;
}

const api = contract as unknown as Partial<ContractApi>;

/** True once src/contract exports the zod-backed `validate` (else the fallback rules run). */
export const usesContractSchemas = typeof api.validate === 'function';

/**
 * Validates `value` as a contract kind: the zod schemas when present, else the fallback rules.
 * @example checkKind('channel.customer.text', payload).ok
 */
export function checkKind(
  kind: string,
  value: unknown,
  options: ValidateOptions = {},
): ValidationResult {
  if (typeof api.validate === 'function') return api.validate(kind, value, options);
  return validateChannelFallback(kind, value, options.strict ?? false);
}

/**
 * The kind of a value, detected from its shape; undefined when it is none the contract knows.
 * @example detectChannelKind({ recipient: { id: 'c1' }, message: { type: 'text', text: 'hi' } }) // 'channel.agent.text'
 */
export function detectChannelKind(value: unknown): string | undefined {
  if (typeof api.detectKind === 'function') {
    const kind = api.detectKind(value);
    if (typeof kind === 'string') return kind;
    if (
      kind !== null &&
      typeof kind === 'object' &&
      typeof (kind as { kind?: unknown }).kind === 'string'
    ) {
      return (kind as { kind: string }).kind;
    }
    return undefined;
  }
  return detectChannelKindFallback(value);
}
