/**
 * The load summary never contradicts itself: no percentile above the max, a threshold's
 * measured value as the table shows it, each rate named for what it counts, and an
 * integrator load saying where it posts.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { LatencyRecorder } from '../../../src/load/figures.js';
import { evaluateThresholds, parseThreshold } from '../../../src/load/spec.js';
import type { LoadSummary } from '../../../src/load/run.js';
import { formatLoadSummary } from '../../../src/cli/render/load.js';

const plain = new Chalk({ level: 0 });
const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999'] as const;

describe('latency figures from one histogram', () => {
  it('no percentile is above the max, and the max is the largest value recorded', () => {
    // a value in the middle of its histogram bucket: the bucket's top is above it
    const one = new LatencyRecorder();
    one.record(147.019);
    const s = one.summary();
    expect(s.max).toBe(147.019);
    for (const p of PERCENTILES) expect(s[p]).toBeLessThanOrEqual(s.max);

    const many = new LatencyRecorder();
    let x = 7;
    let largest = 0;
    for (let i = 0; i < 5000; i++) {
      x = (x * 48271) % 2147483647; // a fixed sequence: the same figures every run
      const ms = 1 + (x % 192_510) / 1000;
      largest = Math.max(largest, ms);
      many.record(ms);
    }
    const m = many.summary();
    expect(m.max).toBeCloseTo(largest, 3);
    const ordered = [...PERCENTILES.map((p) => m[p]), m.max];
    expect([...ordered].sort((a, b) => a - b)).toEqual(ordered);
  });

  it('resets the max with the histogram (the progress line counts one second at a time)', () => {
    const r = new LatencyRecorder();
    r.record(500);
    r.reset();
    r.record(2);
    expect(r.summary().max).toBe(2);
  });
});

function summaryWith(p99: number, overrides: Partial<LoadSummary> = {}): LoadSummary {
  const latency = { count: 20, p50: 90, p90: 150, p95: 170, p99, p999: p99, max: p99, mean: 100 };
  const thresholds = evaluateThresholds([parseThreshold('p99<150ms')], {
    latencyMs: latency,
    failedShare: 0,
    redeliveredShare: 0,
    ratePerSecond: 0,
  });
  return {
    role: 'integrator',
    url: 'http://127.0.0.1:9000/agent-messages/load',
    plannedRate: 20,
    planned: 20,
    arrivalWindowMs: 1000,
    elapsedMs: 1143,
    sent: 20,
    states: { delivered: 0, 'error-reply': 20, failed: 0, 'not-sent': 0, interrupted: 0 },
    accounted: true,
    invalid: {
      sent: 0,
      states: { delivered: 0, 'error-reply': 0, failed: 0, 'not-sent': 0, interrupted: 0 },
    },
    attemptsPerSeries: 1,
    latency: { answers: latency, byAttempt: [latency], series: latency },
    ratePerSecond: 0,
    errorReplyPerSecond: 17.5,
    reasons: [],
    thresholds,
    generator: { pool: 16, peakInFlight: 3, maxLagMs: 0 },
    ...overrides,
  };
}

describe('the load summary', () => {
  it("a failed threshold's measured value reads as the table's cell", () => {
    const text = formatLoadSummary(summaryWith(192.51), plain);
    const row = /every answer +(\d+) +(\S+) +(\S+) +(\S+) +(\S+)/.exec(text);
    expect(row?.[4]).toBe('193'); // the p99 cell
    expect(text).toContain('✗ p99<150ms (measured 193ms)');
  });

  it('names each rate: error replies are not counted as delivered', () => {
    const text = formatLoadSummary(summaryWith(100), plain);
    expect(text).toContain('sent 20 = delivered 0 + error reply 20');
    expect(text).toContain('delivered 0.0/s, error reply 17.5/s');
    expect(text).not.toMatch(/17\.5\/s delivered/);
  });

  it('a burst whose answers outlasted its arrivals says which window its rates are per second of', () => {
    // 20 at 200/s: arrivals over 0.1 s, the redeliveries settled 6 s later
    const burst = formatLoadSummary(
      summaryWith(100, { arrivalWindowMs: 100, elapsedMs: 6100, errorReplyPerSecond: 200 }),
      plain,
    );
    expect(burst).toContain(
      'error reply 200.0/s (per second of the 0.1 s of arrivals, not of the 6.1 s until all settled)',
    );
    // a steady run: the rates need no word on their window
    expect(formatLoadSummary(summaryWith(100), plain)).not.toContain('per second of the');
  });

  it('a run that settled inside its arrival window does not read as settling before it', () => {
    // 5 at 10/s: the window is 0.5 s, the last arrival at 0.4 s answered at once
    const inside = formatLoadSummary(
      summaryWith(100, { arrivalWindowMs: 500, elapsedMs: 405 }),
      plain,
    );
    expect(inside).toContain('arrivals over 0.5 s, all settled within it');
    expect(inside).not.toContain('settled after 0.4 s');
    // redeliveries ran on past the window: how long they took is said
    const past = formatLoadSummary(summaryWith(100), plain);
    expect(past).toContain('arrivals over 1.0 s, settled after 1.1 s');
  });

  it('an integrator load says it posts to --url + /<channel id>', () => {
    const text = formatLoadSummary(summaryWith(100), plain);
    expect(text).toMatch(
      /load integrator -> http:\/\/127\.0\.0\.1:9000\/agent-messages\/load {2}\(--url \+ \/load: the channel id, spec 4\.2/,
    );
  });
});
