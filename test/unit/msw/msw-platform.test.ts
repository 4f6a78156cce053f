/**
 * svc-cli/msw used the way a user would: setupServer from msw/node and plain fetch to the
 * channel URL, no socket. The simulator's own core answers.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../../src/clock.js';
import { createMswPlatform } from '../../../src/msw/index.js';

const sim = createMswPlatform({
  baseUrl: 'https://platform.test',
  clock: createClock({ timeScale: 0.001 }),
  channels: [{ id: 'shop', randomString: 'test-random-string-0123456789' }],
});
const server = setupServer(...sim.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  sim.reset();
  sim.setFaults({});
  sim.setAgentsOnline(true);
});
afterAll(async () => {
  server.close();
  await sim.close();
});

const post = (url: string, body: unknown) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
const hello = { sender: { id: 'c-1', name: 'Ann' }, message: { type: 'text', text: 'Hello' } };

describe('svc-cli/msw: the platform without a socket', () => {
  it('takes a customer message on the channel URL and tells what it received', async () => {
    expect(sim.channelUrl).toBe('https://platform.test/test-random-string-0123456789/shop');
    const response = await post(sim.channelUrl, hello);
    expect(response.status).toBe(200);
    expect(sim.received).toMatchObject([
      { method: 'POST', body: hello, status: 200, fault: 'none' },
    ]);
    expect(sim.events.find((e) => e.type === 'customer-message')).toMatchObject({
      customerId: 'c-1',
      text: 'Hello',
    });
    expect(sim.journal().at(-1)).toMatchObject({ kind: 'channel.customer.text', iface: 'channel' });
  });

  it('answers the status endpoint 1 or 0 (spec 3, 4.1)', async () => {
    expect(await (await fetch(sim.statusUrl)).text()).toBe('1');
    sim.setAgentsOnline(false);
    expect(await (await fetch(sim.statusUrl)).text()).toBe('0');
  });

  it('answers 404 for an unknown public id or a wrong random string (spec 4.1)', async () => {
    expect(
      (await post('https://platform.test/test-random-string-0123456789/nope', hello)).status,
    ).toBe(404);
    expect((await post('https://platform.test/wrong/shop', hello)).status).toBe(404);
  });

  it('refuses a message without sender.id: 400, not delivered (spec 2.1)', async () => {
    const response = await post(sim.channelUrl, {
      sender: { id: '' },
      message: { type: 'text', text: 'x' },
    });
    expect(response.status).toBe(400);
    expect(sim.events.some((e) => e.type === 'violation')).toBe(true);
  });

  it('injects faults: status, reset, bad-json, error, hang', async () => {
    sim.setFaults({ failFirst: 1, failWith: { kind: 'status', status: 503 } });
    expect((await post(sim.channelUrl, hello)).status).toBe(503);
    expect((await post(sim.channelUrl, hello)).status).toBe(200);

    sim.setFaults({ fault: { kind: 'reset' } });
    await expect(post(sim.channelUrl, hello)).rejects.toThrow(TypeError);

    sim.setFaults({ fault: { kind: 'bad-json' } });
    const bad = await post(sim.channelUrl, hello);
    expect(await bad.text()).toBe('{"result": ok');

    sim.setFaults({ fault: { kind: 'error', code: 'busy', message: 'try later' } });
    expect(await (await post(sim.channelUrl, hello)).json()).toEqual({
      error: { code: 'busy', message: 'try later' },
    });

    sim.setFaults({ fault: { kind: 'hang' } });
    await expect(fetch(sim.statusUrl, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
    expect(sim.received.at(-1)).toMatchObject({ fault: 'hang' });
  });

  it('refuses bad options and fault plans where they are given, with the field named', () => {
    const build = (options: unknown) => () =>
      createMswPlatform(options as Parameters<typeof createMswPlatform>[0]);
    expect(build(undefined)).toThrow(/baseUrl must be an absolute http\(s\) URL, got undefined/);
    expect(build({ baseUrl: 'platform.test' })).toThrow(
      'baseUrl must be an absolute http(s) URL, got "platform.test"',
    );
    const bogus = { failWith: { kind: 'bogus' } } as unknown as Parameters<typeof sim.setFaults>[0];
    expect(() => sim.setFaults(bogus)).toThrow(
      'Could not use the fault plan given to setFaults: failWith.kind: no fault kind "bogus" (none, status, reset, hang, bad-json, error, slow-body).',
    );
    expect(() => sim.setFaults({ failWith: 'status:99x' })).toThrow(
      'failWith: "status:99x": status:<code> needs an HTTP status from 100 to 599',
    );
    expect(() => sim.setFaults({ fault: { kind: 'status', status: 42 } })).toThrow(
      /fault\.status: /,
    );
  });

  it('takes a plan as a plan file writes it: each fault in the --fault syntax', async () => {
    sim.setFaults({ failFirst: 1, failWith: 'status:503' });
    expect((await post(sim.channelUrl, hello)).status).toBe(503);
    expect((await post(sim.channelUrl, hello)).status).toBe(200);
  });

  it('delays answers by protocol time (slow-body, delay)', async () => {
    sim.setFaults({ delayMs: 3000, fault: { kind: 'slow-body', durationMs: 3000 } });
    const response = await post(sim.channelUrl, hello);
    expect(response.status).toBe(200);
    expect(sim.received.at(-1)).toMatchObject({ fault: 'slow-body:3000', status: 200 });
  });

  it('runs the simulator mutant named by SVC_MUTANT or the mutant option', async () => {
    const before = process.env.SVC_MUTANT;
    process.env.SVC_MUTANT = 'status-inverted';
    try {
      const fromEnv = createMswPlatform({ baseUrl: 'https://env.test' });
      const given = createMswPlatform({ baseUrl: 'https://given.test', mutant: 'cut-at-999' });
      expect([fromEnv.core.mutant, given.core.mutant]).toEqual(['status-inverted', 'cut-at-999']);
      server.use(...fromEnv.handlers);
      try {
        // agents are online: the mutant says 0 (spec 4.1)
        expect(await (await fetch(fromEnv.statusUrl)).text()).toBe('0');
      } finally {
        server.resetHandlers();
        await fromEnv.close();
        await given.close();
      }
    } finally {
      if (before === undefined) delete process.env.SVC_MUTANT;
      else process.env.SVC_MUTANT = before;
    }
  });

  it('is exported as svc-cli/msw', async () => {
    // resolved through the package's own exports map, at run time: its types are the packed
    // package's, which `npm run check:package` compiles against
    const specifier = 'svc-cli/msw';
    const module = (await import(specifier)) as { createMswPlatform?: unknown };
    expect(typeof module.createMswPlatform).toBe('function');
  });
});
