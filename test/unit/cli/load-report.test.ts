/** `load --report`'s latency bars (src/cli/render/load-report.ts): one scale for every block. */
import { describe, expect, it } from 'vitest';
import { loadSection } from '../../../src/cli/render/load-report.js';
import type { LatencySummary } from '../../../src/load/figures.js';
import type { LoadSummary } from '../../../src/load/run.js';

const latency = (ms: number, count = 10): LatencySummary => ({
  count,
  p50: ms,
  p90: ms,
  p95: ms,
  p99: ms,
  p999: ms,
  max: ms,
  mean: ms,
});

function summaryWith(attempt: LatencySummary, series: LatencySummary): LoadSummary {
  const none = { delivered: 0, 'error-reply': 0, failed: 0, 'not-sent': 0, interrupted: 0 };
  return {
    role: 'integrator',
    url: 'http://127.0.0.1:9000',
    plannedRate: 10,
    planned: 10,
    arrivalWindowMs: 1000,
    elapsedMs: 7000,
    sent: 10,
    states: { ...none, delivered: 10 },
    accounted: true,
    invalid: { sent: 0, states: none },
    attemptsPerSeries: 1,
    latency: { answers: attempt, byAttempt: [attempt], series },
    ratePerSecond: 10,
    errorReplyPerSecond: 0,
    reasons: [],
    thresholds: [],
    generator: { pool: 64, peakInFlight: 10, maxLagMs: 1 },
  } as unknown as LoadSummary;
}

/** The p50 bar's width (%) of each block, in the order drawn. */
const p50Widths = (html: string): number[] =>
  [...html.matchAll(/data-p="p50" style="width:([\d.]+)%"/g)].map((m) => Number(m[1]));

describe('the load report draws every latency block on one scale', () => {
  it('a 60 ms attempt is a tenth of a 600 ms end to end bar, not as long as it', () => {
    const html = loadSection(summaryWith(latency(60), latency(600)));
    // attempt 1, every answer, payload end to end
    expect(p50Widths(html)).toEqual([8.5, 8.5, 85]);
    expect(html).toContain('latency bars share one scale, 0 to 600 ms');
  });

  it('a block without answers takes no part in the scale', () => {
    const html = loadSection(summaryWith(latency(60), latency(0, 0)));
    expect(p50Widths(html)).toEqual([85, 85]);
  });
});
