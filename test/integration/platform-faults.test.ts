/**
 * The fault plan on the platform's own interfaces (`platform --fault ...`,
 * `createPlatform({ faults })`, src/platform/faults.ts) over a real loopback socket and the
 * fetch face: faulted requests never reach the core, the control API is never faulted, and
 * every exchange is journaled once by the platform's journal step.
 */
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import type { FaultPlan } from '../../src/faults/index.js';
import type { ExchangeRecord } from '../../src/journal/index.js';
import type { PlatformOptions } from '../../src/platform/index.js';
import { customerText, post, startPlatform } from '../helpers/platform.js';

async function setup(faults: FaultPlan | undefined, more: Partial<PlatformOptions> = {}) {
  const clock = createVirtualClock();
  const harness = await startPlatform({
    clock,
    ...(faults ? { faults } : {}),
    channels: [{ id: 'shop' }],
    ...more,
  });
  const { core } = harness.platform;
  const records = (): readonly ExchangeRecord[] => core.journal.entries();
  const channelRecords = () => records().filter((r) => r.iface === 'channel');
  const counted = () => harness.of('customer-message').length;
  return { clock, harness, core, records, channelRecords, counted };
}

/** A customer message with an id: its redeliveries are attempts of one message. */
const message = (id: string, text = 'Hello') => ({
  ...customerText('c-42', text, { name: 'Ann' }),
  message: { type: 'text', text, id },
});

describe('platform --fail-first 2 on a socket', () => {
  it('refuses the first 2 attempts of a message, takes the third and counts it once', async () => {
    const { harness, core, channelRecords, counted } = await setup({ failFirst: 2 });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await post(harness.channelUrl, message('m-1'))).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect(counted()).toBe(1);
    expect(core.state.chats.size).toBe(1);
    // another message has attempts of its own
    expect((await post(harness.channelUrl, message('m-2', 'again'))).status).toBe(500);
    const journaled = channelRecords();
    expect(journaled.map((r) => [r.response?.status, r.fault])).toEqual([
      [500, 'status:500'],
      [500, 'status:500'],
      [200, undefined],
      [500, 'status:500'],
    ]);
    expect(journaled[0]?.notes).toEqual(['transfer: content-length', 'fault: status:500']);
    expect(journaled[2]?.notes).not.toContain('fault: status:500');
  });
});

describe('platform --fail-first 1 and an integrator that sends one message.id on every message', () => {
  it('each new message is refused first: the id is for logs (spec 2.1), a retry sends the same body', async () => {
    const { harness, counted } = await setup({ failFirst: 1 });
    const statuses: number[] = [];
    for (const text of ['first', 'first', 'second', 'second'])
      statuses.push((await post(harness.channelUrl, message('same-id', text))).status);
    expect(statuses).toEqual([500, 200, 500, 200]);
    expect(counted()).toBe(2);
  });
});

describe('platform --fault status:503 --fault-rate 1', () => {
  it('answers 503 injected, the core sees nothing, the journal holds the exchange', async () => {
    const { harness, core, channelRecords, counted } = await setup({
      fault: { kind: 'status', status: 503 },
      rate: 1,
    });
    const answer = await post(harness.channelUrl, message('m-1'));
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      error: { code: 'injected', message: 'svc-cli injected HTTP 503' },
    });
    expect(counted()).toBe(0);
    expect(core.state.chats.size).toBe(0);
    expect(core.state.customers.size).toBe(0);
    const [record] = channelRecords();
    expect(record).toMatchObject({
      iface: 'channel',
      direction: 'in',
      request: { method: 'POST', url: harness.channelUrl, body: JSON.stringify(message('m-1')) },
      response: { status: 503, body: JSON.stringify(answer.body) },
      fault: 'status:503',
    });
    expect(record?.notes).toContain('fault: status:503');
    expect(harness.of('notice').map((n) => [n.level, n.message])).toEqual([
      [
        'info',
        'fault status:503: POST on the channel interface, answered 503 in place of the simulator',
      ],
    ]);
  });

  it('faults the bot API (spec 4.3): journaled as the bot interface', async () => {
    const bot = { providerUrl: 'http://127.0.0.1:9/bot', token: 'some-token', channelIds: [] };
    const { harness, records } = await setup(
      { fault: { kind: 'status', status: 503 }, rate: 1 },
      { bot: { ...bot, providerId: 'dev-provider' } },
    );
    const answer = await post(`${harness.url}/webhooks/dev-provider/some-token`, {
      id: 'e-1',
      type: 'BOT_MESSAGE',
    });
    expect(answer.status).toBe(503);
    // a path no route serves (the endpoint malformed, spec 7.2) keeps its 404
    const malformed = await post(`${harness.url}/webhooks/dev-provider`, { id: 'e-2' });
    expect(malformed.status).toBe(404);
    expect(records().map((r) => [r.iface, r.response?.status, r.fault])).toEqual([
      ['bot', 503, 'status:503'],
      ['bot', 404, undefined],
    ]);
  });

  it('never faults the control API', async () => {
    const { harness } = await setup({ fault: { kind: 'status', status: 503 }, rate: 1 });
    const state = await fetch(`${harness.url}/_sim/state`);
    expect(state.status).toBe(200);
    const agents = await post(`${harness.url}/_sim/agents`, { online: false });
    expect(agents.status).not.toBe(503);
  });

  it('faults the status URL and the fetch face alike (one plan for both)', async () => {
    const { harness, channelRecords } = await setup({
      fault: { kind: 'status', status: 503 },
      rate: 1,
    });
    expect((await fetch(harness.statusUrl)).status).toBe(503);
    const viaFetch = await harness.platform.fetch(
      new Request(harness.channelUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message('m-1')),
      }),
    );
    expect(viaFetch.status).toBe(503);
    expect(((await viaFetch.json()) as { error: { code: string } }).error.code).toBe('injected');
    expect(channelRecords().map((r) => r.fault)).toEqual(['status:503', 'status:503']);
  });

  it("faults the widget channel's events, with the CORS answer a page reads", async () => {
    const { harness, records } = await setup({ fault: { kind: 'status', status: 503 }, rate: 1 });
    const origin = 'http://localhost:5173';
    const answer = await fetch(`${harness.url}/_sim/widget/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin },
      body: JSON.stringify({ type: 'visitor_number', visitorId: 'v-1' }),
    });
    expect(answer.status).toBe(503);
    expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
    expect(records().find((r) => r.iface === 'widget')?.fault).toBe('status:503');
  });

  it('answers a body it cannot read as it is: faults act on valid requests (spec 8)', async () => {
    const { harness } = await setup({ fault: { kind: 'status', status: 503 }, rate: 1 });
    const broken = await post(harness.channelUrl, '{"sender":');
    expect(broken.status).toBe(400);
  });
});

describe('platform --fault reset / hang', () => {
  it('resets the connection: no reply, journaled with its failure, nothing reaches the core', async () => {
    const { harness, channelRecords, counted } = await setup({ fault: { kind: 'reset' } });
    await expect(post(harness.channelUrl, message('m-1'))).rejects.toThrow();
    expect(counted()).toBe(0);
    const [record] = channelRecords();
    expect(record?.response).toBeUndefined();
    expect(record?.failure).toEqual({ reason: 'reset', message: 'no reply: reset (injected)' });
    expect(record?.notes).toContain('fault: reset');
  });

  it('holds a hung request until the client gives up', async () => {
    const { harness, channelRecords, counted } = await setup({ fault: { kind: 'hang' } });
    const controller = new AbortController();
    const sent = fetch(harness.channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message('m-1')),
      signal: controller.signal,
    });
    for (let i = 0; i < 1000 && channelRecords().length === 0; i++)
      await new Promise((resolve) => setImmediate(resolve));
    expect(channelRecords()[0]?.failure?.reason).toBe('hang');
    controller.abort();
    await expect(sent).rejects.toThrow();
    expect(counted()).toBe(0);
  });
});

describe('platform --delay / --fault slow-body on the protocol clock', () => {
  it('answers normally after the delay: the message reaches the core', async () => {
    const { clock, harness, channelRecords, counted } = await setup({ delayMs: 2_000 });
    let status: number | undefined;
    void post(harness.channelUrl, message('m-1')).then((a) => (status = a.status));
    expect(await clock.runUntil(() => status !== undefined)).toBe(true);
    expect(status).toBe(200);
    expect(clock.now()).toBeGreaterThanOrEqual(2_000);
    expect(counted()).toBe(1);
    expect(channelRecords()[0]).toMatchObject({ response: { status: 200 }, fault: 'delay:2000' });
  });

  it('spreads the core answer over the duration', async () => {
    const { clock, harness, channelRecords, counted } = await setup({
      fault: { kind: 'slow-body', durationMs: 4_000 },
    });
    let answer: { status: number; body: unknown } | undefined;
    void post(harness.channelUrl, message('m-1')).then((a) => (answer = a));
    expect(await clock.runUntil(() => answer !== undefined)).toBe(true);
    expect(answer).toEqual({ status: 200, body: { result: 'ok' } });
    // the pieces' waits add up to the duration (in floating point)
    expect(Math.round(clock.now())).toBeGreaterThanOrEqual(4_000);
    expect(counted()).toBe(1);
    expect(channelRecords()[0]).toMatchObject({
      response: { status: 200, body: '{"result":"ok"}' },
      fault: 'slow-body:4000',
    });
  });
});

describe('a plan that does not act', () => {
  it('journals an unfaulted request exactly as a platform without a plan does', async () => {
    const strip = (r: ExchangeRecord | undefined) => {
      const { at: _at, run: _run, wallMs: _wall, durationMs: _d, seq: _s, ...rest } = r!;
      return { ...rest, request: { ...rest.request, url: '', headers: {} } };
    };
    const plain = await setup(undefined);
    await post(plain.harness.channelUrl, message('m-1'));
    const planned = await setup({ fault: { kind: 'status', status: 503 }, rate: 0 });
    await post(planned.harness.channelUrl, message('m-1'));
    expect(strip(planned.channelRecords()[0])).toEqual(strip(plain.channelRecords()[0]));
  });
});
