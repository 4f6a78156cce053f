/**
 * The words of a load run: rates (`200/s`), ratios (`1%`) and thresholds (`p99<500ms`,
 * `failed<0.1%`, `rate>=190/s`); durations (`60s`) are every command's (src/duration.ts). Pure parsing; every problem is an input error
 * that names the value and what would be right.
 */
import { parseDuration } from '../duration.js';
import { inputError, SvcError } from '../errors.js';

/**
 * The most arrivals a second one `svc-cli load` process schedules: each arrival is a timer
 * check and a promise, and the pool of payloads under way stops at 50,000; past this the run
 * would measure the generator. A bigger load is Locust's distributed run (--export locust).
 */
export const MAX_RATE_PER_SECOND = 1_000_000;

/**
 * Per second, from `200/s`, `12000/m`, `3600/h`, `200` (per second), `0.5/s`, `1e5/s`.
 * @example parseRate('6000/m') // 100
 */
export function parseRate(text: string, flag = '--rate'): number {
  const match = /^\s*(\d+(?:\.\d+)?(?:e[+-]?\d+)?)\s*(?:\/\s*(s|sec|m|min|h))?\s*$/i.exec(text);
  const value = match ? Number(match[1]) : Number.NaN;
  if (!match || !(value > 0)) {
    throw inputError(
      'SVC_E_LOAD_RATE',
      `Could not read ${flag} "${text}": a rate is a positive number per second, minute or hour (a number alone is per second).`,
      `For example ${flag} 200/s, ${flag} 6000/m or ${flag} 100/h.`,
    );
  }
  const unit = (match[2] ?? 's').toLowerCase();
  const perSecond = unit.startsWith('m') ? value / 60 : unit === 'h' ? value / 3600 : value;
  if (perSecond > MAX_RATE_PER_SECOND) {
    throw inputError(
      'SVC_E_LOAD_RATE',
      `Could not use ${flag} "${text}": ${formatRate(perSecond)}/s is above the ${formatRate(MAX_RATE_PER_SECOND)}/s one svc-cli load process can schedule.`,
      'Lower it, or run the same scenario on many machines (--export locust).',
    );
  }
  return perSecond;
}

/**
 * A rate per second as the summary prints it: 3 significant figures below 1000, whole above.
 * @example formatRate(200 / 3600) // '0.0556'
 */
export function formatRate(perSecond: number): string {
  return perSecond >= 1000
    ? String(Math.round(perSecond))
    : String(Number(perSecond.toPrecision(3)));
}

/** A fraction 0..1, from `1%`, `0.5%` or `0.01`. */
export function parseRatio(text: string, flag: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(%)?\s*$/.exec(text);
  const value = match ? Number(match[1]) / (match[2] ? 100 : 1) : Number.NaN;
  if (!match || !(value >= 0 && value <= 1)) {
    throw inputError(
      'SVC_E_LOAD_RATIO',
      `Could not read ${flag} "${text}": it must be a share between 0 and 100%.`,
      `For example ${flag} 1% or ${flag} 0.01.`,
    );
  }
  return value;
}

/**
 * What a threshold measures: a latency percentile, the failed share, the redelivered share
 * (payloads that needed a second attempt, spec 8), or the achieved rate.
 */
export type ThresholdMetric =
  'p50' | 'p90' | 'p95' | 'p99' | 'p999' | 'max' | 'mean' | 'failed' | 'redelivered' | 'rate';
export type ThresholdOp = '<' | '<=' | '>' | '>=';

export interface Threshold {
  /** as the user wrote it, for the report */
  text: string;
  metric: ThresholdMetric;
  op: ThresholdOp;
  /** ms for latencies, a fraction 0..1 for failed and redelivered, per second for rate */
  value: number;
}

const LATENCY = new Set(['p50', 'p90', 'p95', 'p99', 'p999', 'max', 'mean']);
/** The metrics that are a share of the payloads the endpoint settled. */
const SHARES = new Set(['failed', 'redelivered']);

/** Whether a threshold is a share of the settled payloads (`failed`, `redelivered`). */
export function isShare(metric: ThresholdMetric): metric is 'failed' | 'redelivered' {
  return SHARES.has(metric);
}

/**
 * `p99<500ms`, `max<=3s`, `failed<0.1%`, `redelivered<1%`, `rate>=190/s`.
 * @example parseThreshold('p99<500ms') // { metric: 'p99', op: '<', value: 500, ... }
 */
export function parseThreshold(text: string): Threshold {
  const match = /^\s*([a-z0-9]+)\s*(<=|>=|<|>)\s*(.+?)\s*$/i.exec(text);
  const metric = match?.[1]?.toLowerCase() ?? '';
  const op = match?.[2] as ThresholdOp | undefined;
  const raw = match?.[3] ?? '';
  const fail = (
    why: string,
    hint = "Thresholds: p50|p90|p95|p99|p999|max|mean<time (e.g. 'p99<500ms'), 'failed<0.1%', 'redelivered<1%', 'rate>=190/s'.",
  ) => inputError('SVC_E_LOAD_THRESHOLD', `Could not read --threshold "${text}": ${why}.`, hint);
  if (!match || op === undefined) throw fail('expected <metric><op><value>');
  // a bound the wrong way round ('p99>500ms', 'rate<10/s') passes a broken run: a latency and
  // a share are held under a ceiling, a rate over a floor
  const upper = op === '<' || op === '<=';
  if ((LATENCY.has(metric) || SHARES.has(metric)) && !upper)
    throw fail(
      `${metric} is held under a bound: use < or <=`,
      `For example --threshold '${metric}<${SHARES.has(metric) ? '1%' : raw || '500ms'}'.`,
    );
  if (metric === 'rate' && upper)
    throw fail(
      'rate is held over a bound: use >= or >',
      `For example --threshold 'rate>=${raw || '200/s'}'.`,
    );
  if (LATENCY.has(metric)) {
    if (!/^\d+(\.\d+)?\s*(ms|s|m)?$/i.test(raw)) throw fail(`"${raw}" is not a time such as 500ms`);
    const value =
      /ms$/i.test(raw) || /^\d+(\.\d+)?$/.test(raw)
        ? parseFloat(raw)
        : parseDuration(raw, '--threshold');
    return { text, metric: metric as ThresholdMetric, op, value };
  }
  // the examples are whole --threshold values: the parsers' own ("--threshold failed 1%")
  // would name a form this function refuses
  if (metric === 'failed' || metric === 'redelivered') {
    const value = readPart(() => parseRatio(raw, '--threshold'));
    if (value === undefined) {
      throw fail(
        `"${raw}" is not a share between 0 and 100%`,
        `For example --threshold '${metric}<1%' or --threshold '${metric}<0.01'.`,
      );
    }
    return { text, metric, op, value };
  }
  if (metric === 'rate') {
    const value = readPart(() => parseRate(raw, '--threshold'));
    if (value === undefined) {
      throw fail(
        `"${raw}" is not a rate such as 200/s`,
        "For example --threshold 'rate>=200/s' or --threshold 'rate>=6000/m'.",
      );
    }
    return { text, metric, op, value };
  }
  throw fail(`"${metric}" is not a metric`);
}

/** A part's parsed value, or undefined when its parser refused it (an input error). */
function readPart(parse: () => number): number | undefined {
  try {
    return parse();
  } catch (error) {
    if (error instanceof SvcError && error.category === 'input') return undefined;
    throw error;
  }
}

/** The figures a threshold is held against. */
export interface ThresholdFigures {
  latencyMs: Record<Exclude<ThresholdMetric, 'failed' | 'redelivered' | 'rate'>, number>;
  /**
   * failed / the payloads the endpoint settled (delivered, error reply or failed), 0 when it
   * settled none: a payload not sent (the generator saturated) or cut short by a stop is no
   * verdict of the endpoint's
   */
  failedShare: number;
  /**
   * the settled payloads that needed a redelivery (a second attempt went on the wire, spec 8) /
   * the payloads the endpoint settled; 0 when it settled none
   */
  redeliveredShare: number;
  /** the payloads the endpoint settled: the shares' denominator */
  settled?: number;
  /** completed series per second of the run */
  ratePerSecond: number;
}

export interface ThresholdResult {
  threshold: Threshold;
  /** the measured value in the threshold's unit */
  actual: number;
  ok: boolean;
  /** `failed`, `redelivered`: how many payloads the share is of (those the endpoint settled) */
  of?: number;
}

/** Holds each threshold against the figures. */
export function evaluateThresholds(
  thresholds: readonly Threshold[],
  figures: ThresholdFigures,
): ThresholdResult[] {
  return thresholds.map((threshold) => {
    const { metric } = threshold;
    const actual =
      metric === 'failed'
        ? figures.failedShare
        : metric === 'redelivered'
          ? figures.redeliveredShare
          : metric === 'rate'
            ? figures.ratePerSecond
            : figures.latencyMs[metric];
    // a share of nothing is no verdict: a run whose payloads all timed out or were cut short
    // showed a green 'failed<1% (0% of 0 settled)'
    const unjudged = isShare(metric) && figures.settled === 0;
    const ok = !unjudged && compare(actual, threshold.op, threshold.value);
    return isShare(metric) && figures.settled !== undefined
      ? { threshold, actual, ok, of: figures.settled }
      : { threshold, actual, ok };
  });
}

function compare(actual: number, op: ThresholdOp, value: number): boolean {
  switch (op) {
    case '<':
      return actual < value;
    case '<=':
      return actual <= value;
    case '>':
      return actual > value;
    case '>=':
      return actual >= value;
    default: {
      const never: never = op;
      throw new Error(`unknown operator ${String(never)}`);
    }
  }
}

/** Formats a threshold's measured value in its own unit, for the report. */
export function formatThresholdValue(metric: ThresholdMetric, value: number): string {
  if (isShare(metric)) return `${round(value * 100, 3)}%`;
  if (metric === 'rate') return `${round(value, 1)}/s`;
  return `${formatMs(value)}ms`;
}

/**
 * A threshold's measured value as the reports print it; a share says what it is of.
 * @example formatMeasured(result) // '100% of 10 settled'
 */
export function formatMeasured(result: ThresholdResult): string {
  const value = formatThresholdValue(result.threshold.metric, result.actual);
  return result.of === undefined ? value : `${value} of ${result.of} settled`;
}

/**
 * Why a threshold broke, as the reports print it: what was measured, or that a failed share
 * had nothing to be a share of.
 * @example brokenText(result) // 'measured 100% of 10 settled'
 */
export function brokenText(result: ThresholdResult): string {
  if (result.of === 0) return 'no payload settled, so nothing to judge';
  return `measured ${formatMeasured(result)}`;
}

/**
 * A latency as the summary table shows it (3 significant figures, as the histogram keeps
 * them): a threshold's "measured" value reads the same as the table's cell.
 * @example formatMs(192.51) // '193'
 */
export function formatMs(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
