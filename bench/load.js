// Load (issue 8): 50,000 customer messages from 200 concurrent clients into the platform;
// the agent answers each; the integrator (`listen`, in process) fails a seeded third of the
// attempts. Reports throughput, final states, RSS and the outbound peak in flight.
import { setInterval, clearInterval } from 'node:timers';
import { Agent, request } from 'undici';
import { createClock } from '../dist/clock.js';
import { createJournal } from '../dist/journal/index.js';
import { createPlatform, sendAgentMessage } from '../dist/platform/index.js';
import { createListener } from '../dist/roles/integrator/index.js';

const MESSAGES = Number(process.env.BENCH_LOAD_MESSAGES ?? 50_000);
const CLIENTS = 200;

export async function run() {
  const clock = createClock({ timeScale: 0.2 });
  const listener = await createListener({
    clock,
    plan: { fault: { kind: 'status', status: 500 }, rate: 0.33, seed: 8 },
  });
  const journal = createJournal({ keep: 1000 });
  const platform = createPlatform({
    clock,
    journal,
    channels: [
      { id: 'shop', randomString: 'bench-random-string-000', integratorUrl: listener.url },
    ],
  });
  const server = await platform.listen({ port: 0 });
  const url = `${server.url}/bench-random-string-000/shop`;
  const answers = [];
  platform.core.on((event) => {
    if (event.type === 'customer-message')
      answers.push(
        sendAgentMessage(platform.core, {
          chatId: event.chatId,
          message: { type: 'text', text: 're' },
        }),
      );
  });
  const dispatcher = new Agent({ connections: CLIENTS });
  let next = 0;
  let rss = 0;
  const sample = setInterval(() => (rss = Math.max(rss, process.memoryUsage().rss)), 100);
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, n) => {
      while (next < MESSAGES) {
        const i = next++;
        const response = await request(url, {
          method: 'POST',
          dispatcher,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            sender: { id: `customer-${n}` },
            message: { type: 'text', text: `m ${i}` },
          }),
        });
        await response.body.dump();
      }
    }),
  );
  const ingestMs = performance.now() - started;
  const results = await Promise.all(answers);
  const totalMs = performance.now() - started;
  clearInterval(sample);
  const delivered = results.filter((r) => r.result === 'delivered').length;
  const failed = results.filter((r) => r.result === 'failed').length;
  const shed = results.filter((r) => r.result === 'failed' && r.attempts === 0).length;
  const peak = platform.core.limiter.peakInFlight;
  await platform.close();
  await listener.close(10);
  await dispatcher.close();
  const row = (metric, value, target, ok) => ({ section: 'load', metric, value, target, ok });
  return [
    row('customer messages ingested/s', Math.round(MESSAGES / (ingestMs / 1000)), '', undefined),
    row('answered end to end/s', Math.round(MESSAGES / (totalMs / 1000)), '', undefined),
    row(
      'final states (delivered + failed)',
      `${delivered} + ${failed}`,
      `${MESSAGES}`,
      delivered + failed === MESSAGES,
    ),
    row('failed fast: outbound queue full', shed, '0 (queued, issue 20)', shed === 0),
    row('journal exchanges', journal.count, `>= ${MESSAGES * 2}`, journal.count >= MESSAGES * 2),
    row('peak RSS MiB', Math.round(rss / 1048576), '< 512', rss < 512 * 1048576),
    row('outbound peak in flight', peak, '<= 256', peak <= 256),
  ];
}
