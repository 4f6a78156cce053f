/**
 * `mutate --min-score` is judged on the exact ratio: the score shown is floored to a tenth,
 * and a gate on that figure failed a run that met its minimum (2 of 3 is 66.67%, shown 66.6).
 */
import { describe, expect, it } from 'vitest';
import { mutationJunit } from '../../src/cli/render/mutate.js';
import { scoreBelow, type MutationReport } from '../../src/mutate/run.js';

const report: MutationReport = {
  clean: { wallMs: 10 },
  results: [],
  killed: 2,
  survived: 1,
  timedOut: 0,
  notExercised: 0,
  score: 66.6,
};

describe('mutate --min-score', () => {
  it('compares the exact ratio, not the figure floored to a tenth', () => {
    expect(scoreBelow(report, 66.65)).toBe(false);
    expect(scoreBelow(report, 66.67)).toBe(true);
    expect(scoreBelow({ killed: 0, timedOut: 0, survived: 0 }, 1)).toBe(true);
    expect(scoreBelow({ killed: 0, timedOut: 0, survived: 0 }, 0)).toBe(false);
  });

  it('passes the JUnit gate case of a run that met its minimum', () => {
    expect(mutationJunit(report, 66.65)).not.toContain('MutationScoreBelowMinimum');
    expect(mutationJunit(report, 66.67)).toContain('MutationScoreBelowMinimum');
  });
});
