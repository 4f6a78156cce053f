/**
 * Limits and timeouts: body size -> 413 on every serving role, a client dribbling
 * its headers is cut off, connections are bounded, outbound work is bounded per core, and a
 * stop interrupts in-flight deliveries on the record.
 */
import { getEventListeners } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Agent, request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { startServer, type RunningServer, type ServerLimits } from '../../src/http/server.js';
import { createJournal } from '../../src/journal/index.js';
import { createOutboundLimiter } from '../../src/platform/outbound-limiter.js';
import {
  createPlatform,
  sendAgentMessage,
  type Platform,
  type PlatformEvent,
} from '../../src/platform/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener } from '../../src/roles/integrator/index.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const clock = () => createClock({ timeScale: 0.001 });
const big = JSON.stringify({
  sender: { id: 'c' },
  message: { type: 'text', text: 'x'.repeat(2000) },
});

describe('body limit: 413 with a JSON error on every serving role', () => {
  const roles: Record<string, () => Promise<{ url: string; close: () => Promise<void> }>> = {
    platform: async () => {
      const platform = createPlatform({ channels: [{ id: 'shop', randomString: 'r'.repeat(22) }] });
      const server = await platform.listen({ port: 0, bodyLimit: 1024 });
      return { url: `${server.url}/${'r'.repeat(22)}/shop`, close: () => platform.close() };
    },
    listen: async () => {
      const l = await createListener({ bodyLimit: 1024 });
      return { url: `${l.url}/shop`, close: () => l.close(10) };
    },
    'bot-sim': async () => {
      const b = await createBotProvider({ token: 'tok-1234', providerId: 'p', bodyLimit: 1024 });
      return { url: `${b.url}/tok-1234`, close: () => b.close(10) };
    },
    'hook-target': async () => {
      const h = await createHookTarget({ bodyLimit: 1024 });
      return { url: `${h.url}/hooks`, close: () => h.close(10) };
    },
  };
  it.each(Object.keys(roles))('%s', async (name) => {
    const role = await roles[name]!();
    closers.push(role.close);
    const response = await fetch(role.url, { method: 'POST', body: big });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: expect.any(String) } });
  });

  it.each(Object.keys(roles))(
    '%s: 200 oversized uploads with node:http each get their 413, none an EPIPE',
    async (name) => {
      const role = await roles[name]!();
      closers.push(role.close);
      const body = Buffer.alloc(256 * 1024, 'x'); // 256 x the limit, written in pieces
      const statuses = await Promise.all(
        Array.from(
          { length: 200 },
          () =>
            new Promise<number | string>((resolve) => {
              const req = httpRequest(
                role.url,
                { method: 'POST', agent: false, headers: { 'content-length': body.length } },
                (res) => {
                  res.resume();
                  res.on('end', () => resolve(res.statusCode ?? 0));
                },
              );
              req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
              for (let at = 0; at < body.length; at += 16 * 1024) {
                req.write(body.subarray(at, at + 16 * 1024));
              }
              req.end();
            }),
        ),
      );
      expect(statuses.filter((s) => s !== 413)).toEqual([]);
    },
  );
});

describe('server limits', () => {
  async function serve(limits: ServerLimits): Promise<RunningServer> {
    const server = await startServer({
      limits,
      handler: (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      },
    });
    closers.push(() => server.close(10));
    return server;
  }

  it('cuts off a client that dribbles its headers past the headers timeout', async () => {
    const server = await serve({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    const socket = connect(server.port, '127.0.0.1');
    socket.on('error', () => undefined);
    const started = performance.now();
    const text = 'GET / HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ' + 'a'.repeat(1000);
    let i = 0;
    const drip = setInterval(() => socket.write(text[i++ % text.length]!), 20);
    const answer = await new Promise<string>((resolve) => {
      let data = '';
      socket.on('data', (d: Buffer) => (data += d.toString()));
      socket.on('close', () => resolve(data));
    });
    clearInterval(drip);
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(3000); // node's own default check interval would be 30 s
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
  });

  it('keeps an idle connection 65 s by default and says so (Keep-Alive: timeout=65)', async () => {
    const server = await serve({});
    expect(server.server.keepAliveTimeout).toBe(65_000);
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      httpRequest(`${server.url}/`, { agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        resolve(res.headers);
      })
        .on('error', reject)
        .end();
    });
    expect(headers).toMatchObject({ connection: 'keep-alive', 'keep-alive': 'timeout=65' });
  });

  it('closes connections beyond maxConnections and keeps serving the others', async () => {
    const server = await serve({ maxConnections: 2 });
    const open = (): Promise<Socket> =>
      new Promise((resolve) => {
        const s = connect(server.port, '127.0.0.1', () => resolve(s));
        s.on('error', () => undefined);
      });
    const first = await open();
    const second = await open();
    closers.push(() => {
      first.destroy();
      second.destroy();
      return Promise.resolve();
    });
    await new Promise<void>(
      (resolve) =>
        server.server.once('connection', () => resolve()).listenerCount('x') || resolve(),
    );
    const third = await open();
    await new Promise<void>((resolve) => third.once('close', () => resolve()));
    const reply = await new Promise<string>((resolve) => {
      first.once('data', (d: Buffer) => resolve(d.toString()));
      first.write('GET / HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n');
    });
    expect(reply.startsWith('HTTP/1.1 200')).toBe(true);
  });
});

describe('outbound limiter (per core)', () => {
  it('grants up to maxInFlight, queues up to maxQueued, refuses beyond at once', async () => {
    const limiter = createOutboundLimiter({ maxInFlight: 2, maxQueued: 1 });
    const a = await limiter.acquire();
    const b = await limiter.acquire();
    const queued = limiter.acquire();
    const refused = await limiter.acquire();
    expect([a.ok, b.ok, limiter.inFlight, limiter.queued]).toEqual([true, true, 2, 1]);
    expect(refused).toMatchObject({ ok: false, reason: 'overloaded' });
    if (a.ok) a.release();
    expect((await queued).ok).toBe(true);
    expect(limiter.peakInFlight).toBe(2);
  });

  it('a queued attempt leaves the queue when its signal aborts', async () => {
    const limiter = createOutboundLimiter({ maxInFlight: 1, maxQueued: 5 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
    expect(limiter.queued).toBe(0);
  });

  it('an abort ends the waiters of its signal only; the others keep their turn', async () => {
    const limiter = createOutboundLimiter({ maxInFlight: 1, maxQueued: 5 });
    const first = await limiter.acquire();
    const stopping = new AbortController();
    const staying = new AbortController();
    const order: string[] = [];
    const wait = (name: string, signal: AbortSignal) =>
      limiter.acquire(signal).then(
        (grant) => {
          order.push(`${name} granted`);
          return grant;
        },
        (error: Error) => {
          order.push(`${name} ${error.message}`);
        },
      );
    const a = wait('a', stopping.signal);
    const b = wait('b', staying.signal);
    const c = wait('c', stopping.signal);
    const d = wait('d', staying.signal);
    expect(limiter.queued).toBe(4);
    stopping.abort(new Error('stopped'));
    await Promise.all([a, c]);
    expect(limiter.queued).toBe(2);
    if (first.ok) first.release();
    const granted = await b;
    if (granted?.ok) granted.release();
    await d;
    expect(order).toEqual(['a stopped', 'c stopped', 'b granted', 'd granted']);
    // every waiter of `staying` was admitted: the line listens to its signal no more
    expect(getEventListeners(staying.signal, 'abort')).toHaveLength(0);
    staying.abort(new Error('late'));
    expect(limiter.queued).toBe(0);
    expect(limiter.inFlight).toBe(1);
  });

  it('a waiter admitted before an abort is not ended by it', async () => {
    const limiter = createOutboundLimiter({ maxInFlight: 1, maxQueued: 5 });
    const first = await limiter.acquire();
    const controller = new AbortController();
    const one = limiter.acquire(controller.signal);
    const two = limiter.acquire(controller.signal);
    if (first.ok) first.release();
    const admitted = await one;
    controller.abort(new Error('stop'));
    await expect(two).rejects.toThrow('stop');
    expect(admitted.ok).toBe(true);
    expect(limiter.queued).toBe(0);
  });

  it('a hanging integrator holds at most maxInFlight requests; the other messages queue and are delivered in turn', async () => {
    const c = clock();
    const hanging = await createListener({ clock: c, plan: { fault: { kind: 'hang' } } });
    closers.push(() => hanging.close(10));
    const journal = createJournal();
    const platform = createPlatform({
      clock: c,
      journal,
      outbound: { maxInFlight: 4, maxQueued: 4 },
      channels: [{ id: 'shop', integratorUrl: hanging.url }],
    });
    closers.push(() => platform.close());
    const server = await platform.listen({ port: 0 });
    const channel = platform.core.channelInfo(platform.core.state.channels.get('shop')!);
    for (let i = 0; i < 20; i++) {
      const r = await fetch(channel.url, {
        method: 'POST',
        body: JSON.stringify({ sender: { id: `c-${i}` }, message: { type: 'text', text: 'hi' } }),
      });
      expect(r.status).toBe(200);
    }
    void server;
    const sending = Array.from({ length: 20 }, (_, i) =>
      sendAgentMessage(platform.core, {
        customerId: `c-${i}`,
        message: { type: 'text', text: 'a' },
      }),
    );
    await Promise.resolve();
    // 8 series under way (maxInFlight + maxQueued), 12 waiting for their turn: none refused
    expect(platform.core.limiter.waitingSeries).toBe(12);
    const results = await Promise.all(sending);
    expect(platform.core.limiter.peakInFlight).toBe(4);
    // every message had its whole series of 3 attempts (spec 8), then failed on the hang
    expect(results.every((r) => r.result === 'failed' && r.attempts === 3)).toBe(true);
    expect(journal.entries().filter((e) => e.failure?.reason === 'overloaded')).toHaveLength(0);
  });

  it('back-pressure: the control API answers 503 while the delivery queue is full', async () => {
    // faithful time: the hanging first series must still be under way at the third send (at
    // 0.001 its 9 s ended in 9 ms, before the sends, when the suite ran this test alone)
    const c = createClock();
    const hanging = await createListener({ clock: c, plan: { fault: { kind: 'hang' } } });
    closers.push(() => hanging.close(10));
    const platform = createPlatform({
      clock: c,
      outbound: { maxInFlight: 1, maxQueued: 0, maxWaitingSeries: 1 },
      channels: [{ id: 'shop', integratorUrl: hanging.url }],
    });
    closers.push(() => platform.close());
    const server = await platform.listen({ port: 0 });
    const channel = platform.core.channelInfo(platform.core.state.channels.get('shop')!);
    await fetch(channel.url, {
      method: 'POST',
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    const send = () =>
      fetch(`${server.url}/_sim/agent/message`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ customerId: 'c-1', text: 'a', wait: false }),
      });
    expect((await send()).status).toBe(202); // under way
    expect((await send()).status).toBe(202); // waits for its turn
    const refused = await send();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toMatchObject({ error: { code: 'SVC_E_OVERLOADED' } });
  });

  it('a stop interrupts in-flight deliveries: journaled and announced as interrupted', async () => {
    const c = createClock(); // faithful: the 3 s attempt is still running when we stop
    const hanging = await createListener({ clock: c, plan: { fault: { kind: 'hang' } } });
    closers.push(() => hanging.close(10));
    const journal = createJournal();
    const platform: Platform = createPlatform({
      clock: c,
      journal,
      channels: [{ id: 'shop', integratorUrl: hanging.url }],
    });
    const events: PlatformEvent[] = [];
    platform.core.on((e) => events.push(e));
    const server = await platform.listen({ port: 0 });
    const url = `${server.url}/${platform.core.state.channels.get('shop')!.randomString}/shop`;
    await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    const arrived = new Promise<void>((resolve) =>
      hanging.server!.server.once('request', () => resolve()),
    );
    const sending = sendAgentMessage(platform.core, {
      customerId: 'c-1',
      message: { type: 'text', text: 'a' },
    });
    await arrived;
    await platform.close(0);
    expect(await sending).toMatchObject({ result: 'interrupted', attempts: 1 });
    expect(events.find((e) => e.type === 'delivery-done')).toMatchObject({ result: 'interrupted' });
    const last = journal.entries().at(-1)!;
    expect(last).toMatchObject({
      direction: 'out',
      attempt: 1,
      failure: { reason: 'interrupted' },
    });
  });

  it('a stop sends no redelivery: a series waiting for its next attempt ends at once', async () => {
    // faithful time: attempt 2 is due 3 s after attempt 1, well inside the stop's 5 s grace
    const c = createClock();
    const failing = await createListener({ clock: c, plan: { failFirst: 2 } });
    closers.push(() => failing.close(10));
    const journal = createJournal();
    const platform: Platform = createPlatform({
      clock: c,
      journal,
      channels: [{ id: 'shop', integratorUrl: failing.url }],
    });
    const server = await platform.listen({ port: 0 });
    const url = `${server.url}/${platform.core.state.channels.get('shop')!.randomString}/shop`;
    await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    let received = 0;
    const refused = new Promise<void>((resolve) =>
      platform.core.on((e) => {
        if (e.type === 'delivery-attempt' && e.outcome === 'rejected') resolve();
      }),
    );
    failing.server!.server.on('request', () => received++);
    const sending = sendAgentMessage(platform.core, {
      customerId: 'c-1',
      message: { type: 'text', text: 'a' },
    });
    await refused; // attempt 1 answered 500: the series waits 3 s for attempt 2
    await platform.close(5000);
    expect(await sending).toMatchObject({ result: 'interrupted', attempts: 1 });
    expect(received).toBe(1); // attempt 2 never reached the peer
    expect(journal.entries().at(-1)).toMatchObject({
      direction: 'out',
      failure: { reason: 'interrupted' },
    });
  });
});
