// Timing under load (issue 18 part 4): the protocol timers and the bot round trip while a
// simulator ingests at full speed (autocannon, 50 connections, in a child process).
// The world in this process: a simulator (validation, the journal to disk, a bot attached to
// one channel), bot-sim and two listeners. Measured three times in the same run:
//   - no load (the baseline);
//   - the ingest bench beside it: a second simulator, `svc-cli platform --quiet --record`, in
//     a child process, loaded by autocannon: the two compete for this machine's 2 cores;
//   - the ingest on this very simulator's other channel: its event loop is never idle.
// Each time: two redelivery series (a listener failing the first 2 attempts; attempts due at
// 0 / 3000 / 6000 ms, target within 20 ms, as the simulator started them), 200 conversations
// with bot-sim, each customer once a second (round trip from the customer's POST to the bot's
// answer at the integrator, target p99 < 10 ms), and the event loop's delay. With no load and
// beside the ingest bench, the same round trips are timed between bare node:http servers
// (bench/bare-round-trip.js) in the same window, second by second in turn with the world's:
// the machine's floor, a baseline met under the same load at the same moments (a floor timed
// in a window of its own met another minute of this shared host, and another phase of the
// ingest simulator: its first seconds under load are its slowest).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { createClock } from '../dist/clock.js';
import { postJson } from '../dist/http/client.js';
import { createJournal } from '../dist/journal/journal.js';
import { createPlatform, sendAgentMessage } from '../dist/platform/index.js';
import { createBotProvider } from '../dist/roles/bot/index.js';
import { createListener } from '../dist/roles/integrator/index.js';
import { startBareWorld } from './bare-round-trip.js';
import { startChild } from './channel.js';
import { WARM_UP_S, asServed, percentile, trackRoundTrips } from './round-trips.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONVERSATIONS = 200;
const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));
const autocannonBin = fileURLToPath(
  new URL('../node_modules/autocannon/autocannon.js', import.meta.url),
);
const body = JSON.stringify({
  sender: { id: 'load-1', name: 'Ann' },
  message: { type: 'text', text: 'Hello, where is my order?' },
});

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * How long this thread (the event loop's) has waited for a CPU while ready to run, in ms:
 * the kernel's run-queue wait (Linux schedstat); undefined where there is none. Beside the
 * ingest bench, it tells the machine's share of the tail from the event loop's own.
 */
function runQueueWaitMs() {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return undefined;
  }
}

/** The world: simulator, listeners and bot-sim, in this process; the journal to a file. */
async function startWorld(dir) {
  asServed();
  const clock = createClock({ timeScale: 1 });
  const fast = await createListener({ clock });
  const failing = await createListener({ clock, plan: { failFirst: 2 } });
  const bot = await createBotProvider({ token: 'load-token', providerId: 'load', clock });
  const journal = createJournal({ file: join(dir, 'journal.ndjson') });
  const platform = createPlatform({
    clock,
    journal,
    channels: [
      { id: 'ingest', integratorUrl: fast.url },
      { id: 'bot', integratorUrl: fast.url },
      { id: 'timed', integratorUrl: failing.url },
    ],
    bot: {
      providerUrl: bot.url,
      token: 'load-token',
      providerId: 'load',
      channelIds: ['bot'],
      rateLimit: { max: 1e9, windowMs: 1000 },
    },
  });
  const server = await platform.listen({ port: 0 });
  bot.setPlatformUrl(server.url);
  const urlOf = (id) => platform.core.channelInfo(platform.core.state.channels.get(id)).url;
  const trips = trackRoundTrips(platform, clock, urlOf('bot'));
  return { clock, fast, failing, bot, journal, platform, urlOf, trips };
}

/**
 * One redelivery series on the `timed` channel: the attempts' offsets as the simulator
 * started them (delivery-attempt events, protocol ms from the first attempt).
 */
async function redeliverySeries(world, customer) {
  const { platform } = world;
  await postJson({
    url: world.urlOf('timed'),
    body: JSON.stringify({ sender: { id: customer }, message: { type: 'text', text: 'hi' } }),
    timeoutMs: 10_000,
    clock: world.clock,
  });
  let deliveryId;
  const offsets = [];
  const off = platform.core.on((event) => {
    if (event.type === 'agent-message' && event.customerId === customer)
      deliveryId = event.deliveryId;
    if (event.type === 'delivery-attempt' && event.deliveryId === deliveryId)
      offsets.push(event.offsetMs);
  });
  await sendAgentMessage(platform.core, {
    customerId: customer,
    message: { type: 'text', text: 'timed' },
  });
  off();
  return offsets;
}

/**
 * 200 conversations, each customer writing once a second for `seconds`: round trips (ms).
 * Each second goes to one of `worlds` in turn (the world's simulator, trackRoundTrips, or
 * the bare baseline), so each is timed over every other second of the same window; each
 * world's `latencies` and `later` (after its first message to that customer) fill up.
 */
async function botRoundTrips(worlds, tag, seconds) {
  for (const trips of worlds) {
    trips.latencies.length = 0;
    trips.later.length = 0;
  }
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CONVERSATIONS }, async (_, i) => {
      await sleep((i * 1000) / CONVERSATIONS);
      for (let n = 0; performance.now() < until; n++) {
        const sent = performance.now();
        const trips = worlds[n % worlds.length];
        await trips.converse(`${tag}-${i}`, `message ${n}`, Math.floor(n / worlds.length));
        await sleep(Math.max(0, 1000 - (performance.now() - sent)));
      }
    }),
  );
  return worlds.map((trips) => ({
    all: [...trips.latencies].sort((a, b) => a - b),
    later: [...trips.later].sort((a, b) => a - b),
  }));
}

/** A simulator in a child process, as the ingest bench runs it; resolves with its channel URL. */
async function startIngestSimulator(dir) {
  const { child, listening } = await startChild([
    bin,
    '--json',
    'platform',
    '--port',
    '0',
    '--no-console',
    '--quiet',
    '--record',
    join(dir, 'ingest.ndjson'),
  ]);
  child.stdout.resume();
  return { child, url: listening.channels[0].url };
}

/**
 * Seconds of load before anything is timed. The load's first second is two fresh processes
 * compiling under it (autocannon and, beside, the ingest simulator): the world's event loop
 * then waited for a CPU 26-34 ms in each 100 ms, and every exchange of the round trips timed
 * in it took ~10 ms (no collection under way). That second went to whichever side had the
 * first turn, always the world; from the second second on the load is the ingest bench's
 * steady one, met by both sides alike.
 */
const LEAD_IN_S = 2;

/** autocannon's 50 connections on `loadUrl` for `seconds` after the lead-in, in a child. */
async function startLoad(loadUrl, seconds) {
  const loader = spawn(
    process.execPath,
    [
      autocannonBin,
      '--connections',
      '50',
      '--duration',
      String(LEAD_IN_S + seconds + 1),
      '--method',
      'POST',
      '--headers',
      'content-type=application/json',
      '--body',
      body,
      '--json',
      loadUrl,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  loader.stdout.on('data', (chunk) => (out += chunk));
  loader.result = new Promise((resolve) =>
    loader.once('close', () => {
      try {
        resolve(JSON.parse(out));
      } catch {
        resolve(undefined);
      }
    }),
  );
  await sleep(LEAD_IN_S * 1000); // the load is on, and past its first second, before timing
  return loader;
}

const timed = (trips) => ({
  p50: percentile(trips.all, 50),
  p99: percentile(trips.all, 99),
  laterP99: percentile(trips.later, 99),
  messages: trips.all.length,
});

/**
 * Both measurements at once, optionally beside autocannon's 50 connections on `loadUrl`;
 * with `bare`, the bare baseline's round trips too, in the same window (every other second).
 */
async function measure(world, tag, loadUrl, bare) {
  const worlds = bare ? [world.trips, bare] : [world.trips];
  const seconds = (SECONDS - 1) * worlds.length;
  const loader = loadUrl ? await startLoad(loadUrl, seconds) : undefined;
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const waitedBefore = runQueueWaitMs();
  const wallBefore = performance.now();
  const [seriesA, seriesB, [trips, floor]] = await Promise.all([
    redeliverySeries(world, `${tag}-timed-a`),
    sleep(1500).then(() => redeliverySeries(world, `${tag}-timed-b`)),
    botRoundTrips(worlds, tag, seconds),
  ]);
  loop.disable();
  const waited = runQueueWaitMs();
  const waitedPerSecond =
    waited === undefined || waitedBefore === undefined
      ? undefined
      : ((waited - waitedBefore) * 1000) / (performance.now() - wallBefore);
  const ingest = loader ? await loader.result : undefined;
  const drift = (offsets) =>
    offsets.length === 3 ? Math.max(...offsets.map((o, i) => Math.abs(o - i * 3000))) : Infinity;
  return {
    offsets: [seriesA, seriesB],
    drift: Math.max(drift(seriesA), drift(seriesB)),
    ...timed(trips),
    floor: floor ? timed(floor) : undefined,
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    waitedPerSecond,
    ingest: ingest ? Math.round(ingest.requests.average) : undefined,
    non2xx: ingest?.non2xx,
  };
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-load-'));
  const world = await startWorld(dir);
  const bare = await startBareWorld();
  let ingest;
  try {
    ingest = await startIngestSimulator(dir);
    // warm-up, not measured
    await botRoundTrips([world.trips], 'warm', WARM_UP_S);
    await botRoundTrips([bare], 'warm', WARM_UP_S);
    const quiet = await measure(world, 'quiet', undefined, bare);
    const beside = await measure(world, 'beside', ingest.url, bare);
    const same = await measure(world, 'same', world.urlOf('ingest'));
    const section = 'under load';
    const series = (m) => m.offsets.map((o) => o.map((x) => x.toFixed(1)).join('/')).join(', ');
    const rows = [];
    for (const [m, label] of [
      [quiet, 'no load'],
      [beside, `beside the ingest bench (another simulator: ${beside.ingest ?? '?'} req/s)`],
      [same, `ingest on the same simulator (${same.ingest ?? '?'} req/s)`],
    ]) {
      const floor = m.floor;
      rows.push({
        section,
        metric: `redelivery offsets, ${label} (ms; two series)`,
        value: series(m),
        target: '0/3000/6000 ± 20',
        ok: m.drift <= 20,
      });
      rows.push({
        section,
        metric: `bot round trip p50 / p99, ${CONVERSATIONS} conversations, ${label} (ms; ${m.messages} msgs)`,
        value: `${m.p50.toFixed(2)} / ${m.p99.toFixed(2)}`,
        target: m === same ? '(context: one event loop)' : 'p99 < 10',
        ...(m === same ? {} : { ok: m.p99 < 10 }),
      });
      if (floor)
        rows.push({
          section,
          metric: `bare node:http floor (the same 4 exchanges, every other second), ${label} (ms; p50 / p99)`,
          value: `${floor.p50.toFixed(2)} / ${floor.p99.toFixed(2)}`,
          target: `(baseline: svc-cli's p99 is ${(m.p99 / floor.p99).toFixed(2)}x)`,
        });
      rows.push({
        section,
        metric: `bot round trip p99 after each conversation's first message, ${label} (ms)`,
        value: m.laterP99.toFixed(2),
        target: '',
      });
      rows.push({
        section,
        metric: `event-loop delay p99 / max, ${label} (ms)`,
        value: `${m.loopP99.toFixed(1)} / ${m.loopMax.toFixed(1)}`,
        target: '',
      });
      if (m.waitedPerSecond !== undefined)
        rows.push({
          section,
          metric: `time the event loop was ready but waited for a CPU, ${label} (ms per s)`,
          value: m.waitedPerSecond.toFixed(1),
          target: '(context: the machine)',
        });
    }
    return rows;
  } finally {
    if (ingest) {
      const exited = new Promise((resolve) => ingest.child.once('exit', resolve));
      ingest.child.kill('SIGINT');
      await exited;
    }
    await world.bot.close(10);
    await world.platform.close();
    await world.fast.close(10);
    await world.failing.close(10);
    world.trips.stop();
    await bare.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run())
    process.stdout.write(
      `${row.metric.padEnd(70)} ${String(row.value).padStart(24)} ${row.target}\n`,
    );
}
