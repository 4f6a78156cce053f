// The test harness both suites share: per test a fresh simulated platform (the msw handlers of
// svc-cli, on a clock ten times faster than the wall) and a fresh bridge whose endpoint the
// platform delivers agent messages to. SVC_MUTANT in the environment reaches the handlers, so
// `svc-cli mutate` needs no change here. SHOP_RECORD=<file> writes what the platform journaled,
// for `svc-cli coverage` and `svc-cli mutate --coverage`.
import { appendFileSync } from 'node:fs';
import { setupServer } from 'msw/node';
import { createClock } from 'svc-cli';
import { createMswPlatform } from 'svc-cli/msw';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { startBridge } from './bridge.mjs';

export const base = 'https://platform.test';
const randomString = 'example-random-string-0000000001';
export const channelUrl = `${base}/${randomString}/shop`;
export const statusUrl = `${channelUrl}/status`;

/** Registers the hooks; the returned object holds the current test's sim, bridge and clock. */
export function useShop() {
  const server = setupServer();
  const shop = {};
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  beforeEach(async () => {
    const clock = createClock({ timeScale: 0.1 });
    const bridge = await startBridge({ channelUrl, statusUrl });
    const sim = createMswPlatform({
      baseUrl: base,
      clock,
      channels: [{ id: 'shop', randomString, integratorUrl: bridge.url }],
    });
    server.resetHandlers(...sim.handlers);
    Object.assign(shop, { sim, bridge, clock });
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
