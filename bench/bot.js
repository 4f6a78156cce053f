// Bench (issue #4): customer message in -> CLIENT_MESSAGE -> bot-sim -> BOT_MESSAGE -> delivered
// to the integrator's listener; the simulator, bot-sim and the listener in one process.
// `node bench/bot.js` after `npm run build`; `run()` returns rows for a bench runner.
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { createClock } from '../dist/clock.js';
import { createPlatform } from '../dist/platform/index.js';
import { createBotProvider } from '../dist/roles/bot/index.js';
import { createListener } from '../dist/roles/integrator/index.js';
import { WARM_UP_S, asServed, percentile, trackRoundTrips } from './round-trips.js';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves to bench rows: one conversation at a time; `conversations` conversations open in
 * parallel, each customer writing once a second (staggered) for `seconds` — the target; and
 * the same number launched in one instant `rounds` times (a burst: queueing, for context).
 */
export async function run({
  conversations = 200,
  rounds = 3,
  seconds = Number(process.env.BENCH_SECONDS ?? 8),
} = {}) {
  asServed();
  const clock = createClock();
  const listener = await createListener({ clock });
  const bot = await createBotProvider({ token: 'bench-token', providerId: 'bench', clock });
  const platform = createPlatform({
    clock,
    channels: [{ id: 'bench', integratorUrl: listener.url }],
    bot: {
      providerUrl: bot.url,
      token: 'bench-token',
      providerId: 'bench',
      rateLimit: { max: 1e9, windowMs: 1000 },
    },
  });
  const server = await platform.listen({ port: 0 });
  bot.setPlatformUrl(server.url);
  const channelUrl = platform.core.channelInfo(platform.core.state.channels.get('bench')).url;

  const { converse, latencies } = trackRoundTrips(platform, clock, channelUrl);
  // 200 conversations in parallel: every customer writes once a second (a brisk human pace),
  // their first messages spread over the first second; each waits for the bot's answer.
  const paceMs = 1000;
  const runPaced = async (tag, forSeconds) => {
    const until = performance.now() + forSeconds * 1000;
    await Promise.all(
      Array.from({ length: conversations }, async (_, i) => {
        await sleep((i * paceMs) / conversations);
        for (let n = 0; performance.now() < until; n++) {
          const sent = performance.now();
          await converse(`${tag}-${i}`, `message ${n}`);
          await sleep(Math.max(0, paceMs - (performance.now() - sent)));
        }
      }),
    );
  };
  // Warm-up, not measured: the same load for WARM_UP_S, as bench/under-load.js does.
  await Promise.all(Array.from({ length: 20 }, (_, i) => converse(`warm-${i}`, 'hi')));
  latencies.length = 0;
  await runPaced('warm', WARM_UP_S);
  const warming = [...latencies].sort((a, b) => a - b);
  // Unloaded latency first: one conversation at a time (context for the parallel figure).
  latencies.length = 0;
  for (let i = 0; i < 100; i++) await converse(`solo-${i}`, 'hello');
  const solo = [...latencies].sort((a, b) => a - b);
  latencies.length = 0;
  await runPaced('p', seconds);
  const paced = [...latencies].sort((a, b) => a - b);
  latencies.length = 0;
  const wall = performance.now();
  for (let r = 0; r < rounds; r++) {
    await Promise.all(
      Array.from({ length: conversations }, (_, i) => converse(`c-${r}-${i}`, `hello ${i}`)),
    );
  }
  const totalMs = performance.now() - wall;
  await bot.close(10);
  await platform.close();
  await listener.close(10);
  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const section = 'bot';
  return [
    {
      section,
      metric: 'round trip p50 / p99, one conversation at a time (ms)',
      value: `${percentile(solo, 50).toFixed(2)} / ${percentile(solo, 99).toFixed(2)}`,
      target: '',
    },
    {
      section,
      metric: `round trip p50, ${conversations} conversations in parallel, 1 msg/s each (ms; ${paced.length} messages)`,
      value: percentile(paced, 50).toFixed(2),
      target: '',
    },
    {
      section,
      metric: `round trip p99, ${conversations} conversations in parallel, 1 msg/s each (ms)`,
      value: percentile(paced, 99).toFixed(2),
      target: '< 10',
      ok: percentile(paced, 99) < 10,
    },
    {
      section,
      metric: `round trip p50 / p99, the same load in the process's first ${WARM_UP_S} s (ms; V8 compiling)`,
      value: `${percentile(warming, 50).toFixed(2)} / ${percentile(warming, 99).toFixed(2)}`,
      target: '',
    },
    {
      section,
      metric: `round trip p50 / p99, ${conversations} messages sent in the same instant (burst, ms)`,
      value: `${p50.toFixed(0)} / ${p99.toFixed(0)}`,
      target: '',
    },
    {
      section,
      metric: 'burst throughput (conversations per second)',
      value: String(Math.round((sorted.length / totalMs) * 1000)),
      target: '',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run())
    process.stdout.write(`${row.metric.padEnd(44)} ${row.value.padStart(9)} ${row.target}\n`);
}
