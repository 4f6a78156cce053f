/**
 * The load engine: starts series at the planned arrival times (open model),
 * measures every attempt and every series, accounts for every payload sent, checks
 * thresholds, and reports progress as events. Never prints.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createOutboundLimiter } from '../platform/outbound-limiter.js';
import {
  FINAL_STATES,
  LatencyRecorder,
  StateCounter,
  type FinalState,
  type LatencySummary,
} from './figures.js';
import { arrivalAt, plannedArrivals, type Workload } from './schedule.js';
import { evaluateThresholds, type Threshold, type ThresholdResult } from './spec.js';
import type { LoadTarget, SeriesOutcome } from './targets.js';

export interface RunLoadOptions {
  target: LoadTarget;
  workload: Workload;
  /** the clock's time scale: the policy's protocol timeouts last this x longer in wall time */
  timeScale: number;
  /** share 0..1 of payloads sent broken on purpose (reported apart) */
  invalidShare?: number;
  thresholds?: readonly Threshold[];
  /** stop as soon as an upper-bound threshold fails (checked every tick, after 1 s) */
  abortOnFail?: boolean;
  /** payloads under way at once (default: sized from rate x the policy's whole series) */
  maxInFlight?: number;
  signal?: AbortSignal;
  emit?: (event: LoadProgressEvent) => void;
  /** wall ms between progress events (default 1000) */
  tickMs?: number;
}

export interface LoadProgressEvent {
  type: 'load-progress';
  elapsedMs: number;
  sent: number;
  settled: number;
  /** attempts on the wire now */
  inFlight: number;
  /** series settled per second in this tick */
  ratePerSecond: number;
  /** this tick's answers, every attempt */
  p50Ms: number;
  p99Ms: number;
  failed: number;
  notSent: number;
}

export interface LoadSummary {
  role: LoadTarget['role'];
  url: string;
  plannedRate: number;
  planned: number;
  /** wall ms from the start to the last planned arrival (or the stop) */
  arrivalWindowMs: number;
  /** wall ms until the last series settled */
  elapsedMs: number;
  /** valid payloads started */
  sent: number;
  states: Record<FinalState, number>;
  /** sent equals the sum of the final states */
  accounted: boolean;
  invalid: { sent: number; states: Record<FinalState, number> };
  attemptsPerSeries: number;
  latency: { answers: LatencySummary; byAttempt: LatencySummary[]; series: LatencySummary };
  /** delivered per second of the arrival window (the `rate` threshold's figure) */
  ratePerSecond: number;
  /** error replies per second of the same window: answered, not delivered */
  errorReplyPerSecond: number;
  reasons: { reason: string; count: number }[];
  thresholds: ThresholdResult[];
  /** why the run stopped before its plan, when it did */
  stopped?: string;
  generator: { pool: number; peakInFlight: number; maxLagMs: number };
}

/**
 * Payloads under way the generator allows: every payload of `rate` lasting its whole series
 * (all attempts timing out), plus room. Attempts on the wire are bounded by the same number.
 */
export function defaultPool(rate: number, seriesWallMs: number): number {
  return Math.min(50_000, Math.max(16, Math.ceil((rate * seriesWallMs * 1.25) / 1000) + 16));
}

/**
 * Runs a workload against a target and resolves with the summary once every series settled.
 * @example const summary = await runLoad({ target, workload: { rate: 200, durationMs: 60_000 }, timeScale: 1 });
 */
export async function runLoad(options: RunLoadOptions): Promise<LoadSummary> {
  const { target, workload } = options;
  const policy = target.policy;
  const seriesMs =
    ((policy.attempts - 1) * policy.intervalMs + policy.attemptTimeoutMs) * options.timeScale;
  const pool = options.maxInFlight ?? defaultPool(workload.rate, seriesMs);
  const limiter = createOutboundLimiter({
    maxInFlight: pool,
    maxQueued: pool,
    maxSeries: pool,
    waitForSeries: false,
  });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // its waiters use src/io/on-abort.ts; other listeners may be many
  const planned = plannedArrivals(workload);
  const invalidShare = options.invalidShare ?? 0;
  const answers = new LatencyRecorder();
  const window = new LatencyRecorder();
  const series = new LatencyRecorder();
  const byAttempt = Array.from({ length: policy.attempts }, () => new LatencyRecorder());
  const states = new StateCounter();
  const invalidStates = new StateCounter();
  const reasons = new Map<string, number>();
  let sent = 0;
  let invalidSent = 0;
  let attemptCount = 0;
  let maxLagMs = 0;
  let stopped: string | undefined;
  let arrivalEnd = 0;
  let windowSettled = 0;
  const inFlight = new Set<Promise<void>>();
  const start = performance.now();
  const elapsed = (): number => performance.now() - start;

  const settle = (
    outcome: SeriesOutcome,
    intendedAt: number,
    lagMs: number,
    invalid: boolean,
  ): void => {
    if (invalid) {
      invalidStates.add(outcome.state);
      return;
    }
    states.add(outcome.state);
    windowSettled++;
    if (outcome.reason) reasons.set(outcome.reason, (reasons.get(outcome.reason) ?? 0) + 1);
    for (const attempt of outcome.attempts) {
      // the first attempt counts from when it was due: a lagging generator must not hide latency
      const ms = attempt.wallMs + (attempt.attempt === 1 ? lagMs : 0);
      attemptCount++;
      answers.record(ms);
      window.record(ms);
      byAttempt[attempt.attempt - 1]?.record(ms);
    }
    if (outcome.state !== 'not-sent' && outcome.state !== 'interrupted') {
      series.record(performance.now() - intendedAt);
    }
  };

  const launch = (index: number): void => {
    const intendedAt = start + arrivalAt(index, workload);
    const lagMs = Math.max(0, performance.now() - intendedAt);
    maxLagMs = Math.max(maxLagMs, lagMs);
    // spread broken payloads evenly: index i is broken when the share's count steps up at i
    const invalid = Math.floor((index + 1) * invalidShare) > Math.floor(index * invalidShare);
    if (invalid) invalidSent++;
    else sent++;
    const work = target
      .fire(index, invalid, limiter, stop.signal)
      .then((outcome) => settle(outcome, intendedAt, lagMs, invalid))
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  };

  const figures = () => {
    const a = answers.summary();
    const window = Math.max(0.001, (arrivalEnd || elapsed()) / 1000);
    return {
      latencyMs: {
        p50: a.p50,
        p90: a.p90,
        p95: a.p95,
        p99: a.p99,
        p999: a.p999,
        max: a.max,
        mean: a.mean,
      },
      failedShare: sent === 0 ? 0 : states.counts.failed / sent,
      // delivered only (the `rate` threshold's figure): an error reply is counted apart
      ratePerSecond: states.counts.delivered / window,
      errorReplyPerSecond: states.counts['error-reply'] / window,
    };
  };

  const onAbort = (): void => {
    stopped ??= 'interrupted';
    stop.abort(new Error('the load run was stopped'));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();

  const tickMs = options.tickMs ?? 1000;
  let lastTick = 0;
  const ticker = setInterval(() => {
    const now = elapsed();
    const w = window.summary();
    options.emit?.({
      type: 'load-progress',
      elapsedMs: Math.round(now),
      sent,
      settled: states.settled,
      inFlight: limiter.inFlight,
      ratePerSecond: Math.round((windowSettled * 1000) / Math.max(1, now - lastTick)),
      p50Ms: w.p50,
      p99Ms: w.p99,
      failed: states.counts.failed,
      notSent: states.counts['not-sent'],
    });
    window.reset();
    windowSettled = 0;
    lastTick = now;
    if (options.abortOnFail && now >= 1000 && stopped === undefined) {
      const early = (options.thresholds ?? []).filter(
        (t) => t.metric !== 'rate' && (t.op === '<' || t.op === '<='),
      );
      const failing = evaluateThresholds(early, figures()).find((r) => !r.ok);
      if (failing) {
        stopped = `threshold failed: ${failing.threshold.text}`;
        stop.abort(new Error(stopped));
      }
    }
  }, tickMs);
  ticker.unref();

  // Arrivals: a timer to the next due arrival, then every arrival that is due (open model).
  await new Promise<void>((done) => {
    let next = 0;
    const step = (): void => {
      if (stop.signal.aborted || next >= planned) {
        // N arrivals at r/s span N/r seconds: the window ends where arrival N + 1 would be
        // (the last one is at (N - 1)/r; 10 at 10/s read as 11.1/s over 0.9 s)
        arrivalEnd = stop.signal.aborted
          ? elapsed()
          : Math.max(elapsed(), arrivalAt(planned, workload));
        done();
        return;
      }
      const now = elapsed();
      while (next < planned && arrivalAt(next, workload) <= now) launch(next++);
      const wait = next < planned ? arrivalAt(next, workload) - elapsed() : 0;
      setTimeout(step, Math.max(0, wait));
    };
    step();
  });
  while (inFlight.size > 0) await Promise.all([...inFlight]);
  clearInterval(ticker);
  options.signal?.removeEventListener('abort', onAbort);

  const thresholds = evaluateThresholds(options.thresholds ?? [], figures());
  const settledCount = states.settled;
  return {
    role: target.role,
    url: target.url,
    plannedRate: workload.rate,
    planned,
    arrivalWindowMs: Math.round(arrivalEnd),
    elapsedMs: Math.round(elapsed()),
    sent,
    states: { ...states.counts },
    accounted: settledCount === sent && invalidStates.settled === invalidSent,
    invalid: { sent: invalidSent, states: { ...invalidStates.counts } },
    attemptsPerSeries: settledCount === 0 ? 0 : attemptCount / settledCount,
    latency: {
      answers: answers.summary(),
      byAttempt: byAttempt.map((r) => r.summary()),
      series: series.summary(),
    },
    ratePerSecond: figures().ratePerSecond,
    errorReplyPerSecond: figures().errorReplyPerSecond,
    reasons: [...reasons.entries()]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, 5),
    thresholds,
    ...(stopped === undefined ? {} : { stopped }),
    generator: { pool, peakInFlight: limiter.peakInFlight, maxLagMs: Math.round(maxLagMs) },
  };
}

export { FINAL_STATES };
