import { describe, expect, it } from 'vitest';
import { SvcError } from '../../../src/errors.js';
import { arrivalAt, plannedArrivals } from '../../../src/load/schedule.js';
import { MIX_KINDS, parseMixKinds } from '../../../src/load/mix.js';
import { ERROR_HELP } from '../../../src/error-help.js';
import {
  brokenText,
  evaluateThresholds,
  formatRate,
  parseRate,
  parseRatio,
  parseThreshold,
} from '../../../src/load/spec.js';

const inputCode = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (error) {
    return error instanceof SvcError ? `${error.category}:${error.code}` : 'not an SvcError';
  }
  return undefined;
};

describe('load words', () => {
  it.each([
    ['200/s', 200],
    ['200', 200],
    ['6000/m', 100],
    ['0.5/s', 0.5],
    ['3600/h', 1],
    ['1e5/s', 100_000],
    ['1000000/s', 1_000_000],
  ])('rate %s is %d per second', (text, perSecond) => {
    expect(parseRate(text)).toBe(perSecond);
  });

  it('a rate above what one process schedules is refused for that reason, not as "not positive"', () => {
    expect(() => parseRate('1e9/s')).toThrowErrorMatchingInlineSnapshot(
      `[SvcError: Could not use --rate "1e9/s": 1000000000/s is above the 1000000/s one svc-cli load process can schedule.]`,
    );
    expect(inputCode(() => parseRate('2000000'))).toBe('input:SVC_E_LOAD_RATE');
  });

  it('rates print rounded: 200/h is 0.0556/s, 1000/m 16.7/s', () => {
    expect(formatRate(parseRate('200/h'))).toBe('0.0556');
    expect(formatRate(parseRate('1000/m'))).toBe('16.7');
    expect(formatRate(parseRate('200/s'))).toBe('200');
    expect(formatRate(parseRate('12345.6/s'))).toBe('12346');
  });

  it.each(['0/s', '-1/s', 'fast', '10/d'])('rate %s is an input error', (text) => {
    expect(inputCode(() => parseRate(text))).toBe('input:SVC_E_LOAD_RATE');
  });

  it('ratios: 1% and 0.01 are the same; 150% is refused', () => {
    expect(parseRatio('1%', '--invalid')).toBe(0.01);
    expect(parseRatio('0.01', '--invalid')).toBe(0.01);
    expect(inputCode(() => parseRatio('150%', '--invalid'))).toBe('input:SVC_E_LOAD_RATIO');
  });

  it('thresholds: latency in ms or s, failed as a share, rate per second', () => {
    expect(parseThreshold('p99<500ms')).toMatchObject({ metric: 'p99', op: '<', value: 500 });
    expect(parseThreshold('max<=3s')).toMatchObject({ metric: 'max', op: '<=', value: 3000 });
    // as --help and docs/load.md say: a bare time is ms (not seconds, as --duration reads it)
    expect(parseThreshold('p99<500')).toMatchObject({ metric: 'p99', value: 500 });
    expect(parseThreshold('failed<0.01')).toMatchObject({ metric: 'failed', value: 0.01 });
    expect(parseThreshold('failed<0.1%')).toMatchObject({ metric: 'failed', value: 0.001 });
    expect(parseThreshold('redelivered<1%')).toMatchObject({ metric: 'redelivered', value: 0.01 });
    expect(parseThreshold('rate>=190/s')).toMatchObject({ metric: 'rate', op: '>=', value: 190 });
    expect(inputCode(() => parseThreshold('p42<1ms'))).toBe('input:SVC_E_LOAD_THRESHOLD');
    expect(inputCode(() => parseThreshold('p99=1ms'))).toBe('input:SVC_E_LOAD_THRESHOLD');
    expect(inputCode(() => parseThreshold('p99<soon'))).toBe('input:SVC_E_LOAD_THRESHOLD');
  });

  it.each([
    'failed<200%',
    'failed<-1%',
    'failed<lots',
    'rate>=fast',
    'rate>=0/s',
    'p99<soon',
    'p42<1ms',
    'p99=1ms',
    'p99>500ms',
    'failed>=1%',
    'redelivered>1%',
    'redelivered<lots',
    'rate<10/s',
  ])('every example the error for --threshold %s gives parses', (text) => {
    let error: unknown;
    try {
      parseThreshold(text);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(SvcError);
    const { message, hint } = error as SvcError;
    // what a user pastes: each `--threshold <value>`, and each quoted example in the hint
    const pasted = [...`${message} ${hint ?? ''}`.matchAll(/--threshold ('[^']+'|\S+)/g)].map((m) =>
      m[1]!.replace(/^'|'$/g, '').replace(/[.,]$/, ''),
    );
    const quoted = [...(hint ?? '').matchAll(/'([^']+)'/g)].map((m) => m[1]!);
    const examples = [...pasted.filter((e) => e !== `"${text}":`), ...quoted];
    expect(examples.length).toBeGreaterThan(0);
    for (const example of examples) {
      expect(() => parseThreshold(example), `${example} (from: ${message} ${hint})`).not.toThrow();
    }
  });

  it('thresholds hold against the figures, each with its measured value', () => {
    const latencyMs = { p50: 2, p90: 4, p95: 5, p99: 9, p999: 20, max: 31, mean: 3 };
    const results = evaluateThresholds(
      ['p99<10ms', 'max<30ms', 'failed<1%', 'redelivered<5%', 'rate>=190/s'].map(parseThreshold),
      { latencyMs, failedShare: 0.02, redeliveredShare: 0.04, ratePerSecond: 195 },
    );
    expect(results.map((r) => [r.threshold.text, r.ok, r.actual])).toEqual([
      ['p99<10ms', true, 9],
      ['max<30ms', false, 31],
      ['failed<1%', false, 0.02],
      ['redelivered<5%', true, 0.04],
      ['rate>=190/s', true, 195],
    ]);
  });

  it('a bound the wrong way round is refused: it would pass a broken run', () => {
    for (const text of ['p99>500ms', 'max>=1s', 'failed>1%', 'redelivered>=1%', 'rate<10/s'])
      expect(
        inputCode(() => parseThreshold(text)),
        text,
      ).toBe('input:SVC_E_LOAD_THRESHOLD');
  });

  it('a share of nothing settled breaks the threshold: no verdict is no pass', () => {
    const latencyMs = { p50: 0, p90: 0, p95: 0, p99: 0, p999: 0, max: 0, mean: 0 };
    const results = evaluateThresholds(['failed<1%', 'redelivered<1%'].map(parseThreshold), {
      latencyMs,
      failedShare: 0,
      redeliveredShare: 0,
      settled: 0,
      ratePerSecond: 0,
    });
    for (const result of results) {
      expect(result).toMatchObject({ ok: false, of: 0 });
      expect(brokenText(result)).toBe('no payload settled, so nothing to judge');
    }
  });
});

describe('open-model schedule', () => {
  it('arrivals are evenly spaced at the rate', () => {
    const workload = { rate: 100, durationMs: 1000 };
    expect([0, 1, 50].map((i) => arrivalAt(i, workload))).toEqual([0, 10, 500]);
    expect(plannedArrivals(workload)).toBe(100);
    expect(plannedArrivals({ rate: 100, count: 7 })).toBe(7);
  });

  it('a ramp-up grows the rate linearly, then holds it', () => {
    const workload = { rate: 100, durationMs: 3000, rampUpMs: 1000 };
    // 50 arrivals during the 1 s ramp (half the full rate on average), 100/s after it
    expect(plannedArrivals(workload)).toBe(250);
    expect(arrivalAt(50, workload)).toBeCloseTo(1000);
    expect(arrivalAt(150, workload)).toBeCloseTo(2000);
    // the first half of the ramp holds a quarter of its arrivals
    expect(arrivalAt(12.5, workload)).toBeCloseTo(500);
  });
});

describe('--mix', () => {
  it('kinds with weights', () => {
    expect(parseMixKinds('text=80,photo=10,typing')).toEqual([
      { kind: 'text', weight: 80 },
      { kind: 'photo', weight: 10 },
      { kind: 'typing', weight: 1 },
    ]);
  });

  it('the example `svc-cli explain SVC_E_LOAD_MIX` gives is one --mix takes', () => {
    const example = /--mix (\S+) /.exec(ERROR_HELP.SVC_E_LOAD_MIX?.todo ?? '')?.[1] ?? '';
    expect(example).toBe('text=80,photo=10,typing=10');
    expect(parseMixKinds(example).map((e) => e.kind)).toEqual(['text', 'photo', 'typing']);
    // every kind it names is one --mix takes
    const named = /\(kinds: ([^)]+)\)/.exec(ERROR_HELP.SVC_E_LOAD_MIX?.todo ?? '')?.[1];
    expect(named?.split(', ')).toEqual([...MIX_KINDS]);
  });

  it('an unknown kind or a bad weight is an input error naming the kinds', () => {
    expect(inputCode(() => parseMixKinds('txt=80'))).toBe('input:SVC_E_LOAD_MIX');
    expect(inputCode(() => parseMixKinds('text=0'))).toBe('input:SVC_E_LOAD_MIX');
  });
});
