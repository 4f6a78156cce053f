/**
 * An integrator's run exercises the channel and nothing of the bot or the hooks, and its
 * overall figure counts all three: the table says how to gate on what the run exercised.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { CoverageGroup, CoverageReport } from '../../../src/coverage/index.js';
import { formatCoverage } from '../../../src/cli/render/coverage.js';

const group = (iface: CoverageGroup['iface'], covered: number, counted = true): CoverageGroup => ({
  iface,
  name: iface,
  counted,
  covered,
  total: 100,
  percent: covered,
  categories: [],
});

const reportOf = (groups: CoverageGroup[]): CoverageReport => ({
  records: 12,
  groups,
  overall: { covered: 23, total: 300, percent: 7.6 },
  items: [],
});

const chalk = new Chalk({ level: 0 });

describe('coverage: the gate hint', () => {
  it('names the interfaces nothing was exercised of and the --interface that gates on the rest', () => {
    const lines = formatCoverage(
      reportOf([group('A', 23), group('B', 0), group('C', 0, false), group('D', 0)]),
      chalk,
      { files: 1 },
    );
    expect(lines.at(-1)).toBe(
      'nothing of B, D was exercised: a party that faces only A gates on it with --interface A',
    );
  });

  it('says nothing when --interface was given, or every counted interface was exercised', () => {
    const integrator = reportOf([group('A', 23), group('B', 0), group('D', 0)]);
    expect(formatCoverage(integrator, chalk, { files: 1, gated: true }).at(-1)).toMatch(/^overall/);
    const all = reportOf([group('A', 23), group('B', 4), group('D', 9)]);
    expect(formatCoverage(all, chalk, { files: 1 }).at(-1)).toMatch(/^overall/);
  });
});
