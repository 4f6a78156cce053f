// Channel (issue 3): simulator ingest req/s with validation and journal on, as a ratio to a
// bare node:http server that parses JSON, both in child processes, loaded by autocannon from
// this process (50 connections, loopback); agent messages delivered per second; redelivery
// attempt offsets at time scale 1; RSS after 100k ingested messages.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const body = JSON.stringify({
  sender: { id: 'c-1', name: 'Ann' },
  message: { type: 'text', text: 'Hello, where is my order?' },
});

const BARE = `
const http = require('node:http');
const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try { JSON.parse(Buffer.concat(chunks).toString('utf8')); } catch { res.writeHead(400); res.end(); return; }
    const out = '{"result":"ok"}';
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': out.length });
    res.end(out);
  });
});
server.listen(0, '127.0.0.1', () => console.log(JSON.stringify({ type: 'listening', url: 'http://127.0.0.1:' + server.address().port })));
`;

/** Starts a child that prints a `listening` NDJSON line first; resolves with it and the child. */
export function startChild(args) {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, listening: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`child exited ${code}`)));
  });
}

const load = (url, extra = {}) =>
  autocannon({
    url,
    method: 'POST',
    connections: 50,
    duration: DURATION,
    headers: { 'content-type': 'application/json' },
    body,
    ...extra,
  });

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

/**
 * Seconds each server is loaded before the timed rounds, not timed. A simulator compiles its
 * code in its first seconds under load: in six alternating 2 s rounds (two runs), its first
 * served 16.0-16.3k req/s and the others 20.2-23.7k, while the bare server's first was like
 * its others; the ratio read 0.51-0.54x in the first round against 0.53-0.72x after. A
 * simulator serves for minutes, so the figure is of the warm one, as the bot benches' are
 * (bench/round-trips.js WARM_UP_S).
 */
const WARM_UP_S = 2;

/** Clock ticks per second of /proc's CPU times (Linux); 100 where getconf cannot say. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/**
 * The CPU seconds (user + system) process `pid` has used, from /proc (Linux); undefined
 * where there is no /proc.
 */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/**
 * Loads each URL in turn, `rounds` times (A B A B ...): drift in machine load hits both alike.
 * Four short rounds rather than two long ones: on a shared 2-core machine single runs of the
 * same server vary by +-15%, and more alternation averages that out.
 */
async function alternate(servers, rounds = 4) {
  for (const { url } of servers) await load(url, { duration: WARM_UP_S });
  const totals = servers.map(() => ({
    requests: 0,
    seconds: 0,
    total: 0,
    non2xx: 0,
    p99: [],
    perRound: [],
    cpu: 0,
  }));
  for (let r = 0; r < rounds; r++) {
    for (const [i, { url, pid }] of servers.entries()) {
      const cpuBefore = cpuSeconds(pid);
      const result = await load(url, { duration: Math.max(1, DURATION / rounds) });
      totals[i].cpu += (cpuSeconds(pid) ?? NaN) - (cpuBefore ?? NaN);
      totals[i].requests += result.requests.average * result.duration;
      totals[i].seconds += result.duration;
      totals[i].total += result.requests.total;
      totals[i].non2xx += result.non2xx;
      totals[i].p99.push(result.latency.p99);
      totals[i].perRound.push(result.requests.average);
    }
  }
  return totals.map((t) => ({
    average: t.requests / t.seconds,
    total: t.total,
    non2xx: t.non2xx,
    // the mean of the rounds' p99 (ms): rounds alternate, so a slow minute of the host
    // weighs on both servers alike
    p99: t.p99.reduce((sum, v) => sum + v, 0) / t.p99.length,
    perRound: t.perRound,
    // the server's CPU per answered request (µs): both servers use a core each under this
    // load, so their ratio is the one above, without the noise of how fast the client ran
    cpuPerRequestUs: (t.cpu / t.total) * 1e6,
  }));
}

export async function run() {
  const rows = [];
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
  const bare = await startChild(['-e', BARE]);
  // The target: validation and the journal to disk on, no line per request (--quiet).
  const startSimulator = (journal, ...flags) =>
    startChild([
      bin,
      '--json',
      'platform',
      '--port',
      '0',
      '--no-console',
      ...flags,
      '--record',
      join(dir, journal),
    ]);
  const sim = await startSimulator('journal.ndjson', '--quiet');
  const channelUrl = sim.listening.channels[0].url;
  const [bareResult, simResult] = await alternate([
    { url: bare.listening.url, pid: bare.child.pid },
    { url: channelUrl, pid: sim.child.pid },
  ]);
  await stop(bare.child);
  const ratio = simResult.average / bareResult.average;
  rows.push({
    section: 'channel',
    metric: 'bare node:http JSON server (req/s)',
    value: Math.round(bareResult.average),
  });
  rows.push({
    section: 'channel',
    metric: 'simulator ingest, validation + journal to disk, --quiet (req/s)',
    value: Math.round(simResult.average),
  });
  rows.push({
    section: 'channel',
    metric: 'simulator / bare (alternating runs)',
    value: `${ratio.toFixed(2)}x`,
    target: '>= 0.8x',
    ok: ratio >= 0.8,
  });
  // the spread of the rounds' own ratios: how much of the figure above is the host's noise
  // (beside other work on this 2-core machine, one run's rounds read from 0.93x to 1.65x)
  const roundRatios = simResult.perRound.map((v, i) => v / bareResult.perRound[i]);
  rows.push({
    section: 'channel',
    metric: 'simulator / bare, each round (lowest-highest)',
    value: `${Math.min(...roundRatios).toFixed(2)}-${Math.max(...roundRatios).toFixed(2)}x`,
  });
  if (Number.isFinite(simResult.cpuPerRequestUs) && Number.isFinite(bareResult.cpuPerRequestUs))
    rows.push({
      section: 'channel',
      metric: 'server CPU per request, simulator / bare (µs; 0.8x allows bare / 0.8)',
      value: `${simResult.cpuPerRequestUs.toFixed(1)} / ${bareResult.cpuPerRequestUs.toFixed(1)} (allowed ${(bareResult.cpuPerRequestUs / 0.8).toFixed(1)})`,
    });
  const p99Ratio = simResult.p99 / bareResult.p99;
  rows.push({
    section: 'channel',
    metric: 'p99 latency, simulator / bare (ms, mean of the rounds)',
    value: `${simResult.p99.toFixed(1)} / ${bareResult.p99.toFixed(1)} = ${p99Ratio.toFixed(2)}x`,
    target: '<= 1.5x',
    ok: p99Ratio <= 1.5,
  });
  if (simResult.non2xx > 0)
    rows.push({
      section: 'channel',
      metric: 'non-2xx answers during load',
      value: simResult.non2xx,
      ok: false,
    });

  await stop(sim.child);

  // RSS after 100k ingested messages, on a fresh simulator (the runs above ingest more than
  // that now, and RSS keeps its high-water mark): with --record (the file is the journal's
  // store) and without (the last 1,000 records kept in memory).
  const rssAfter100k = async (simulator, label) => {
    const result = await autocannon({
      url: simulator.listening.channels[0].url,
      method: 'POST',
      connections: 50,
      amount: 100_000,
      headers: { 'content-type': 'application/json' },
      body,
    });
    const state = await (await fetch(`${simulator.listening.url}/_sim/state`)).json();
    const rssMb = state.rssBytes / 1024 / 1024;
    const failed = result.non2xx + result.errors;
    rows.push({
      section: 'channel',
      metric: `RSS after ${state.journal} ingested messages, ${label} (MB)`,
      value: failed > 0 ? `${rssMb.toFixed(0)} (${failed} failed)` : rssMb.toFixed(0),
      target: '< 150',
      ok: rssMb < 150 && failed === 0,
    });
    await stop(simulator.child);
  };
  await rssAfter100k(await startSimulator('rss.ndjson', '--quiet'), '--record');
  await rssAfter100k(
    await startChild([bin, '--json', 'platform', '--port', '0', '--no-console', '--quiet']),
    'journal in memory',
  );

  // Context: the same with one NDJSON event line per request on stdout (read by this process).
  const loud = await startSimulator('loud.ndjson');
  const loudResult = await load(loud.listening.channels[0].url);
  await stop(loud.child);
  rows.push({
    section: 'channel',
    metric: 'simulator ingest with an NDJSON event line per request (--json), / bare',
    value: `${Math.round(loudResult.requests.average)} req/s, ${(loudResult.requests.average / bareResult.average).toFixed(2)}x`,
  });

  rmSync(dir, { recursive: true, force: true }); // the journals: 100k+ exchanges

  rows.push(...(await runDelivery()));
  return rows;
}

/** In process: delivery throughput to a fast listener, and the attempt offsets at scale 1. */
async function runDelivery() {
  const { createPlatform, sendAgentMessage } = await import('../dist/platform/index.js');
  const { createListener } = await import('../dist/roles/integrator/index.js');
  const { createClock } = await import('../dist/clock.js');
  const rows = [];
  {
    const clock = createClock();
    const listener = await createListener({ clock });
    const platform = createPlatform({
      clock,
      channels: [{ id: 'bench', integratorUrl: listener.url }],
    });
    await platform.listen({ port: 0 });
    const channelUrl = platform.core.channelInfo(platform.core.state.channels.get('bench')).url;
    await fetch(channelUrl, { method: 'POST', body });
    const N = 5000;
    const started = performance.now();
    let next = 0;
    const worker = async () => {
      while (next < N) {
        next++;
        const result = await sendAgentMessage(platform.core, {
          customerId: 'c-1',
          message: { type: 'text', text: 'ok' },
        });
        if (result.result !== 'delivered') throw new Error(`not delivered: ${result.result}`);
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    const perSecond = N / ((performance.now() - started) / 1000);
    rows.push({
      section: 'channel',
      metric: 'agent messages delivered to a fast listener (msg/s, 50 in flight)',
      value: Math.round(perSecond),
    });
    await platform.close();
    await listener.close();
  }
  {
    const clock = createClock({ timeScale: 1 });
    const listener = await createListener({ clock, plan: { failFirst: 2 } });
    const platform = createPlatform({
      clock,
      channels: [{ id: 'bench', integratorUrl: listener.url }],
    });
    await platform.listen({ port: 0 });
    const offsets = [];
    platform.core.on((event) => {
      if (event.type === 'delivery-attempt') offsets.push(event.offsetMs);
    });
    const channelUrl = platform.core.channelInfo(platform.core.state.channels.get('bench')).url;
    await fetch(channelUrl, { method: 'POST', body });
    await sendAgentMessage(platform.core, {
      customerId: 'c-1',
      message: { type: 'text', text: 'timed' },
    });
    const drift = Math.max(...offsets.map((o, i) => Math.abs(o - i * 3000)));
    rows.push({
      section: 'channel',
      metric: 'redelivery attempt offsets at time scale 1 (ms)',
      value: offsets.map((o) => o.toFixed(1)).join(' / '),
      target: '0 / 3000 / 6000 ± 20',
      ok: offsets.length === 3 && drift <= 20,
    });
    await platform.close();
    await listener.close();
  }
  return rows;
}
