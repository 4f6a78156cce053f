/**
 * The load engine: starts series at the planned arrival times (open model),
 * measures every attempt and every series, accounts for every payload sent, checks
 * thresholds, and reports progress as events. Never prints.
 */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createOutboundLimiter, type OutboundLimiter } from '../platform/outbound-limiter.js';
import {
  FINAL_STATES,
  JUDGED_STATES,
  LatencyRecorder,
  StateCounter,
  type FinalState,
  type LatencySummary,
} from './figures.js';
import { arrivalAt, plannedArrivals, type Workload } from './schedule.js';
import { evaluateThresholds, isShare, type Threshold, type ThresholdResult } from './spec.js';
import type { AttemptObserver, LoadTarget, SeriesOutcome } from './targets.js';

export interface RunLoadOptions {
  target: LoadTarget;
  workload: Workload;
  /** the clock's time scale: the policy's protocol timeouts last this x longer in wall time */
  timeScale: number;
  /** share 0..1 of payloads sent broken on purpose (reported apart) */
  invalidShare?: number;
  thresholds?: readonly Threshold[];
  /**
   * stop as soon as an upper-bound threshold fails (checked every tick, after 1 s); an attempt
   * still on the wire counts at its age so far
   */
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
  /** this tick's answers, every attempt (0 when none came: see oldestOnWireMs) */
  p50Ms: number;
  p99Ms: number;
  /** answers in this tick */
  answers: number;
  /** wall ms the oldest attempt still on the wire has waited (0 when none is) */
  oldestOnWireMs: number;
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
  /**
   * attempts per payload that went on the wire (an attempt cut short by a stop counts): at
   * least 1 once anything was sent, 0 when nothing was; a payload never sent is not averaged in
   */
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
  /**
   * load channel against a platform that said how many chats it keeps (svc-cli's simulator,
   * `--max-chats`) and keeps fewer than the run's customers: their chats were closed and
   * reopened during the run, though every message was answered
   */
  chatCap?: { customers: number; maxChats: number };
  generator: { pool: number; peakInFlight: number; maxLagMs: number };
}

/**
 * Payloads under way the generator allows: every payload of `rate` lasting its whole series
 * (all attempts timing out), plus room. Attempts on the wire are bounded by the same number.
 */
export function defaultPool(rate: number, seriesWallMs: number): number {
  return Math.min(50_000, Math.max(16, Math.ceil((rate * seriesWallMs * 1.25) / 1000) + 16));
}

/** What a run measured so far: the histograms, the final states and the counts. */
interface Tally {
  answers: LatencyRecorder;
  /** this tick's answers (the progress line's percentiles) */
  window: LatencyRecorder;
  series: LatencyRecorder;
  byAttempt: LatencyRecorder[];
  /** attempts a stop cut short, at their age then: lower bounds for the thresholds */
  cutShort: LatencyRecorder;
  /** attempts on the wire now: since when their latency counts (the due time for a first) */
  onWireNow: Set<{ since: number }>;
  states: StateCounter;
  invalidStates: StateCounter;
  reasons: Map<string, number>;
  sent: number;
  invalidSent: number;
  /** attempts that went on the wire, one cut short by a stop included */
  attemptCount: number;
  /** payloads with at least one attempt on the wire: attempts per payload is per these */
  onWire: number;
  /** settled payloads (delivered, error reply, failed) that had a second attempt on the wire */
  redelivered: number;
  windowSettled: number;
  maxLagMs: number;
}

function createTally(attempts: number): Tally {
  return {
    answers: new LatencyRecorder(),
    window: new LatencyRecorder(),
    series: new LatencyRecorder(),
    byAttempt: Array.from({ length: attempts }, () => new LatencyRecorder()),
    cutShort: new LatencyRecorder(),
    onWireNow: new Set(),
    states: new StateCounter(),
    invalidStates: new StateCounter(),
    reasons: new Map(),
    sent: 0,
    invalidSent: 0,
    attemptCount: 0,
    onWire: 0,
    redelivered: 0,
    windowSettled: 0,
    maxLagMs: 0,
  };
}

/**
 * An attempt's figures as it ends, not once its series settled: a hanging endpoint's timeouts
 * reach the live line and the abort check at 3 s, not at the series' end at 9 s.
 */
function observeAttempts(
  t: Tally,
  intendedAt: number,
  lagMs: number,
): AttemptObserver & { settled: () => void } {
  const onWire = { since: 0 };
  let first = true;
  return {
    // a stop cuts an attempt short without an end: settle() takes its age from the outcome
    settled: () => t.onWireNow.delete(onWire),
    started: () => {
      // the series' first attempt counts from when it was due: a lagging generator must not
      // hide latency
      onWire.since = first ? intendedAt : performance.now();
      t.onWireNow.add(onWire);
    },
    ended: (attempt) => {
      t.onWireNow.delete(onWire);
      const ms = attempt.wallMs + (first ? lagMs : 0);
      first = false;
      t.attemptCount++;
      t.answers.record(ms);
      t.window.record(ms);
      t.byAttempt[attempt.attempt - 1]?.record(ms);
    },
  };
}

/** A settled series into the tally: its final state and the series end to end. */
function settle(
  t: Tally,
  outcome: SeriesOutcome,
  intendedAt: number,
  lagMs: number,
  invalid: boolean,
): void {
  if (invalid) {
    t.invalidStates.add(outcome.state);
    return;
  }
  const { series } = t;
  t.states.add(outcome.state);
  t.windowSettled++;
  if (outcome.reason) t.reasons.set(outcome.reason, (t.reasons.get(outcome.reason) ?? 0) + 1);
  if (outcome.cutShort) {
    t.attemptCount++;
    const first = outcome.attempts.length === 0 && outcome.cutShort.attempt === 1;
    t.cutShort.record(outcome.cutShort.wallMs + (first ? lagMs : 0));
  }
  if (outcome.attempts.length > 0 || outcome.cutShort) t.onWire++;
  // the `redelivered` threshold's count (spec 8): a payload the endpoint settled, after a
  // second attempt of one message (`load channel --think-time`: a conversation's messages
  // each start at attempt 1, and a second message is no redelivery)
  const resent =
    outcome.attempts.some((a) => a.attempt > 1) || (outcome.cutShort?.attempt ?? 1) > 1;
  if (JUDGED_STATES.includes(outcome.state) && resent) t.redelivered++;
  if (outcome.state !== 'not-sent' && outcome.state !== 'interrupted') {
    series.record(performance.now() - intendedAt);
  }
}

/**
 * The figures thresholds are held to, over `windowMs` of arrivals. A latency counts every
 * answer and, at its age so far, each attempt a stop cut short and (live, `now` given) each
 * attempt on the wire: an attempt waiting past a limit breaks it before it times out.
 */
function thresholdFigures(t: Tally, windowMs: number, now?: number) {
  const waiting = now === undefined ? [] : onWireAges(t, now);
  const a = t.answers.summaryWith([t.cutShort], waiting);
  const window = Math.max(0.001, windowMs / 1000);
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
    // of what the endpoint settled: a payload never sent is the generator's limit, not its failure
    failedShare: t.states.judged === 0 ? 0 : t.states.counts.failed / t.states.judged,
    redeliveredShare: t.states.judged === 0 ? 0 : t.redelivered / t.states.judged,
    settled: t.states.judged,
    // delivered only (the `rate` threshold's figure): an error reply is counted apart
    ratePerSecond: t.states.counts.delivered / window,
    errorReplyPerSecond: t.states.counts['error-reply'] / window,
  };
}

/** Wall ms each attempt on the wire has waited, at `now` (performance.now()). */
function onWireAges(t: Tally, now: number): number[] {
  return [...t.onWireNow].map((w) => Math.max(0, now - w.since));
}

/** A run under way: its options, tally, limiter, stop and clock. */
interface Running {
  options: RunLoadOptions;
  tally: Tally;
  limiter: OutboundLimiter;
  stop: AbortController;
  elapsed: () => number;
  /** why the run stopped before its plan */
  stopped?: string;
  /** wall ms of the arrival window, once the arrivals ended */
  arrivalEnd: number;
}

/**
 * Every `tickMs`: a progress event from this tick's answers, and with `abortOnFail` the stop
 * once an upper-bound threshold fails (after 1 s).
 */
function startTicker(run: Running): ReturnType<typeof setInterval> {
  const { options, tally, limiter } = run;
  let lastTick = 0;
  const ticker = setInterval(() => {
    const now = run.elapsed();
    const w = tally.window.summary();
    const wallNow = performance.now();
    options.emit?.({
      type: 'load-progress',
      elapsedMs: Math.round(now),
      sent: tally.sent,
      settled: tally.states.settled,
      inFlight: limiter.inFlight,
      ratePerSecond: Math.round((tally.windowSettled * 1000) / Math.max(1, now - lastTick)),
      p50Ms: w.p50,
      p99Ms: w.p99,
      answers: w.count,
      oldestOnWireMs: Math.round(onWireAges(tally, wallNow).reduce((a, b) => Math.max(a, b), 0)),
      failed: tally.states.counts.failed,
      notSent: tally.states.counts['not-sent'],
    });
    tally.window.reset();
    tally.windowSettled = 0;
    lastTick = now;
    if (options.abortOnFail && now >= 1000 && run.stopped === undefined) {
      // a share waits for a first settled payload (none settled is judged at the end)
      const early = (options.thresholds ?? []).filter(
        (t) =>
          t.metric !== 'rate' &&
          (t.op === '<' || t.op === '<=') &&
          (!isShare(t.metric) || tally.states.judged > 0),
      );
      const failing = evaluateThresholds(early, thresholdFigures(tally, now, wallNow)).find(
        (r) => !r.ok,
      );
      if (failing) {
        run.stopped = `threshold failed: ${failing.threshold.text}`;
        run.stop.abort(new Error(run.stopped));
      }
    }
  }, options.tickMs ?? 1000);
  ticker.unref();
  return ticker;
}

/**
 * The arrivals: a timer to the next due arrival, then every arrival that is due (open model);
 * resolves once every series settled.
 */
async function runArrivals(run: Running, planned: number, start: number): Promise<void> {
  const { options, tally, limiter, stop } = run;
  const { target, workload } = options;
  const invalidShare = options.invalidShare ?? 0;
  const inFlight = new Set<Promise<void>>();
  const launch = (index: number): void => {
    const intendedAt = start + arrivalAt(index, workload);
    const lagMs = Math.max(0, performance.now() - intendedAt);
    tally.maxLagMs = Math.max(tally.maxLagMs, lagMs);
    // spread broken payloads evenly: index i is broken when the share's count steps up at i
    const invalid = Math.floor((index + 1) * invalidShare) > Math.floor(index * invalidShare);
    if (invalid) tally.invalidSent++;
    else tally.sent++;
    const observer = invalid ? undefined : observeAttempts(tally, intendedAt, lagMs);
    const work = target
      .fire(index, invalid, limiter, stop.signal, observer)
      .then((outcome) => {
        observer?.settled();
        settle(tally, outcome, intendedAt, lagMs, invalid);
      })
      .finally(() => inFlight.delete(work));
    inFlight.add(work);
  };
  await new Promise<void>((done) => {
    let next = 0;
    const step = (): void => {
      if (stop.signal.aborted || next >= planned) {
        // N arrivals at r/s span N/r seconds: the window ends where arrival N + 1 would be
        // (the last one is at (N - 1)/r; 10 at 10/s read as 11.1/s over 0.9 s)
        run.arrivalEnd = stop.signal.aborted
          ? run.elapsed()
          : Math.max(run.elapsed(), arrivalAt(planned, workload));
        done();
        return;
      }
      const now = run.elapsed();
      while (next < planned && arrivalAt(next, workload) <= now) launch(next++);
      const wait = next < planned ? arrivalAt(next, workload) - run.elapsed() : 0;
      setTimeout(step, Math.max(0, wait));
    };
    step();
  });
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

/** The summary of a finished run. */
function summarize(run: Running, planned: number, pool: number): LoadSummary {
  const { options, tally } = run;
  const { states, invalidStates } = tally;
  const figures = thresholdFigures(tally, run.arrivalEnd || run.elapsed());
  const thresholds = evaluateThresholds(options.thresholds ?? [], figures);
  const settledCount = states.settled;
  return {
    role: options.target.role,
    url: options.target.url,
    plannedRate: options.workload.rate,
    planned,
    arrivalWindowMs: Math.round(run.arrivalEnd),
    elapsedMs: Math.round(run.elapsed()),
    sent: tally.sent,
    states: { ...states.counts },
    accounted: settledCount === tally.sent && invalidStates.settled === tally.invalidSent,
    invalid: { sent: tally.invalidSent, states: { ...invalidStates.counts } },
    attemptsPerSeries: tally.onWire === 0 ? 0 : tally.attemptCount / tally.onWire,
    latency: {
      answers: tally.answers.summary(),
      byAttempt: tally.byAttempt.map((r) => r.summary()),
      series: tally.series.summary(),
    },
    ratePerSecond: figures.ratePerSecond,
    errorReplyPerSecond: figures.errorReplyPerSecond,
    reasons: [...tally.reasons.entries()]
      .map(([reason, count]) => ({ reason, count }))
      .sort((a, b) => b.count - a.count)
      .slice(0, 5),
    thresholds,
    ...(run.stopped === undefined ? {} : { stopped: run.stopped }),
    generator: {
      pool,
      peakInFlight: run.limiter.peakInFlight,
      maxLagMs: Math.round(tally.maxLagMs),
    },
  };
}

/**
 * Runs a workload against a target and resolves with the summary once every series settled.
 * @example const summary = await runLoad({ target, workload: { rate: 200, durationMs: 60_000 }, timeScale: 1 });
 */
export async function runLoad(options: RunLoadOptions): Promise<LoadSummary> {
  const policy = options.target.policy;
  const seriesMs =
    ((policy.attempts - 1) * policy.intervalMs + policy.attemptTimeoutMs) * options.timeScale;
  const pool = options.maxInFlight ?? defaultPool(options.workload.rate, seriesMs);
  const limiter = createOutboundLimiter({
    maxInFlight: pool,
    maxQueued: pool,
    maxSeries: pool,
    waitForSeries: false,
  });
  const stop = new AbortController();
  setMaxListeners(0, stop.signal); // its waiters use src/io/on-abort.ts; other listeners may be many
  const start = performance.now();
  const run: Running = {
    options,
    tally: createTally(policy.attempts),
    limiter,
    stop,
    elapsed: () => performance.now() - start,
    arrivalEnd: 0,
  };
  const onAbort = (): void => {
    run.stopped ??= 'interrupted';
    stop.abort(new Error('the load run was stopped'));
  };
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  const ticker = startTicker(run);
  const planned = plannedArrivals(options.workload);
  await runArrivals(run, planned, start);
  clearInterval(ticker);
  options.signal?.removeEventListener('abort', onAbort);
  return summarize(run, planned, pool);
}

export { FINAL_STATES };
