// Bench (issue #4): customer message in -> CLIENT_MESSAGE -> bot-sim -> BOT_MESSAGE -> delivered
// to the integrator's listener; the simulator, bot-sim and the listener in one process.
// `node bench/bot.js` after `npm run build`; `run()` returns rows for a bench runner.
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { createClock } from '../dist/clock.js';
import { postJson } from '../dist/http/client.js';
import { createPlatform } from '../dist/platform/index.js';
import { createBotProvider } from '../dist/roles/bot/index.js';
import { createListener } from '../dist/roles/integrator/index.js';

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Runs `conversations` conversations in parallel, `rounds` times; resolves to bench rows. */
export async function run({ conversations = 200, rounds = 3 } = {}) {
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

  const started = new Map(); // customer id -> start (ms)
  const chatToCustomer = new Map();
  const deliveryToChat = new Map();
  const latencies = [];
  const waiting = new Map(); // customer id -> resolve
  platform.core.on((event) => {
    if (event.type === 'chat-opened') chatToCustomer.set(event.chatId, event.customerId);
    if (event.type === 'bot-message') deliveryToChat.set(event.deliveryId, event.chatId);
    if (
      event.type === 'delivery-done' &&
      event.target === 'integrator' &&
      event.result === 'delivered'
    ) {
      const customer = chatToCustomer.get(deliveryToChat.get(event.deliveryId));
      const resolve = waiting.get(customer);
      if (resolve) {
        latencies.push(performance.now() - started.get(customer));
        waiting.delete(customer);
        resolve();
      }
    }
  });
  const converse = (customer, text) =>
    new Promise((resolve) => {
      waiting.set(customer, resolve);
      started.set(customer, performance.now());
      void postJson({
        url: channelUrl,
        body: JSON.stringify({ sender: { id: customer }, message: { type: 'text', text } }),
        timeoutMs: 10_000,
        clock,
      });
    });
  // warm-up, not measured
  await Promise.all(Array.from({ length: 20 }, (_, i) => converse(`warm-${i}`, 'hi')));
  // Unloaded latency first: one conversation at a time (context for the parallel figure).
  latencies.length = 0;
  for (let i = 0; i < 100; i++) await converse(`solo-${i}`, 'hello');
  const solo = [...latencies].sort((a, b) => a - b);
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
      metric: `round trip p50, ${conversations} in parallel (ms)`,
      value: p50.toFixed(2),
      target: '',
    },
    {
      section,
      metric: `round trip p99, ${conversations} in parallel (ms)`,
      value: p99.toFixed(2),
      target: '< 10',
      ok: p99 < 10,
    },
    {
      section,
      metric: 'conversations per second',
      value: String(Math.round((sorted.length / totalMs) * 1000)),
      target: '',
    },
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of await run())
    process.stdout.write(`${row.metric.padEnd(44)} ${row.value.padStart(9)} ${row.target}\n`);
}
