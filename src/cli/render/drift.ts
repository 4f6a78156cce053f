/**
 * `record diff` output: a header naming the two sides, the differences grouped by severity
 * (behaviour first), and a summary line. --json: one `difference` object per difference,
 * then one `diff-summary`.
 */
import type {
  DiffResult,
  Difference,
  Severity,
  Unobservable,
} from '../../conversation/record/diff.js';
import { SEVERITIES } from '../../conversation/record/diff.js';
import { plural } from '../../plural.js';
import type { Output } from './output.js';

export interface DiffReport extends DiffResult {
  a: { file: string; records: number; kinds: number };
  b: { file: string; records: number; kinds: number };
  timingToleranceMs: number;
}

const TITLES: Record<Severity, string> = {
  behaviour: 'behaviour (what a peer sees happen)',
  shape: 'shape (fields, forms, Content-Type)',
  cosmetic: 'cosmetic',
};

/**
 * Whose doing a line is, in its tag: `platform`, the peer (`integrator`, `bot`, ...) or
 * `both`: a staging recording against the simulator's is read for the platform's lines, and a
 * difference in what the integrator answered is not the platform's.
 */
function byLabel(d: Difference): string {
  if (d.by === 'peer') return d.peer ?? 'peer';
  return d.by;
}

/** @example renderDiff(out, report) */
export function renderDiff(out: Output, report: DiffReport): void {
  const c = out.chalk;
  const side = (name: string, s: DiffReport['a']) =>
    `${name}: ${s.file} (${plural(s.records, 'exchange')}, ${plural(s.kinds, 'kind')})`;
  out.line(`${side('a', report.a)}\n${side('b', report.b)}`);
  for (const severity of SEVERITIES) {
    const group = report.differences.filter((d) => d.severity === severity);
    if (group.length === 0) continue;
    out.line(
      `\n${severity === 'behaviour' ? c.red(TITLES[severity]) : c.yellow(TITLES[severity])}`,
    );
    for (const d of group)
      out.event(
        { type: 'difference', ...d },
        (e: Difference & { type: string }) =>
          `  ${c.bold(e.kind)}  ${c.dim(`[${byLabel(e)}]`)}  ${e.detail}`,
      );
  }
  // what one side could not see is no drift: listed apart, not counted (a proxy channel
  // recording has no bot or hook traffic to set beside a replay's)
  if (report.unobservable.length > 0)
    out.line(`\n${c.dim('not compared (not recorded on one side)')}`);
  for (const u of report.unobservable) {
    const event = { type: 'not-observable', ...u, file: report[u.side].file };
    out.event(
      event,
      (e: Unobservable & { type: string; file: string }) =>
        `  not observable in ${e.side}: ${e.leg} was not recorded in ${e.file}: ${Object.entries(
          e.kinds,
        )
          .map(([kind, n]) => `${kind} x${n}`)
          .join(', ')}`,
    );
  }
  const { behaviour, shape, cosmetic } = report.counts;
  const byPlatform = report.differences.filter((d) => d.by === 'platform').length;
  const byPeers = report.differences.filter((d) => d.by === 'peer').length;
  out.event(
    {
      type: 'diff-summary',
      a: report.a,
      b: report.b,
      timingToleranceMs: report.timingToleranceMs,
      behaviour,
      shape,
      cosmetic,
      byPlatform,
      byPeers,
      notObservable: report.unobservable.reduce((n, u) => n + Object.keys(u.kinds).length, 0),
    },
    () =>
      behaviour + shape + cosmetic === 0
        ? `\n${c.green('no differences')}`
        : `\n${plural(behaviour + shape + cosmetic, 'difference')}: ${behaviour} behaviour, ${shape} shape, ${cosmetic} cosmetic; ${byPlatform} the platform's, ${byPeers} the peers' (their answers or requests), ${behaviour + shape + cosmetic - byPlatform - byPeers} both`,
  );
}
