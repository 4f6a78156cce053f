/**
 * How `load` prints: a live progress line on a TTY, a summary table, JUnit (one testcase per
 * threshold, plus the accounting check).
 */
import type { ChalkInstance } from 'chalk';
import type { Writable } from 'node:stream';
import type { LatencySummary } from '../../load/figures.js';
import type { LoadProgressEvent, LoadSummary } from '../../load/run.js';
import { brokenText, formatMs as ms, formatRate, formatMeasured } from '../../load/spec.js';
import { toJunit } from './reporters/junit.js';

/**
 * One line, redrawn in place: elapsed, sent, settled, rate, this second's p50/p99 ("—" when no
 * answer came in it, never 0), and how long the oldest attempt on the wire has waited.
 */
export function formatLoadProgress(event: LoadProgressEvent): string {
  const latency =
    event.answers > 0 ? `p50 ${ms(event.p50Ms)} ms  p99 ${ms(event.p99Ms)} ms` : 'p50 —  p99 —';
  const waiting =
    event.oldestOnWireMs > 0
      ? `  oldest waiting ${(event.oldestOnWireMs / 1000).toFixed(1)} s`
      : '';
  return `${(event.elapsedMs / 1000).toFixed(0).padStart(4)}s  sent ${event.sent}  settled ${event.settled} (${event.ratePerSecond}/s)  ${latency}  in flight ${event.inFlight}${waiting}  failed ${event.failed}${event.notSent > 0 ? `  not sent ${event.notSent}` : ''}`;
}

/** Draws `text` over the current line of a TTY stream; `undefined` clears it. */
export function writeProgressLine(stream: Writable, text: string | undefined): void {
  stream.write(`\r\x1b[2K${text ?? ''}`);
}

/** A row of the latency table; an empty one says so rather than show zeros as latencies. */
function latencyRow(label: string, s: LatencySummary, empty = 'no answer'): string {
  if (s.count === 0) return `  ${label.padEnd(22)}${'0'.padStart(9)}${'—'.padStart(9)}  ${empty}`;
  const cells = [s.count, ms(s.p50), ms(s.p90), ms(s.p99), ms(s.max)].map((v) =>
    String(v).padStart(9),
  );
  return `  ${label.padEnd(22)}${cells.join('')}`;
}

/**
 * Where an integrator load posts is not --url itself: spec 4.2 puts the channel id after it
 * (`--channel`, default `load`). The header says so, or a reader compares it with --url.
 */
function postedTo(summary: LoadSummary, c: ChalkInstance): string {
  if (summary.role !== 'integrator') return '';
  const channel = /\/([^/]+)$/.exec(summary.url)?.[1] ?? 'load';
  return c.dim(`  (--url + /${channel}: the channel id, spec 4.2; --channel <id> sets it)`);
}

/**
 * Why "all accounted for" is not the whole story when customers outnumber the platform's chats.
 * @example chatChurn({ customers: 2000, maxChats: 1000 })
 */
export function chatChurn(cap: { customers: number; maxChats: number }): string {
  return `${cap.customers} customers but the platform keeps at most ${cap.maxChats} chats (its --max-chats): each new chat closes an older one, so customers' chats are closed and reopened during the run. Give the platform --max-chats above --customers, or fewer --customers.`;
}

/**
 * How long the arrivals and the run took. The window is N / rate, one interval past the last
 * arrival, so a run whose answers came at once ends inside it: "arrivals over 0.5 s, settled
 * after 0.4 s" read as settling before the arrivals were over.
 * @example settledLine({ arrivalWindowMs: 500, elapsedMs: 405 }) // 'arrivals over 0.5 s, all settled within it'
 */
export function settledLine(summary: Pick<LoadSummary, 'arrivalWindowMs' | 'elapsedMs'>): string {
  const window = (summary.arrivalWindowMs / 1000).toFixed(1);
  const elapsed = (summary.elapsedMs / 1000).toFixed(1);
  return summary.elapsedMs <= summary.arrivalWindowMs
    ? `arrivals over ${window} s, all settled within it`
    : `arrivals over ${window} s, settled after ${elapsed} s`;
}

/**
 * The rates are per second of the arrival window (the `rate` threshold's figure, which a run
 * that keeps up meets at its planned rate); a burst whose answers took far longer reads high
 * by that measure, so the line says which window it is when the settling outlasted it.
 */
function rateWindowNote(summary: Pick<LoadSummary, 'arrivalWindowMs' | 'elapsedMs'>): string {
  const { arrivalWindowMs: window, elapsedMs: elapsed } = summary;
  return elapsed > 2 * window && elapsed - window >= 1000
    ? ` (per second of the ${(window / 1000).toFixed(1)} s of arrivals, not of the ${(elapsed / 1000).toFixed(1)} s until all settled)`
    : '';
}

/** The summary a person reads at the end of a run. */
export function formatLoadSummary(summary: LoadSummary, c: ChalkInstance): string {
  const s = summary.states;
  const lines = [
    '',
    c.bold(`load ${summary.role} -> ${summary.url}`) + postedTo(summary, c),
    `  planned ${summary.planned} at ${formatRate(summary.plannedRate)}/s; ${settledLine(summary)}${summary.stopped ? c.yellow(` (stopped: ${summary.stopped})`) : ''}`,
    `  sent ${summary.sent} = delivered ${s.delivered} + error reply ${s['error-reply']} + failed ${s.failed} + not sent ${s['not-sent']} + interrupted ${s.interrupted}  ${summary.accounted ? c.green('all accounted for') : c.red('NOT all accounted for')}`,
  ];
  if (summary.chatCap) lines.push(c.yellow(`  warning: ${chatChurn(summary.chatCap)}`));
  if (s['not-sent'] > 0) {
    lines.push(
      c.yellow(
        `  not sent: load generator saturated (${summary.generator.pool} payloads under way, --max-in-flight); not the endpoint's failures`,
      ),
    );
  }
  if (summary.invalid.sent > 0) {
    const i = summary.invalid.states;
    lines.push(
      `  broken on purpose ${summary.invalid.sent}: accepted ${i.delivered + i['error-reply']}, refused ${i.failed}`,
    );
  }
  lines.push(
    // each rate named: an error reply is an answer, not a delivery
    `  attempts per payload sent ${summary.attemptsPerSeries > 0 ? summary.attemptsPerSeries.toFixed(2) : '—'}; delivered ${summary.ratePerSecond.toFixed(1)}/s, error reply ${summary.errorReplyPerSecond.toFixed(1)}/s${rateWindowNote(summary)}`,
    c.dim(
      `  latency (ms)${'count'.padStart(19)}${'p50'.padStart(9)}${'p90'.padStart(9)}${'p99'.padStart(9)}${'max'.padStart(9)}`,
    ),
    ...summary.latency.byAttempt
      .filter((a) => a.count > 0)
      .map((a, k) => latencyRow(`attempt ${k + 1}`, a)),
    latencyRow('every answer', summary.latency.answers),
    latencyRow('payload, end to end', summary.latency.series, 'no payload finished'),
  );
  if (summary.reasons.length > 0) {
    lines.push(
      `  why not delivered: ${summary.reasons.map((r) => `${r.reason} x${r.count}`).join('; ')}`,
    );
  }
  lines.push(
    c.dim(
      `  generator: peak ${summary.generator.peakInFlight} of ${summary.generator.pool} attempts on the wire, max lag ${summary.generator.maxLagMs} ms`,
    ),
  );
  for (const t of summary.thresholds) {
    const value = formatMeasured(t);
    lines.push(
      t.ok
        ? c.green(`  ✓ ${t.threshold.text} (${value})`)
        : c.red(`  ✗ ${t.threshold.text} (${brokenText(t)})`),
    );
  }
  return lines.join('\n');
}

/**
 * The run in one line, for the terminal when the report goes to --out (as replay and conform
 * say their counts there): the final states, the end-to-end latency, each threshold broken.
 * @example formatLoadCounts(summary) // 'sent 40: delivered 40, ...; payload p50 3 ms, p99 9 ms; thresholds 1 passed, 0 failed'
 */
export function formatLoadCounts(summary: LoadSummary): string {
  const s = summary.states;
  const series = summary.latency.series;
  const broken = summary.thresholds.filter((t) => !t.ok);
  const parts = [
    `sent ${summary.sent}: delivered ${s.delivered}, error reply ${s['error-reply']}, failed ${s.failed}, not sent ${s['not-sent']}, interrupted ${s.interrupted}${summary.accounted ? '' : ' (NOT all accounted for)'}`,
    series.count === 0
      ? 'no payload finished'
      : `payload p50 ${ms(series.p50)} ms, p99 ${ms(series.p99)} ms`,
    ...(summary.thresholds.length === 0
      ? []
      : [
          `thresholds ${summary.thresholds.length - broken.length} passed, ${broken.length} failed${broken
            .map((t, i) => `${i === 0 ? ': ' : ', '}✗ ${t.threshold.text} (${brokenText(t)})`)
            .join('')}`,
        ]),
    ...(summary.stopped === undefined ? [] : [cutShort(summary)]),
    ...(summary.chatCap
      ? [`${summary.chatCap.customers} customers > --max-chats ${summary.chatCap.maxChats}`]
      : []),
  ];
  return parts.join('; ');
}

/**
 * JUnit: the accounting check and one testcase per threshold, each judged over the whole run
 * (the suite's time is the run's once, not once per testcase); a run a signal stopped is an
 * `Interrupted` error, as replay's and conform's are (docs/ci.md).
 */
export function loadJunit(summary: LoadSummary): string {
  const testcase = (name: string, ok: boolean, detail: string, failureType?: string) => ({
    name,
    file: `load ${summary.role}`,
    ok,
    ...(failureType === undefined ? {} : { failureType }),
    steps: [
      {
        index: 0,
        name,
        kind: 'expect' as const,
        status: ok ? ('passed' as const) : ('failed' as const),
        details: [detail],
        protocolMs: 0,
        wallMs: 0,
      },
    ],
    protocolMs: summary.elapsedMs,
    wallMs: summary.elapsedMs,
  });
  const s = summary.states;
  const finished = testcase('the run finished its plan', false, cutShort(summary), 'RunCutShort');
  return toJunit(
    `svc-cli load ${summary.role}`,
    [
      testcase(
        'every payload sent is accounted for',
        summary.accounted,
        `sent ${summary.sent}: delivered ${s.delivered}, error reply ${s['error-reply']}, failed ${s.failed}, not sent ${s['not-sent']}, interrupted ${s.interrupted}`,
        'PayloadsUnaccounted',
      ),
      ...summary.thresholds.map((t) =>
        testcase(t.threshold.text, t.ok, brokenText(t), 'ThresholdBroken'),
      ),
      // a run cut short is no pass (docs/ci.md), whatever its figures so far say: a signal's
      // stop an Interrupted error, --abort-on-fail's a failure
      ...(summary.stopped === undefined
        ? []
        : [
            summary.stopped === 'interrupted'
              ? { ...finished, interrupted: cutShort(summary) }
              : finished,
          ]),
    ],
    summary.elapsedMs,
  );
}

/**
 * What a run that stopped before its plan did of it.
 * @example cutShort(summary) // 'stopped (interrupted) after sending 480 of 2000 planned'
 */
export function cutShort(summary: LoadSummary): string {
  return `stopped (${summary.stopped ?? ''}) after sending ${summary.sent} of ${summary.planned} planned`;
}
