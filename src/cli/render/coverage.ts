/** The coverage report as a table, and as JUnit properties. */
import type { ChalkInstance } from 'chalk';
import { exactPercent, isBelowMin } from '../../coverage/index.js';
import type { CoverageFigure, CoverageReport } from '../../coverage/index.js';
import { escapeXml } from './reporters/junit.js';
import { plural } from '../../plural.js';

const pct = (p: number): string => `${p.toFixed(1)}%`.padStart(6);

/** One line per interface and category; the overall figure last. */
export function formatCoverage(
  report: CoverageReport,
  chalk: ChalkInstance,
  options: { uncovered?: boolean; files: number; gated?: boolean },
): string[] {
  const lines = [
    `contract coverage of ${plural(report.records, 'exchange')} (${plural(options.files, 'recording')})`,
    '',
  ];
  for (const group of report.groups) {
    const head = `${group.iface} ${group.name}`.padEnd(26);
    lines.push(
      group.counted
        ? chalk.bold(`${head}${pct(group.percent)}  ${group.covered}/${group.total}`)
        : chalk.dim(`${head}     -  not recorded (not counted)`),
    );
    if (!group.counted) continue;
    for (const c of group.categories) {
      lines.push(`  ${c.category.padEnd(24)}${pct(c.percent)}  ${c.covered}/${c.total}`);
      // under the category they belong to, not after the group's last one (which read as
      // that category's gaps: "flows 100.0%" over a list of media kinds)
      if (!options.uncovered) continue;
      const missed = report.items.filter(
        (i) => i.iface === group.iface && i.category === c.category && i.hits === 0,
      );
      for (const item of missed) lines.push(chalk.dim(`    - ${item.label} (spec ${item.spec})`));
    }
  }
  lines.push(
    '',
    chalk.bold(
      `${'overall'.padEnd(26)}${pct(report.overall.percent)}  ${report.overall.covered}/${report.overall.total}`,
    ),
  );
  const gate = gateHint(report);
  if (gate && !options.gated) lines.push(chalk.dim(gate));
  return lines;
}

/**
 * When the run exercised some interfaces and nothing at all of others, the overall figure
 * counts interfaces the user may never implement (an integrator's run has no bot or hooks):
 * says how to gate on the ones it did exercise.
 * @example gateHint(report) // 'nothing of B, D was exercised: a party that faces only A gates on it with --interface A'
 */
export function gateHint(report: CoverageReport): string | undefined {
  const counted = report.groups.filter((g) => g.counted);
  const touched = counted.filter((g) => g.covered > 0).map((g) => g.iface);
  const untouched = counted.filter((g) => g.covered === 0).map((g) => g.iface);
  if (touched.length === 0 || untouched.length === 0) return undefined;
  const only = touched.join(',');
  return `nothing of ${untouched.join(', ')} was exercised: a party that faces only ${touched.join(' and ')} gates on ${touched.length === 1 ? 'it' : 'them'} with --interface ${only}`;
}

/** Decimals a number is written with: `38.94` -> 2, `80` -> 0. */
const decimalsOf = (n: number): number => (String(n).split('.')[1] ?? '').length;

/**
 * What the --min gate says of a figure below it: the ratio to as many decimals as the minimum
 * (at least one), rounded down, and the counts, so it never reads equal to the minimum or above.
 * @example belowMinMessage({ covered: 273, total: 701, percent: 38.9 }, 38.945) // 'coverage 38.944% (273/701) is below 38.945%'
 */
export function belowMinMessage(figure: CoverageFigure, min: number, flag = ''): string {
  return `coverage ${exactPercent(figure, decimalsOf(min))}% (${figure.covered}/${figure.total}) is below ${flag}${min}%`;
}

/** JUnit XML: the figures as properties, one test case for the --min gate. */
export function coverageJunit(report: CoverageReport, min: number | undefined): string {
  const props: Array<[string, string]> = [
    ['coverage.records', String(report.records)],
    ['coverage.overall', String(report.overall.percent)],
    ['coverage.overall.covered', String(report.overall.covered)],
    ['coverage.overall.total', String(report.overall.total)],
  ];
  for (const g of report.groups) {
    if (!g.counted) continue;
    props.push([`coverage.${g.iface}`, String(g.percent)]);
    for (const c of g.categories)
      props.push([`coverage.${g.iface}.${c.category.replace(/ /g, '-')}`, String(c.percent)]);
  }
  const below = min !== undefined && isBelowMin(report.overall, min);
  if (min !== undefined) props.push(['coverage.min', String(min)]);
  // one name whatever the minimum: a CI keeps a test's history by classname and name
  const failure = below
    ? `\n      <failure message="${escapeXml(belowMinMessage(report.overall, min))}" type="CoverageBelowMinimum"/>`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="svc-cli coverage" tests="1" failures="${below ? 1 : 0}">
  <testsuite name="svc-cli coverage" tests="1" failures="${below ? 1 : 0}" errors="0" skipped="0">
    <properties>
${props.map(([k, v]) => `      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`).join('\n')}
    </properties>
    <testcase name="contract coverage" classname="svc-cli coverage">${failure}
    </testcase>
  </testsuite>
</testsuites>
`;
}
