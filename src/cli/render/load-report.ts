/**
 * `load --report`: the load run as one self-contained HTML file, in the report's own page (the
 * styles, dark mode, the filter and j / k of src/trace/html.ts): the thresholds (a broken one in
 * red, as a broken invariant is), the final states, and the latency of every answer, of each
 * attempt and of each payload end to end as bars of its percentiles (on one scale for every
 * block), read from the run's hdr histograms.
 */
import type { LatencySummary } from '../../load/figures.js';
import type { LoadSummary } from '../../load/run.js';
import type { LoadTraceFigures } from '../../load/trace.js';
import { brokenText, formatMs, formatRate, formatMeasured } from '../../load/spec.js';
import { htmlText as esc, reportEnd, reportHead, type ReportMade } from '../../trace/html.js';
import { cutShort } from './load.js';

const PERCENTILES = ['p50', 'p90', 'p95', 'p99', 'p999', 'max'] as const;

/**
 * One block's bars, on the scale every block of the run shares (`scaleMs`: the largest max).
 * Each block to its own max drew a first attempt of p99 5 ms as long as a payload's end to end
 * p99 of 6 s: the blocks read alike where they differ a thousandfold. The figures beside the
 * bars are absolute; a bar too short to see keeps a sliver.
 */
function latencyBlock(name: string, l: LatencySummary, scaleMs: number): string {
  // no answer in this block (a run stopped early): zeros would read as instant answers
  if (l.count === 0) return `<h3>${esc(name)} <span class="badge">no answer</span></h3>`;
  const bars = PERCENTILES.map((p) => {
    const width = scaleMs > 0 ? Math.max(0.5, (l[p] / scaleMs) * 85) : 0.5;
    return `<span class="name">${p}</span><span class="track"><span class="bar" data-p="${p}" style="width:${width.toFixed(1)}%"></span><span class="v">${esc(formatMs(l[p]))} ms</span></span>`;
  }).join('');
  return `<h3>${esc(name)} <span class="badge">${l.count} answers</span></h3><div class="bars" role="img" aria-label="${esc(name)} latency percentiles">${bars}</div>`;
}

/**
 * The run's own section: thresholds, final states, latency bars.
 * @example sink.write(loadSection(summary));
 */
export function loadSection(summary: LoadSummary): string {
  const broken = summary.thresholds.filter((t) => !t.ok);
  const problems = [
    ...broken.map(
      (t) =>
        `<li class="violation" data-threshold="${esc(t.threshold.text)}"><b>${esc(t.threshold.text)}</b>: ${esc(brokenText(t))}</li>`,
    ),
    ...(summary.accounted
      ? []
      : [
          '<li class="violation"><b>accounting</b>: the final states do not add up to the payloads sent</li>',
        ]),
    // a run cut short is no pass, whatever its figures so far say
    ...(summary.stopped === undefined
      ? []
      : [`<li class="violation"><b>cut short</b>: ${esc(cutShort(summary))}</li>`]),
  ];
  const held = summary.thresholds
    .filter((t) => t.ok)
    .map((t) => `<li class="ok-line">✓ ${esc(t.threshold.text)} (${esc(formatMeasured(t))})</li>`);
  const states = Object.entries(summary.states)
    .map(([state, n]) => `<tr><th>${esc(state)}</th><td>${n}</td></tr>`)
    .join('');
  const blocks: Array<[string, LatencySummary]> = [
    ...summary.latency.byAttempt
      .map((l, k) => [`attempt ${k + 1}`, l] as [string, LatencySummary])
      .filter(([, l]) => l.count > 0),
    ['every answer', summary.latency.answers],
    ['payload, end to end', summary.latency.series],
  ];
  // each kind of problem by its name: a run cut short read as "1 broken" beside thresholds
  // that all held
  const badges = [
    broken.length > 0 ? `${broken.length} broken` : '',
    summary.accounted ? '' : 'not accounted for',
    summary.stopped === undefined ? '' : 'cut short',
  ].filter(Boolean);
  const badge =
    badges.length > 0
      ? `<span class="badge bad">${badges.join(' · ')}</span>`
      : `<span class="badge">${summary.thresholds.length > 0 ? 'thresholds hold' : 'no thresholds'}</span>`;
  const scaleMs = Math.max(0, ...blocks.map(([, l]) => (l.count > 0 ? l.max : 0)));
  const scaleNote =
    scaleMs > 0
      ? `<p class="summary">latency bars share one scale, 0 to ${esc(formatMs(scaleMs))} ms</p>`
      : '';
  const reasons =
    summary.reasons.length === 0
      ? ''
      : `<p>why not delivered: ${summary.reasons.map((r) => `${esc(r.reason)} ×${r.count}`).join('; ')}</p>`;
  const section = `<section class="conv${problems.length > 0 ? ' has-bad' : ''}" id="load" tabindex="0" aria-label="load ${esc(summary.role)}"><h2>load ${esc(summary.role)} → ${esc(summary.url)} ${badge}</h2><p class="summary"><span><b>${summary.sent}</b> sent</span><span><b>${formatRate(summary.plannedRate)}</b>/s planned</span><span><b>${summary.ratePerSecond.toFixed(1)}</b>/s delivered</span><span><b>${summary.attemptsPerSeries > 0 ? summary.attemptsPerSeries.toFixed(2) : '—'}</b> attempts per payload sent</span><span>settled after <b>${(summary.elapsedMs / 1000).toFixed(1)} s</b></span></p>${problems.length > 0 ? `<ul class="violations">${problems.join('')}</ul>` : ''}${held.length > 0 ? `<ul class="violations">${held.join('')}</ul>` : ''}<table class="states">${states}</table>${reasons}${scaleNote}${blocks.map(([name, l]) => latencyBlock(name, l, scaleMs)).join('')}<p class="summary">generator: peak ${summary.generator.peakInFlight} of ${summary.generator.pool} attempts on the wire, max lag ${summary.generator.maxLagMs} ms</p></section>\n`;
  return section;
}

/**
 * The whole page of a load run without conversations.
 * @example writeFileSync('load.html', loadReportHtml(summary, 'svc-cli load integrator'));
 */
export function loadReportHtml(summary: LoadSummary, title: string, made?: ReportMade): string {
  return `${reportHead(title, false, made)}${loadSection(summary)}${reportEnd()}`;
}

/**
 * The line before the conversations' lanes: which of the run's conversations were recorded
 * (a sample when there were many) and how many exchanges of them.
 * @example sink.write(sampleNote(trace.figures));
 */
export function sampleNote(f: LoadTraceFigures, disabled: readonly string[] = []): string {
  const all = f.sampled >= f.conversations;
  const which = all
    ? f.conversations === 1
      ? 'the one conversation of the run'
      : `all ${f.conversations} conversations of the run`
    : `a sample: the first ${f.sampled} of the run's ${f.conversations} conversations`;
  const capped =
    f.capped > 0
      ? ` The recording stopped at ${f.records} exchanges: ${f.capped} later series of these conversations are not drawn.`
      : '';
  const unchecked =
    disabled.length === 0
      ? ''
      : ` Not checked: ${disabled.map(esc).join(', ')} (a load run sends at the planned times, whatever came before).`;
  // the page's counts above are the drawn sample's, not the run's: said where a sample is
  const exchanges = `${f.records} exchange${f.records === 1 ? '' : 's'}`;
  const drawn = all
    ? exchanges
    : `${exchanges} of these ${f.sampled} (the counts at the top are the sample's; the run's own are in the section above)`;
  return `<h2 id="conversations">Conversations</h2><p class="summary sample" data-sampled="${f.sampled}" data-conversations="${f.conversations}">Lanes of ${which}, ${drawn} as the simulator would journal them, checked against the invariants.${unchecked}${capped}</p>\n`;
}
