import type { ConversationResult } from '../../../conversation/runner.js';

export const escapeXml = (text: string): string =>
  text
    .replace(
      /[<>&'"]/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
    )
    // XML 1.0 forbids most control characters, even escaped.
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/**
 * A result for the JUnit file; `interrupted`: a run the signal stopped before it finished;
 * `error`: a run that could not start (its peer unreachable), an <error> of that type.
 */
export type JunitResult = ConversationResult & {
  skipped?: string;
  interrupted?: string;
  error?: { message: string; type: string };
  /** a failure's type (default ConversationStepFailed) */
  failureType?: string;
};

/**
 * JUnit XML: one testcase per conversation, its steps in system-out (CI systems show them).
 * A run a signal stopped is an <error>, not a <skipped>: dashboards show errors in red and
 * count them against the suite, where skipped ones read as green.
 * @example writeFileSync('report.xml', toJunit('svc-cli replay', results));
 */
export function toJunit(
  suiteName: string,
  results: readonly JunitResult[],
  /** the suite's wall ms when its cases ran at once, not one after another (their sum) */
  suiteMs?: number,
  /** the suite's `<properties>` (replay's run id, for --run-id) */
  properties: Readonly<Record<string, string>> = {},
): string {
  const errors = results.filter((r) => r.interrupted !== undefined || r.error).length;
  const failures = results.filter((r) => !r.ok).length - errors;
  const skippedCount = results.filter((r) => r.skipped !== undefined).length;
  const time = ((suiteMs ?? results.reduce((sum, r) => sum + r.wallMs, 0)) / 1000).toFixed(3);
  const cases = results.map((r) => {
    const warnings = r.steps.flatMap((s) =>
      s.status === 'passed'
        ? s.details.filter((d) => d.startsWith('warning: ')).map((d) => `${s.name}: ${d}`)
        : [],
    );
    // a check that passed with a warning is marked `!`, as the terminal marks it, never `✓`
    const steps = r.steps
      .map(
        (s) =>
          `${s.status === 'passed' ? (s.details.some((d) => d.startsWith('warning: ')) ? '!' : '✓') : s.status === 'failed' ? '✗' : '-'} ${s.name} [${(s.protocolMs / 1000).toFixed(3)}s]${s.details.map((d) => `\n    ${d}`).join('')}`,
      )
      .join('\n');
    const failed = r.steps.find((s) => s.status === 'failed');
    const failure = r.interrupted
      ? `\n      <error message="${escapeXml(r.interrupted)}" type="Interrupted"/>`
      : r.error
        ? `\n      <error message="${escapeXml(r.error.message)}" type="${escapeXml(r.error.type)}"/>`
        : failed
          ? `\n      <failure message="${escapeXml(`${failed.name}: ${failed.details[0] ?? 'failed'}`)}" type="${escapeXml(r.failureType ?? 'ConversationStepFailed')}">${escapeXml(failed.details.join('\n'))}</failure>`
          : r.skipped !== undefined
            ? `\n      <skipped message="${escapeXml(r.skipped)}"/>`
            : '';
    // JUnit has no warning: a passing testcase with a `warning` property each (as pytest's
    // record_property writes them), beside its steps in system-out with `!` marks
    const warned =
      warnings.length === 0
        ? ''
        : `\n      <properties>\n${warnings.map((w) => `        <property name="warning" value="${escapeXml(w)}"/>`).join('\n')}\n      </properties>`;
    return `    <testcase name="${escapeXml(r.name)}" classname="${escapeXml(r.file ?? 'conversation')}" time="${(r.wallMs / 1000).toFixed(3)}">${warned}${failure}
      <system-out>${escapeXml(steps)}</system-out>
    </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="${escapeXml(suiteName)}" tests="${results.length}" failures="${failures}" errors="${errors}" time="${time}">
  <testsuite name="${escapeXml(suiteName)}" tests="${results.length}" failures="${failures}" errors="${errors}" skipped="${skippedCount}" time="${time}">
${propertiesXml(properties)}${cases.join('\n')}
  </testsuite>
</testsuites>
`;
}

/** `<properties>` with one `<property>` each, and its line end; nothing when there are none. */
function propertiesXml(properties: Readonly<Record<string, string>>): string {
  const entries = Object.entries(properties);
  if (entries.length === 0) return '';
  const lines = entries.map(
    ([name, value]) => `      <property name="${escapeXml(name)}" value="${escapeXml(value)}"/>`,
  );
  return `    <properties>\n${lines.join('\n')}\n    </properties>\n`;
}
