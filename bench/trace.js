// Trace and report (issue 47, "Cost"): tracing is always on, so reading a trace must be cheap.
// - `trace --json` and `report` streaming a generated 1M-exchange recording
//   (bench/trace-recording.js, whole chats interleaved 50 at a time): peak RSS (bounded
//   memory: target < 250 MB whatever the file's size) and exchanges per second, against a
//   plain line count of the same file (readline, no parsing) and a readline + JSON.parse pass
//   as the in-run baselines. BENCH_TRACE_EXCHANGES lowers the count.
// - the HTML report of a 100k-exchange load run (the platform's journal under
//   `load channel --customers 100`, generated) and of 100k exchanges of whole chats: its size
//   (target < 20 MB) and the time Chromium takes from navigation to the load event and first
//   paint (target < 3 s), median of 3 loads. Skipped without /usr/bin/chromium.
// - `load --report` (its sampled conversations' lanes): a load run with and without it against
//   a `listen` process, CPU seconds and peak RSS of the load process (median of 3), and the
//   report's size. BENCH_LOAD_REPORT_COUNT sets the payloads (default 5,000 at 500/s).
// The ingest ratio with the trace recorded is bench/channel.js's (its simulator journals to
// disk with --record, and every record carries the trace fields).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writeRecording } from './trace-recording.js';

const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));
const EXCHANGES = Number(process.env.BENCH_TRACE_EXCHANGES ?? 1_000_000);
const CHROMIUM = '/usr/bin/chromium';
const RSS_TARGET_MB = 250;

// A preload that prints the process's peak RSS as it exits (resourceUsage: kilobytes).
const PEAK = `data:text/javascript,import{writeSync}from"node:fs";process.on("exit",()=>{const u=process.resourceUsage();writeSync(2,"\\npeak-rss "+u.maxRSS+" cpu-us "+(u.userCPUTime+u.systemCPUTime)+"\\n")})`;

const LINE_COUNT = `
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
let n = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) if (line) n++;
console.log(n);`;
const PARSE = `
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
let n = 0;
for await (const line of createInterface({ input: createReadStream(process.argv[1]), crlfDelay: Infinity })) if (line && JSON.parse(line).type === 'exchange') n++;
console.log(n);`;

/** Runs node with `args`, output to /dev/null; resolves with seconds and peak RSS in MB. */
function measure(args) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', PEAK, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk) => (err += chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      const kb = Number(/peak-rss (\d+)/.exec(err)?.[1] ?? NaN);
      const cpuSeconds = Number(/cpu-us (\d+)/.exec(err)?.[1] ?? NaN) / 1e6;
      if (code !== 0 && code !== 1) reject(new Error(`${args.join(' ')} exited ${code}: ${err}`));
      else resolve({ seconds, rssMb: kb / 1024, cpuSeconds });
    });
  });
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

async function streaming(dir) {
  const rows = [];
  const file = join(dir, 'big.ndjson');
  const bytes = writeRecording(file, EXCHANGES, 'conversations');
  const label = `${(EXCHANGES / 1e6).toLocaleString('en')}M exchanges, ${mb(bytes)} MB`;
  const perSecond = (r) => Math.round(EXCHANGES / r.seconds).toLocaleString('en');
  const baseline = await measure(['--input-type=module', '-e', LINE_COUNT, file]);
  rows.push({
    section: 'trace',
    metric: `baseline: line count of the recording (${label}): exchanges/s, peak RSS MB`,
    value: `${perSecond(baseline)}/s, ${baseline.rssMb.toFixed(0)} MB`,
  });
  const parse = await measure(['--input-type=module', '-e', PARSE, file]);
  rows.push({
    section: 'trace',
    metric: 'baseline: readline + JSON.parse per line: exchanges/s, / line count',
    value: `${perSecond(parse)}/s, ${(baseline.seconds / parse.seconds).toFixed(2)}x`,
  });
  for (const [name, args] of [
    ['trace --json', [bin, '--json', 'trace', file]],
    ['report', [bin, 'report', file, '--out', join(dir, 'big.html')]],
  ]) {
    const r = await measure(args);
    rows.push({
      section: 'trace',
      metric: `${name}: exchanges/s, / line count, / JSON.parse`,
      value: `${perSecond(r)}/s, ${(baseline.seconds / r.seconds).toFixed(2)}x, ${(parse.seconds / r.seconds).toFixed(2)}x`,
    });
    rows.push({
      section: 'trace',
      metric: `${name}: peak RSS over the ${mb(bytes)} MB recording (MB)`,
      value: r.rssMb.toFixed(0),
      target: `< ${RSS_TARGET_MB}`,
      ok: r.rssMb < RSS_TARGET_MB,
    });
  }
  const html = join(dir, 'big.html');
  if (existsSync(html))
    rows.push({
      section: 'trace',
      metric: `report of the ${(EXCHANGES / 1e6).toLocaleString('en')}M exchanges: HTML size (MB)`,
      value: mb(statSync(html).size),
    });
  rmSync(file, { force: true });
  rmSync(html, { force: true });
  return rows;
}

/** Median over 3 loads of navigation start -> max(load event end, first paint), in ms. */
async function renderMs(browser, url) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    // first paint comes after the load event on a big page: wait for the next frame
    await page.evaluate(
      () =>
        new Promise((resolve) => globalThis.requestAnimationFrame(() => setTimeout(resolve, 0))),
    );
    const t = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const paint = performance.getEntriesByType('paint').map((p) => p.startTime);
      return Math.max(nav.loadEventEnd, ...paint);
    });
    times.push(t);
    await page.close();
  }
  return times.sort((a, b) => a - b)[1];
}

async function htmlReports(dir) {
  const rows = [];
  const reports = [];
  for (const [shape, what] of [
    ['load', 'a 100k-exchange load run (load channel, 100 customers)'],
    ['conversations', '100k exchanges of whole chats (about 14,300 chats)'],
  ]) {
    const file = join(dir, `${shape}.ndjson`);
    writeRecording(file, 100_000, shape);
    const html = join(dir, `${shape}.html`);
    await measure([bin, 'report', file, '--out', html]);
    const size = statSync(html).size;
    rows.push({
      section: 'trace',
      metric: `HTML report of ${what}: size (MB)`,
      value: mb(size),
      target: '< 20',
      ok: size < 20 * 1024 * 1024,
    });
    reports.push({ html, what });
  }
  if (!existsSync(CHROMIUM)) {
    rows.push({ section: 'trace', metric: 'report render time', value: `skipped: no ${CHROMIUM}` });
    return rows;
  }
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const { html, what } of reports) {
      const ms = await renderMs(browser, pathToFileURL(html).href);
      rows.push({
        section: 'trace',
        metric: `HTML report of ${what}: Chromium load event + first paint (ms, median of 3)`,
        value: Math.round(ms),
        target: '< 3000',
        ok: ms < 3000,
      });
    }
  } finally {
    await browser.close();
  }
  return rows;
}

/** Starts `listen` (the built CLI) and resolves with its URL and a stop function. */
function startListener() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '--json', 'listen', '--port', '0', '--quiet'], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    child.once('error', reject);
    child.stdout.once('data', (chunk) => {
      const { url } = JSON.parse(String(chunk).split('\n')[0]);
      child.stdout.resume(); // its later notices are not read
      resolve({ url, stop: () => child.kill('SIGINT') });
    });
  });
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function loadReport(dir) {
  const count = Number(process.env.BENCH_LOAD_REPORT_COUNT ?? 5_000);
  const listener = await startListener();
  const html = join(dir, 'load.html');
  const base = [bin, 'load', 'integrator', '--url', listener.url, '--rate', '500/s'];
  const args = [...base, '--count', String(count), '--customers', '100', '--no-calibrate'];
  const runs = { without: [], with: [] };
  try {
    for (let i = 0; i < 3; i++) {
      runs.without.push(await measure(args));
      runs.with.push(await measure([...args, '--report', html]));
    }
  } finally {
    listener.stop();
  }
  const cpu = (k) => median(runs[k].map((r) => r.cpuSeconds));
  const rss = (k) => median(runs[k].map((r) => r.rssMb));
  const what = `load integrator, ${count.toLocaleString('en')} payloads at 500/s, 100 customers`;
  return [
    {
      section: 'trace',
      metric: `${what}: CPU s without --report, with (median of 3)`,
      value: `${cpu('without').toFixed(2)}, ${cpu('with').toFixed(2)} (${(cpu('with') / cpu('without')).toFixed(2)}x)`,
    },
    {
      section: 'trace',
      metric: `${what}: peak RSS MB without --report, with`,
      value: `${rss('without').toFixed(0)}, ${rss('with').toFixed(0)}`,
    },
    {
      section: 'trace',
      metric: `${what}: --report HTML size (MB, 50 conversations drawn)`,
      value: mb(statSync(html).size),
    },
  ];
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-trace-'));
  try {
    return [...(await loadReport(dir)), ...(await htmlReports(dir)), ...(await streaming(dir))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
