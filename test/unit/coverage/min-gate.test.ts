/** The --min gate of `svc-cli coverage` compares the exact ratio, and says it without contradiction. */
import { describe, expect, it } from 'vitest';
import { exactPercent, isBelowMin, type CoverageReport } from '../../../src/coverage/index.js';
import { belowMinMessage, coverageJunit } from '../../../src/cli/render/coverage.js';

/** 273/701 = 38.9443...%, which the table shows as 38.9% */
const figure = { covered: 273, total: 701, percent: 38.9 };
const report: CoverageReport = { records: 10, groups: [], overall: figure, items: [] };

describe('coverage --min', () => {
  it('compares the exact ratio, not the one-decimal figure', () => {
    expect(isBelowMin(figure, 38.94)).toBe(false);
    expect(isBelowMin(figure, 38.9443)).toBe(false);
    expect(isBelowMin(figure, 38.945)).toBe(true);
    expect(isBelowMin({ covered: 7, total: 10, percent: 70 }, 70)).toBe(false);
    expect(isBelowMin({ covered: 0, total: 0, percent: 0 }, 0)).toBe(false);
    expect(isBelowMin({ covered: 0, total: 0, percent: 0 }, 1)).toBe(true);
  });

  it('prints the figure to the minimum’s decimals, rounded down', () => {
    expect(exactPercent(figure, 0)).toBe('38.9');
    expect(exactPercent(figure, 3)).toBe('38.944');
    expect(belowMinMessage(figure, 38.945, '--min ')).toMatchInlineSnapshot(
      `"coverage 38.944% (273/701) is below --min 38.945%"`,
    );
    expect(belowMinMessage(figure, 99, '--min ')).toMatchInlineSnapshot(
      `"coverage 38.9% (273/701) is below --min 99%"`,
    );
  });

  it('JUnit: the gate passes at 38.94 and fails at 38.945 with the same words', () => {
    expect(coverageJunit(report, 38.94)).not.toContain('<failure');
    expect(coverageJunit(report, 38.945)).toContain(
      '<failure message="coverage 38.944% (273/701) is below 38.945%" type="CoverageBelowMinimum"/>',
    );
  });
});
