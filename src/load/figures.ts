/**
 * What a load run measures: latency histograms (hdr-histogram-js: constant memory, exact
 * percentiles to 3 significant digits whatever the number of samples) per attempt, for every
 * answer and per series, and the final state of every series, so that nothing sent is
 * unaccounted for.
 */
import hdr from 'hdr-histogram-js';
import type { Histogram } from 'hdr-histogram-js';

/** How a series (one payload with its redeliveries) ended. */
export const FINAL_STATES = [
  'delivered',
  'error-reply',
  'failed',
  'not-sent',
  'interrupted',
] as const;
export type FinalState = (typeof FINAL_STATES)[number];

/** The final states that are the endpoint's verdict (the thresholds' shares are of these). */
export const JUDGED_STATES: readonly FinalState[] = ['delivered', 'error-reply', 'failed'];

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  p999: number;
  max: number;
  mean: number;
}

/** Latencies in ms; kept in microseconds inside so sub-millisecond answers keep their shape. */
export class LatencyRecorder {
  private readonly histogram: Histogram = hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000_000,
    numberOfSignificantValueDigits: 3,
  });

  // the exact largest value: the histogram answers with the top of a bucket, which can lie
  // above every value recorded in it (p99 193 beside a max of 192)
  private largest = 0;

  record(ms: number): void {
    const micros = Math.max(1, Math.round(ms * 1000));
    this.histogram.recordValue(micros);
    this.largest = Math.max(this.largest, micros);
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /**
   * The summary of these answers together with `others` and `lowerBoundsMs`: attempts still on
   * the wire or cut short, at their age so far. A figure of it is never above the one the same
   * attempts give once answered, so a limit it breaks is broken.
   * @example answers.summaryWith([cutShort], [3200]) // p99 3200 while the answers' is 0
   */
  summaryWith(
    others: readonly LatencyRecorder[],
    lowerBoundsMs: readonly number[],
  ): LatencySummary {
    if (others.every((o) => o.count === 0) && lowerBoundsMs.length === 0) return this.summary();
    const all = new LatencyRecorder();
    for (const r of [this, ...others]) {
      all.histogram.add(r.histogram);
      all.largest = Math.max(all.largest, r.largest);
    }
    for (const ms of lowerBoundsMs) all.record(ms);
    return all.summary();
  }

  reset(): void {
    this.histogram.reset();
    this.largest = 0;
  }

  summary(): LatencySummary {
    const h = this.histogram;
    // a percentile is never above the largest value recorded (the same figures, one table)
    const at = (p: number): number =>
      h.totalCount === 0 ? 0 : Math.min(h.getValueAtPercentile(p), this.largest) / 1000;
    return {
      count: h.totalCount,
      p50: at(50),
      p90: at(90),
      p95: at(95),
      p99: at(99),
      p999: at(99.9),
      max: h.totalCount === 0 ? 0 : this.largest / 1000,
      mean: h.totalCount === 0 ? 0 : h.mean / 1000,
    };
  }
}

/** Counts of final states; `sent` is every series started, settled or not. */
export class StateCounter {
  readonly counts: Record<FinalState, number> = {
    delivered: 0,
    'error-reply': 0,
    failed: 0,
    'not-sent': 0,
    interrupted: 0,
  };

  add(state: FinalState): void {
    this.counts[state]++;
  }

  /**
   * Payloads the endpoint gave its verdict on: delivered, error reply or failed. Not sent (the
   * generator saturated) and interrupted (the run stopped) are no verdict of the endpoint's.
   */
  get judged(): number {
    return JUDGED_STATES.reduce((sum, state) => sum + this.counts[state], 0);
  }

  get settled(): number {
    return FINAL_STATES.reduce((sum, state) => sum + this.counts[state], 0);
  }
}
