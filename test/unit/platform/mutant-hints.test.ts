/**
 * The survivor hints of the mutant catalogue: a survivor's line is read as what to do next, so
 * it names the assertion that would kill the mutant, never a question a correct app answers
 * "yes" to and still survives; a mutant a tolerant app survives says so.
 */
import { describe, expect, it } from 'vitest';
import { MUTANTS } from '../../../src/platform/mutants.js';

/** mutants an app that is robust to the deviation survives: surviving is no gap there */
const TOLERATED = [
  'duplicate-agent-message',
  'flip-chunked',
  'numeric-message-ids',
  'drop-agent-name',
  'drop-agent-photo',
  'numeric-bot-ids',
  'millisecond-timestamps',
  'customer-500-once',
  'bot-429-once',
  'offline-messages-spelling',
];

describe('mutant survivor hints', () => {
  it.each(MUTANTS.map((m) => [m.name, m.survivor] as const))(
    '%s says what assertion would kill it, briefly',
    (_name, survivor) => {
      expect(survivor).toMatch(/: to kill it, [a-z]/);
      // "does your code de-duplicate?": a correct app answers yes and the mutant still survives
      expect(survivor).not.toMatch(/\b(do|does|would) (your|they|a test|anything)\b/);
      expect(survivor.length).toBeLessThanOrEqual(220);
    },
  );

  it.each(TOLERATED)('%s says surviving can mean the code already tolerates it', (name) => {
    expect(MUTANTS.find((m) => m.name === name)?.survivor).toMatch(/already tolerates/);
  });

  it('names only mutants of the catalogue as tolerated', () => {
    const names = new Set<string>(MUTANTS.map((m) => m.name));
    expect(TOLERATED.filter((n) => !names.has(n))).toEqual([]);
  });
});
