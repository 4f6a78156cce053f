/** zod's own messages in svc-cli's words; a schema's own message kept. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inWords, issueLine } from '../../src/issue-words.js';

const firstIssue = (schema: z.ZodType, value: unknown): z.core.$ZodIssue => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a failure');
  return parsed.error.issues[0]!;
};

describe('inWords', () => {
  it('says a wrong type as the type it must be and the type sent', () => {
    const shape = z.object({ customer: z.object({ text: z.string() }) });
    expect(issueLine(firstIssue(shape, { customer: 'hello' }))).toBe(
      'customer: must be an object, not a string',
    );
    expect(issueLine(firstIssue(shape, { customer: { text: 5 } }))).toBe(
      'customer.text: must be a string, not a number',
    );
    expect(issueLine(firstIssue(shape, { customer: null }))).toBe(
      'customer: must be an object, not null',
    );
    expect(issueLine(firstIssue(shape, {}))).toBe('customer: required (an object)');
    expect(issueLine(firstIssue(shape, []), '(body)')).toBe(
      '(body): must be an object, not an array',
    );
  });

  it('says a bound, an enum and an empty string as the rule they break', () => {
    expect(inWords(firstIssue(z.number().max(1), 2))).toBe('must be at most 1');
    expect(inWords(firstIssue(z.number().min(0), -1))).toBe('must be at least 0');
    expect(inWords(firstIssue(z.string().min(1), ''))).toBe('must not be empty');
    expect(inWords(firstIssue(z.enum(['end', 'error']), 'x'))).toBe(
      'must be one of "end", "error"',
    );
    expect(inWords(firstIssue(z.array(z.string()).max(2), ['a', 'b', 'c']))).toBe(
      'at most 2 items',
    );
  });

  it("keeps a schema's own message", () => {
    const duration = z.union([z.number(), z.string().regex(/^\d+s$/)], {
      error: 'a duration: ms or "2s"',
    });
    expect(inWords(firstIssue(duration, true))).toBe('a duration: ms or "2s"');
  });
});
