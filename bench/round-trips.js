// The bot round trip both bot benches time (bench/bot.js, bench/under-load.js): from a
// customer's POST on a bot channel to the bot's answer delivered at the integrator, read off
// the simulator's events. An answer that never comes (a hand-over, a failed delivery) ends the
// wait after ANSWER_LIMIT_MS and counts as that slow, so a run cannot hang.
import { performance } from 'node:perf_hooks';
import { boundHeapGrowth } from '../dist/cli/heap.js';
import { postJson } from '../dist/http/client.js';

export const ANSWER_LIMIT_MS = 10_000;

/**
 * Seconds of the paced load both benches run before they measure, not timed. The first
 * seconds of a process compile its code: at 200 conversations of 1 msg/s each, the CPU per
 * round trip fell from 5.5-6.0 ms in the first 2 s to 2.1-3.2 ms after 10 s (windows of 2 s,
 * two processes), and the p99 from 13-58 ms to 4-8 ms. A simulator runs for minutes, so the
 * figures are of the warm one; bench/bot.js prints the warm-up's own p99 for context.
 */
export const WARM_UP_S = 10;

/**
 * The world's heap as the serving commands size it (src/cli/heap.ts): `platform` and
 * `bot-sim` fix V8's heap growth factor at 2x before they serve, where a process of its own
 * would let V8 pick 1.1 at this pace and run a full collection every 7-8 s instead of every
 * 18 s (each a cluster of slow round trips beside a load). The benches' world is that
 * simulator and that bot in one process, so it runs with the same setting; the bare floor
 * timed in the same process shares it.
 */
export const asServed = () => boundHeapGrowth();

/** The p-th percentile of sorted values; NaN for none. */
export const percentile = (sorted, p) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/**
 * Starts timing round trips on `platform`; `converse(customer, text, n)` resolves when the
 * bot's answer reached the integrator. `latencies` holds every round trip, `later` those after
 * each customer's first message (n > 0: its chat already open). `stop()` ends the timing.
 */
export function trackRoundTrips(platform, clock, channelUrl) {
  const started = new Map();
  const chatToCustomer = new Map();
  const deliveryToChat = new Map();
  const waiting = new Map();
  const nth = new Map();
  const latencies = [];
  const later = [];
  const stop = platform.core.on((event) => {
    if (event.type === 'chat-opened') chatToCustomer.set(event.chatId, event.customerId);
    if (event.type === 'bot-message') deliveryToChat.set(event.deliveryId, event.chatId);
    if (event.type === 'delivery-done' && event.target === 'integrator') {
      // the timing keeps nothing per message once it is done: what it kept would be promoted
      // and collected in the simulator's heap, a cost the bare floor does not pay
      const chat = deliveryToChat.get(event.deliveryId);
      deliveryToChat.delete(event.deliveryId);
      if (event.result !== 'delivered') return;
      const customer = chatToCustomer.get(chat);
      const done = waiting.get(customer);
      if (done) {
        const ms = performance.now() - started.get(customer);
        latencies.push(ms);
        if (nth.get(customer) > 0) later.push(ms);
        waiting.delete(customer);
        done();
      }
    }
  });
  const converse = (customer, text, n = 0) =>
    new Promise((resolve) => {
      const limit = setTimeout(() => {
        if (waiting.get(customer) !== done) return;
        waiting.delete(customer);
        latencies.push(ANSWER_LIMIT_MS);
        resolve();
      }, ANSWER_LIMIT_MS);
      const done = () => {
        clearTimeout(limit);
        resolve();
      };
      waiting.set(customer, done);
      started.set(customer, performance.now());
      nth.set(customer, n);
      void postJson({
        url: channelUrl,
        body: JSON.stringify({ sender: { id: customer }, message: { type: 'text', text } }),
        timeoutMs: ANSWER_LIMIT_MS,
        clock,
      });
    });
  return { converse, latencies, later, stop };
}
