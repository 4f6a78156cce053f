/** What `svc-cli mutate` writes besides the terminal: JUnit XML. */
import { scoreBelow, type MutationReport } from '../../mutate/run.js';
import { escapeXml } from './reporters/junit.js';
import { INTERRUPTED } from './run-entries.js';
import { plural } from '../../plural.js';

/**
 * What a run the signal stopped says of itself: how many mutants finished, how many did not.
 * @example interruptedCount(report) // '4 of 35 mutants finished, 31 did not run'
 */
export function interruptedCount(report: MutationReport): string {
  const notRun = report.unfinished?.length ?? 0;
  return `${report.results.length} of ${plural(report.results.length + notRun, 'mutant')} finished, ${notRun} did not run`;
}

/**
 * JUnit XML for a mutation run: one test case per mutant (classname its family), so CI lists
 * them. A survivor is a failure whose message says what the suite does not check; a mutant the
 * recorded run never exercised is skipped; killed and timed out pass. The score and counts are
 * properties, and `--min-score`, when given, is one more test case: the gate (its minimum a
 * property and in the failure's message, not in the case's name, which stays the same).
 * A run the signal stopped lists each mutant that did not finish as an `<error
 * type="Interrupted">` (docs/ci.md), as `conform` and `replay` do, and its gate is one too: a
 * score of the mutants that finished is no verdict.
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
    ...(report.unfinished === undefined
      ? []
      : [['mutation.interrupted', String(report.unfinished.length)] as [string, string]]),
  ];
  const cut =
    report.unfinished === undefined ? undefined : `${INTERRUPTED}: ${interruptedCount(report)}`;
  const cases = report.results.map((r) => {
    const body =
      r.outcome === 'survived'
        ? `\n      <failure message="${escapeXml(r.survivor)}" type="MutantSurvived">${escapeXml(`the simulator ${r.deviation}, and the tests passed`)}</failure>\n    `
        : r.outcome === 'not-exercised'
          ? `\n      <skipped message="never exercised by the recorded run: not run"/>\n    `
          : r.outcome === 'timeout'
            ? `\n      <system-out>timed out: counted as killed</system-out>\n    `
            : r.outcome === 'killed' && r.output !== undefined
              ? `\n      <system-out>${escapeXml(r.output)}</system-out>\n    `
              : '';
    return `    <testcase name="${escapeXml(`${r.name} (spec ${r.spec})`)}" classname="svc-cli mutate.${escapeXml(r.family)}" time="${(r.wallMs / 1000).toFixed(3)}">${body}</testcase>`;
  });
  // the name and classname a finished mutant's case has: a CI keeps its history by them
  for (const m of report.unfinished ?? [])
    cases.push(
      `    <testcase name="${escapeXml(`${m.name} (spec ${m.spec})`)}" classname="svc-cli mutate.${escapeXml(m.family)}" time="0.000">\n      <error message="${escapeXml(cut ?? INTERRUPTED)}" type="Interrupted"/>\n    </testcase>`,
    );
  const below = cut === undefined && minScore !== undefined && scoreBelow(report, minScore);
  const gate =
    cut !== undefined
      ? `\n      <error message="${escapeXml(cut)}" type="Interrupted"/>\n    `
      : below
        ? `\n      <failure message="${escapeXml(`mutation score ${report.score}% is below ${minScore}%`)}" type="MutationScoreBelowMinimum"/>\n    `
        : '';
  if (minScore !== undefined)
    cases.push(
      // one name whatever the minimum: a CI keeps a test's history by classname and name
      `    <testcase name="mutation score" classname="svc-cli mutate">${gate}</testcase>`,
    );
  const failures = report.survived + (below ? 1 : 0);
  const errors =
    (report.unfinished?.length ?? 0) + (cut !== undefined && minScore !== undefined ? 1 : 0);
  const time = (report.results.reduce((sum, r) => sum + r.wallMs, 0) / 1000).toFixed(3);
  const head = `tests="${cases.length}" failures="${failures}" errors="${errors}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="svc-cli mutate" ${head} time="${time}">
  <testsuite name="svc-cli mutate" ${head} skipped="${report.notExercised}" time="${time}">
    <properties>
${props.map(([k, v]) => `      <property name="${escapeXml(k)}" value="${escapeXml(v)}"/>`).join('\n')}
    </properties>
${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}
