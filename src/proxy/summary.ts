/** The proxy's running summary and the cross-interface invariants on what passes through. */
import { newRunId, type ExchangeRecord } from '../journal/index.js';
import type { Violation } from '../trace/invariants.js';
import { watchInvariants } from '../trace/watch.js';
import type { LegName } from './legs.js';
import type { SeriesTracker } from './series.js';
import type { ProxyExchangeEvent, ProxyOptions, ProxySummary } from './types.js';

export const emptySummary = (): ProxySummary => ({
  type: 'summary',
  exchanges: 0,
  byLeg: {},
  violations: 0,
  byRule: {},
  warnings: 0,
  drift: 0,
  slow: 0,
  notAccepted: 0,
  redelivered: 0,
  gaveUp: 0,
  gaveUpByParty: 0,
  upstreamFailures: 0,
  injected: 0,
  invariantViolations: 0,
  byInvariant: {},
});

export const copyOf = (s: ProxySummary): ProxySummary => ({
  ...s,
  byLeg: { ...s.byLeg },
  byRule: { ...s.byRule },
  byInvariant: { ...s.byInvariant },
});

/**
 * The invariants on the conversations passing through (src/trace/watch.ts): each exchange
 * numbered as the `--record` journal numbers it (else counted), each violation counted in the
 * summary and emitted as it shows.
 */
export function invariantFlags(options: ProxyOptions, summary: ProxySummary) {
  const watch = watchInvariants(options.invariants);
  let seq = 0;
  // the --record journal's run, so a violation names the run its exchanges are recorded in
  const run = options.journal?.run ?? newRunId();
  const flag = (violations: readonly Violation[]): void => {
    for (const violation of violations) {
      summary.invariantViolations += 1;
      summary.byInvariant[violation.rule] = (summary.byInvariant[violation.rule] ?? 0) + 1;
      options.onEvent?.({ type: 'violation', ...violation });
    }
  };
  return {
    run,
    /** the exchange's seq: the journal's, else counted */
    number(journaled: number | undefined): number {
      seq = journaled ?? seq + 1;
      return seq;
    },
    check: (record: ExchangeRecord): void => flag(watch.add(record)),
    /** at close: the conversations still open, checked once more */
    finish: (): void => flag(watch.finish()),
  };
}

export function count(
  summary: ProxySummary,
  event: ProxyExchangeEvent,
  trackers: Map<LegName, SeriesTracker>,
): void {
  summary.exchanges += 1;
  summary.byLeg[event.leg] = (summary.byLeg[event.leg] ?? 0) + 1;
  const issues = [...event.requestIssues, ...event.answerIssues];
  const errors = issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) summary.violations += 1;
  summary.warnings += issues.length - errors.length + (event.attempt?.departs ? 1 : 0);
  summary.drift += event.drift?.length ?? 0;
  for (const e of errors) {
    const kind = event.requestIssues.includes(e)
      ? (event.kind ?? 'request')
      : (event.answerKind ?? `answer to ${event.kind ?? 'a request'}`);
    const rule = `${kind} ${e.path === '' ? '(root)' : e.path}: ${e.rule}`;
    summary.byRule[rule] = (summary.byRule[rule] ?? 0) + 1;
  }
  if (event.slow) summary.slow += 1;
  // the upstream's own answer, in time, that did not end the series: no failure and not slow
  // (those are counted apart), but not fine either
  else if (event.forwarded && event.status !== undefined && !event.failure && !event.accepted)
    summary.notAccepted += 1;
  if (event.fault !== undefined) summary.injected += 1;
  let redelivered = 0;
  let gaveUp = 0;
  let gaveUpByParty = 0;
  for (const tracker of trackers.values()) {
    redelivered += tracker.redelivered;
    gaveUp += tracker.gaveUp;
    gaveUpByParty += tracker.gaveUpByParty;
  }
  summary.redelivered = redelivered;
  summary.gaveUp = gaveUp;
  summary.gaveUpByParty = gaveUpByParty;
}
