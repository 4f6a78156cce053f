// The socket client (src/http/client.ts) speaks to undici's dispatcher with a handler
// of its own instead of request(); every outcome a delivery report names stays as it was, on
// a real loopback server.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool, type Dispatcher } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { getText, postJson, type PostOutcome } from '../../src/http/client.js';

interface Seen {
  method: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback server on port 0; `seen` holds each request once its body is read. */
async function serve(answer: (res: ServerResponse, req: IncomingMessage) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      answer(res, req);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/in?x=1`, seen, server };
}

/** Waits for `out`, running the virtual clock's timers when nothing else is left to do. */
async function settle(clock: ReturnType<typeof createVirtualClock>, out: Promise<PostOutcome>) {
  let done = false;
  void out.then(() => (done = true));
  await clock.runUntil(() => done);
  return out;
}

describe('the socket client', () => {
  it('posts JSON and returns status, body and headers, repeated ones joined', async () => {
    const { url, seen } = await serve((res) => {
      res.setHeader('x-many', ['a', 'b']);
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const clock = createVirtualClock();
    const out = await postJson({
      url,
      body: '{"a":1}',
      headers: { authorization: 'Bearer t' },
      timeoutMs: 3000,
      clock,
    });
    expect(out).toMatchObject({ ok: true, status: 201, body: '{"ok":true}', durationMs: 0 });
    expect((out as Extract<PostOutcome, { ok: true }>).headers).toMatchObject({
      'content-type': 'application/json',
      'x-many': 'a, b',
    });
    expect(seen).toEqual([
      {
        method: 'POST',
        body: '{"a":1}',
        headers: expect.objectContaining({
          'content-type': 'application/json',
          'content-length': '7',
          authorization: 'Bearer t',
        }) as unknown,
      },
    ]);
  });

  it('frames the body chunked when asked, and GET sends none', async () => {
    const { url, seen } = await serve((res) => res.end('{}'));
    const clock = createVirtualClock();
    await postJson({ url, body: '{"b":2}', chunked: true, timeoutMs: 3000, clock });
    expect(await getText({ url, timeoutMs: 3000, clock })).toMatchObject({ ok: true, body: '{}' });
    expect(seen.map((s) => [s.method, s.headers['transfer-encoding'], s.body])).toEqual([
      ['POST', 'chunked', '{"b":2}'],
      ['GET', undefined, ''],
    ]);
  });

  it('reads past informational 1xx replies to the final one', async () => {
    const { url } = await serve((res) => {
      res.writeProcessing();
      res.end('{"late":true}');
    });
    const out = await postJson({ url, body: '{}', timeoutMs: 3000, clock: createVirtualClock() });
    expect(out).toMatchObject({ ok: true, status: 200, body: '{"late":true}' });
  });

  it('ends a reply larger than the limit as an error', async () => {
    const { url } = await serve((res) => res.end(JSON.stringify({ t: 'x'.repeat(100) })));
    const clock = createVirtualClock();
    expect(
      await postJson({ url, body: '{}', timeoutMs: 3000, clock, maxResponseBytes: 10 }),
    ).toEqual(
      expect.objectContaining({
        ok: false,
        reason: 'error',
        message: 'reply body larger than 10 bytes',
      }),
    );
  });

  it('names a refusal and a reset', async () => {
    const closed = await serve((res) => res.end('{}'));
    closed.server.close();
    const clock = createVirtualClock();
    expect(await postJson({ url: closed.url, body: '{}', timeoutMs: 3000, clock })).toMatchObject({
      ok: false,
      reason: 'refused',
    });
    const resetting = await serve((_res, req) => req.socket.destroy());
    expect(
      await postJson({ url: resetting.url, body: '{}', timeoutMs: 3000, clock }),
    ).toMatchObject({ ok: false, reason: 'reset' });
  });

  it('times out a hanging server at the timeout on the clock', async () => {
    const { url } = await serve(() => undefined);
    const clock = createVirtualClock();
    const out = await settle(clock, postJson({ url, body: '{}', timeoutMs: 3000, clock }));
    expect(out).toMatchObject({
      ok: false,
      reason: 'timeout',
      message: 'no complete reply within 3000 ms',
      durationMs: 3000,
    });
  });

  it('stops when the caller cancels, before or during the exchange', async () => {
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const { url, seen } = await serve(() => arrived());
    const clock = createVirtualClock();
    const early = new AbortController();
    early.abort(new Error('stopped'));
    expect(
      await postJson({ url, body: '{}', timeoutMs: 3000, clock, signal: early.signal }),
    ).toMatchObject({ ok: false, reason: 'aborted', message: 'the request was cancelled' });
    expect(seen).toHaveLength(0); // nothing was sent
    const late = new AbortController();
    const out = postJson({ url, body: '{}', timeoutMs: 3000, clock, signal: late.signal });
    await reached;
    late.abort(new Error('stopped'));
    expect(await out).toMatchObject({ ok: false, reason: 'aborted' });
  });

  it('drops a request stopped while it waits for a connection, unsent, when its turn comes', async () => {
    let release: () => void = () => undefined;
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    const { url, seen } = await serve((res) => {
      release = () => res.end('{}');
      arrived();
    });
    // one connection: the second request queues behind the first, which the server holds
    const pool = new Pool(new URL(url).origin, { connections: 1, pipelining: 1 });
    try {
      const clock = createVirtualClock();
      const first = postJson({ url, body: '{}', timeoutMs: 3000, clock, dispatcher: pool });
      await reached;
      const stop = new AbortController();
      const queued = postJson({
        url,
        body: '{}',
        timeoutMs: 3000,
        clock,
        dispatcher: pool,
        signal: stop.signal,
      });
      stop.abort(new Error('stopped'));
      let answered = false;
      void queued.then(() => (answered = true));
      await new Promise((resolve) => setImmediate(resolve));
      // it keeps its place (the outbound limiter's backpressure) until undici would start it
      expect(answered).toBe(false);
      release();
      expect(await first).toMatchObject({ ok: true, status: 200 });
      expect(await queued).toMatchObject({ ok: false, reason: 'aborted' });
      expect(seen).toHaveLength(1); // the stopped one was never sent
    } finally {
      await pool.close();
    }
  });

  it("works through a dispatcher of Node's bundled undici, which knows only the older handler", async () => {
    // Node's own fetch, called first, installs its undici's Agent as the global dispatcher;
    // that Agent refuses a handler without onConnect / onHeaders / onData / onComplete / onError
    const { url } = await serve((res) => res.end('{"ok":1}'));
    const pool = new Pool(new URL(url).origin);
    const older = {
      dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
        for (const method of ['onConnect', 'onHeaders', 'onData', 'onComplete', 'onError'])
          if (typeof (handler as Record<string, unknown>)[method] !== 'function')
            throw new Error(`invalid ${method} method`);
        return pool.dispatch(opts, handler);
      },
    } as unknown as Dispatcher;
    try {
      const clock = createVirtualClock();
      expect(
        await postJson({ url, body: '{}', timeoutMs: 3000, clock, dispatcher: older }),
      ).toMatchObject({ ok: true, status: 200, body: '{"ok":1}' });
    } finally {
      await pool.close();
    }
  });

  it('sends each URL to its own path and query, the same URL again as before', async () => {
    const paths: (string | undefined)[] = [];
    const { url } = await serve((res, req) => {
      paths.push(req.url);
      res.end('{"ok":1}');
    });
    const clock = createVirtualClock();
    const other = url.replace('/in?x=1', '/other/path?y=2&z');
    for (const target of [url, other, url, other])
      expect(await postJson({ url: target, body: '{}', timeoutMs: 3000, clock })).toMatchObject({
        ok: true,
      });
    expect(paths).toEqual(['/in?x=1', '/other/path?y=2&z', '/in?x=1', '/other/path?y=2&z']);
  });

  it('gives an outcome, not a throw, for a URL it cannot use', async () => {
    const clock = createVirtualClock();
    for (let n = 0; n < 2; n++)
      expect(
        await postJson({ url: 'ftp://127.0.0.1/x', body: '{}', timeoutMs: 3000, clock }),
      ).toEqual(expect.objectContaining({ ok: false, reason: 'error' }));
    expect(await postJson({ url: 'not a url', body: '{}', timeoutMs: 3000, clock })).toEqual(
      expect.objectContaining({ ok: false, reason: 'error' }),
    );
  });
});
