import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createFailureScanner, failureLineOf } from '../../../src/mutate/failure-line.js';

/** Outputs captured from real runs of a failing suite (vitest with colours forced). */
const captured = (name: string): string =>
  readFileSync(new URL(`outputs/${name}`, import.meta.url), 'utf8');

describe('the line under a killed mutant', () => {
  it.each([
    // an app's own error log before the failed test is not it, nor the Duration line
    ['vitest-assertion.txt', 'AssertionError: expected 2 to be 1 // Object.is equality'],
    ['vitest-crash.txt', 'SvcError: Could not find a chat with customer "c-1".'],
    ['pytest.txt', 'E       assert 2 == 1'],
    ['node-test-spec.txt', 'AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:'],
    ['node-test-tap.txt', 'Expected values to be strictly equal:'],
  ])('of %s is the failed assertion, not the summary', (file, line) => {
    expect(failureLineOf(captured(file))).toBe(line);
  });

  it("names the failed test when no line says why (jest's expect)", () => {
    const out =
      'PASS a.test.js\nFAIL b.test.js\n  ● delivers once\n\n    Expected: 1\n\nTests: 1 failed';
    expect(failureLineOf(out)).toBe('FAIL b.test.js');
  });

  it('takes the error of a run that crashed before any test, and nothing from a quiet one', () => {
    expect(failureLineOf('starting\nError: listen EADDRINUSE: address already in use\n')).toBe(
      'Error: listen EADDRINUSE: address already in use',
    );
    expect(failureLineOf('1 passed\nDuration 6.36s\n')).toBeUndefined();
  });

  it('finds the line across chunks, stdout and stderr apart', () => {
    const scanner = createFailureScanner();
    scanner.feed('stdout', ' × delivers on');
    scanner.feed('stderr', 'Asserti');
    scanner.feed('stdout', 'ce\n');
    scanner.feed('stderr', 'onError: expected 2 to be 1\n');
    scanner.feed('stdout', ' Duration 6.36s\n');
    expect(scanner.line()).toBe('AssertionError: expected 2 to be 1');
  });
});
