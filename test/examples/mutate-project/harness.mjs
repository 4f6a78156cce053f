// The test harness both suites share: per test a fresh simulated platform (the msw handlers of
// svc-cli, on svc-cli's virtual clock: a 3 s redelivery takes no wall time, and offsets are
// exact however busy the machine) and a fresh bridge whose endpoint the platform delivers
// agent messages to. SVC_MUTANT in the environment reaches the handlers, so
// `svc-cli mutate` needs no change here. SHOP_RECORD=<file> writes what the platform journaled,
// for `svc-cli coverage` and `svc-cli mutate --coverage`.
import { appendFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { createVirtualClock } from 'svc-cli';
import { createMswPlatform } from 'svc-cli/msw';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startBridge } from './bridge.mjs';

export const base = 'https://platform.test';
const randomString = 'example-random-string-0000000001';
export const channelUrl = `${base}/${randomString}/shop`;
export const statusUrl = `${channelUrl}/status`;

/**
 * Registers the hooks; the returned object holds the current test's sim, bridge and clock,
 * `run(promise)`: the clock run until the promise settled, and `agentSays`: an agent's message,
 * run until its delivery series ended.
 */
export function useShop() {
  const server = setupServer();
  const shop = {};
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(async () => {
    const clock = createVirtualClock();
    const bridge = await startBridge({ channelUrl, statusUrl });
    const sim = createMswPlatform({
      baseUrl: base,
      clock,
      channels: [{ id: 'shop', randomString, integratorUrl: bridge.url }],
    });
    server.resetHandlers(...sim.handlers);
    // the clock moves only when told: run it until the work is done (at most a minute of it)
    const run = async (work) => {
      let done = false;
      const watched = work.finally(() => (done = true));
      await clock.runUntil(() => done, 60_000);
      return watched;
    };
    const agentSays = (customerId, message) => run(sim.sendAgentMessage({ customerId, message }));
    Object.assign(shop, { sim, bridge, clock, run, agentSays });
  });
  afterEach(async () => {
    await shop.sim.close();
    await shop.bridge.close();
    const file = process.env.SHOP_RECORD;
    const records = shop.sim.journal();
    if (file && records.length > 0)
      appendFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });
  afterAll(() => server.close());
  return shop;
}
