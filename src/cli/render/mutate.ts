/** What `svc-cli mutate` writes besides the terminal: JUnit XML. */
import type { MutationReport } from '../../mutate/run.js';
import { escapeXml } from './reporters/junit.js';

/**
 * JUnit XML for a mutation run: one test case per mutant (classname its family), so CI lists
 * them. A survivor is a failure whose message says what the suite does not check; a mutant the
 * recorded run never exercised is skipped; killed and timed out pass. The score and counts are
 * properties, and `--min-score`, when given, is one more test case: the gate (its minimum a
 * property and in the failure's message, not in the case's name, which stays the same).
 * @example writeFileSync('mutants.xml', mutationJunit(report, 80));
 */
export function mutationJunit(report: MutationReport, minScore: number | undefined): string {
  const props: Array<[string, string]> = [
    ['mutation.score', String(report.score)],
    ['mutation.killed', String(report.killed)],
    ['mutation.timedOut', String(report.timedOut)],
    ['mutation.survived', String(report.survived)],
    ['mutation.notExercised', String(report.notExercised)],
    ['mutation.cleanWallMs', String(report.clean.wallMs)],
    ...(minScore === undefined
      ? []
      : [['mutation.minScore', String(minScore)] as [string, string]]),
  ];
  const cases = report.results.map((r) => {
    const body =
      r.outcome === 'survived'
        ? `\n      <failure message="${escapeXml(r.survivor)}" type="MutantSurvived">${escapeXml(`the simulator ${r.deviation}, and the tests passed`)}</failure>\n    `
        : r.outcome === 'not-exercised'
          ? `\n      <skipped message="never exercised by the recorded run: not run"/>\n    `
          : r.outcome === 'timeout'
            ? `\n      <system-out>timed out: counted as killed</system-out>\n    `
            : '';
    return `    <testcase name="${escapeXml(`${r.name} (spec ${r.spec})`)}" classname="svc-cli mutate.${escapeXml(r.family)}" time="${(r.wallMs / 1000).toFixed(3)}">${body}</testcase>`;
  });
  const below = minScore !== undefined && report.score < minScore;
  if (minScore !== undefined)
    cases.push(
      // one name whatever the minimum: a CI keeps a test's history by classname and name
      `    <testcase name="mutation score" classname="svc-cli mutate">${below ? `\n      <failure message="${escapeXml(`mutation score ${report.score}% is below ${minScore}%`)}" type="MutationScoreBelowMinimum"/>\n    ` : ''}</testcase>`,
    );
  const failures = report.survived + (below ? 1 : 0);
  const time = (report.results.reduce((sum, r) => sum + r.wallMs, 0) / 1000).toFixed(3);
  const head = `tests="${cases.length}" failures="${failures}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="svc-cli mutate" ${head} time="${time}">
  <testsuite name="svc-cli mutate" ${head} errors="0" skipped="${report.notExercised}" time="${time}">
    <properties>
${props.map(([k, v]) => `      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`).join('\n')}
    </properties>
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
