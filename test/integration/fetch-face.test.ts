/**
 * The fetch face (src/http/fetch-adapter.ts): `listen`, `hook-target`, `bot-sim` and the
 * platform answer a Web standard Request through the same pipeline as their socket: the same
 * status, body and journal record; the fault plan and the body limit apply alike.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createClock, createVirtualClock, type Clock } from '../../src/clock.js';
import type { FaultPlan } from '../../src/faults/index.js';
import { readFetchBody, serveFetch } from '../../src/http/fetch-adapter.js';
import { createJournal, type ExchangeRecord, type Journal } from '../../src/journal/index.js';
import { createMswPlatform } from '../../src/msw/index.js';
import { createPlatform } from '../../src/platform/index.js';
import { startProxy, type RunningProxy } from '../../src/proxy/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { buildSampleHookEvent } from '../../src/roles/hooks/samples.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener } from '../../src/roles/integrator/index.js';
import { errorBody } from '../../src/wire-errors.js';
import { agentText } from '../helpers/listener.js';

interface Served {
  url: string;
  fetch(request: Request): Promise<Response>;
  close(graceMs?: number): Promise<void>;
}

interface RoleCase {
  name: string;
  /** the path a valid request goes to, and its body */
  path: string;
  body: unknown;
  start(options: {
    clock: Clock;
    journal: Journal;
    plan?: FaultPlan;
    bodyLimit?: number;
  }): Promise<Served>;
}

const ROLES: RoleCase[] = [
  {
    name: 'listen',
    path: '/ch-42',
    body: agentText(),
    start: (options) => createListener({ port: 0, ...options }),
  },
  {
    name: 'hook-target',
    path: '/hooks',
    body: buildSampleHookEvent('chat_accepted'),
    start: (options) => createHookTarget({ port: 0, ...options }),
  },
  {
    name: 'bot-sim',
    path: '/events/sim-token',
    body: { event: 'AGENT_JOINED', id: 'e-1', client_id: 'c-1', chat_id: '1' },
    start: (options) =>
      createBotProvider({ token: 'sim-token', providerId: 'acme', port: 0, ...options }),
  },
];

const open: Served[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close(10)));
});

const start = async (role: RoleCase, options: Parameters<RoleCase['start']>[0]) => {
  const served = await role.start(options);
  open.push(served);
  return served;
};

const post = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});

/**
 * What a record says of the exchange, without what differs by carrier (times, URL, headers)
 * or by being the second of the two (its attempt).
 */
function essence(record: ExchangeRecord | undefined): unknown {
  const { seq, at, protocolMs, wallMs, durationMs, attempt, request, ...rest } =
    record as ExchangeRecord & { wallMs?: number; durationMs?: number; attempt?: number };
  void [seq, at, protocolMs, wallMs, durationMs, attempt];
  return { ...rest, request: { method: request.method, body: request.body } };
}

describe.each(ROLES)('the fetch face of $name', (role) => {
  it('answers as the socket does, and journals the exchange the same way', async () => {
    const journal = createJournal();
    const served = await start(role, { clock: createClock(), journal });
    const body = JSON.stringify(role.body);
    const overSocket = await fetch(`${served.url}${role.path}`, post(body));
    const overFetch = await served.fetch(new Request(`http://role.test${role.path}`, post(body)));
    expect(overFetch.status).toBe(overSocket.status);
    expect(await overFetch.text()).toBe(await overSocket.text());
    expect(overFetch.headers.get('x-svc-role')).toBe(overSocket.headers.get('x-svc-role'));
    const [socketRecord, fetchRecord] = journal.entries();
    expect(fetchRecord?.request.url).toBe(`http://role.test${role.path}`);
    expect(essence(fetchRecord)).toEqual(essence(socketRecord));
    // one fault plan over both: the same message a second time is its second attempt
    expect([socketRecord?.attempt, fetchRecord?.attempt]).toEqual([1, 2]);
  });

  it('applies the fault plan: a delay on the virtual clock, then the injected 500', async () => {
    const clock = createVirtualClock();
    const journal = createJournal();
    const plan: FaultPlan = { delayMs: 2_000, sequence: [{ kind: 'status', status: 500 }] };
    const served = await start(role, { clock, journal, plan });
    let answered: Response | undefined;
    void served
      .fetch(new Request(`http://role.test${role.path}`, post(JSON.stringify(role.body))))
      .then((response) => (answered = response));
    await clock.settle();
    expect(answered).toBeUndefined();
    expect(await clock.runUntil(() => answered !== undefined)).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(2_000);
    expect(answered?.status).toBe(500);
    expect(journal.entries().at(-1)).toMatchObject({
      fault: 'status:500',
      response: { status: 500 },
    });
  });

  it('answers a body over the limit 413 body_too_large, journaled as such', async () => {
    const journal = createJournal();
    const served = await start(role, {
      clock: createClock(),
      journal,
      bodyLimit: 64,
    });
    const big = JSON.stringify({ ...(role.body as object), pad: 'x'.repeat(100) });
    const response = await served.fetch(new Request(`http://role.test${role.path}`, post(big)));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { code: 'body_too_large' } });
    expect(journal.entries().at(-1)).toMatchObject({ response: { status: 413 } });
  });
});

describe('the fetch face: what the wire does becomes the Response', () => {
  const listen = ROLES[0] as RoleCase;
  const request = () => new Request('http://role.test/ch-42', post(JSON.stringify(listen.body)));

  it('a reset is a network error (Response.error()), as the msw handlers give it', async () => {
    const served = await start(listen, {
      clock: createVirtualClock(),
      journal: createJournal(),
      plan: { fault: { kind: 'reset' } },
    });
    const response = await served.fetch(request());
    expect(response.type).toBe('error');
  });

  it('a slow body streams: the head at once, the body as the clock runs', async () => {
    const clock = createVirtualClock();
    const plan: FaultPlan = { fault: { kind: 'slow-body', durationMs: 4_000 } };
    const served = await start(listen, { clock, journal: createJournal(), plan });
    const response = await served.fetch(request());
    expect(response.status).toBe(200);
    let text: string | undefined;
    void response.text().then((t) => (text = t));
    expect(await clock.runUntil(() => text !== undefined)).toBe(true);
    expect(clock.now()).toBeGreaterThan(3_999); // 20 pieces of 200 ms, as a float sum
    expect(text).toBe('{"result":"ok"}');
  });

  it('a hang ends as a network error when the request is aborted', async () => {
    const served = await start(listen, {
      clock: createVirtualClock(),
      journal: createJournal(),
      plan: { fault: { kind: 'hang' } },
    });
    const controller = new AbortController();
    const pending = served.fetch(
      new Request('http://role.test/ch-42', {
        ...post(JSON.stringify(listen.body)),
        signal: controller.signal,
      }),
    );
    controller.abort();
    expect((await pending).type).toBe('error');
  });
});

describe('the fetch face of the platform', () => {
  const customer = JSON.stringify({
    sender: { id: 'c-1', name: 'Ann' },
    message: { type: 'text', text: 'hello' },
  });
  const channels = [{ id: 'shop', randomString: 'rnd' }];

  it('answers as the socket does, and journals the exchange the same way', async () => {
    const platform = createPlatform({ clock: createVirtualClock(), channels });
    const server = await platform.listen({ port: 0 });
    try {
      const overSocket = await fetch(`${server.url}/rnd/shop`, post(customer));
      const overFetch = await platform.fetch(new Request(`${server.url}/rnd/shop`, post(customer)));
      expect(overFetch.status).toBe(overSocket.status);
      expect(await overFetch.text()).toBe(await overSocket.text());
      const [socketRecord, fetchRecord] = platform.core.journal.entries();
      expect(fetchRecord?.request.url).toBe(`${server.url}/rnd/shop`);
      expect(essence(fetchRecord)).toEqual(essence(socketRecord));
    } finally {
      await platform.close();
    }
  });

  it('answers a body over the limit 413 body_too_large, journaled as such', async () => {
    const platform = createPlatform({ clock: createVirtualClock(), channels, bodyLimit: 64 });
    try {
      const big = JSON.stringify({ pad: 'x'.repeat(100) });
      const response = await platform.fetch(new Request('http://p.test/rnd/shop', post(big)));
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual(
        errorBody('body_too_large', 'the body is larger than 64 bytes'),
      );
      expect(platform.core.journal.entries().at(-1)).toMatchObject({
        response: { status: 413 },
      });
      expect(platform.core.state.chats.size).toBe(0);
    } finally {
      await platform.close();
    }
  });

  it('streams the event stream: the head at once, events as they happen', async () => {
    const platform = createPlatform({ clock: createVirtualClock(), channels });
    try {
      const controller = new AbortController();
      const events = await platform.fetch(
        new Request('http://p.test/_sim/events', { signal: controller.signal }),
      );
      expect(events.status).toBe(200);
      expect(events.headers.get('content-type')).toContain('text/event-stream');
      const reader = events.body!.pipeThrough(new TextDecoderStream()).getReader();
      await platform.fetch(new Request('http://p.test/rnd/shop', post(customer)));
      let seen = '';
      while (!seen.includes('customer-message')) seen += (await reader.read()).value ?? '';
      controller.abort();
      await reader.cancel();
    } finally {
      await platform.close();
    }
  });

  it('the msw handlers: the same pipeline through `fetch`, fault plan included', async () => {
    const clock = createVirtualClock();
    const sim = createMswPlatform({
      baseUrl: 'https://platform.test',
      clock,
      channels,
      faults: { delayMs: 1_000, sequence: [{ kind: 'status', status: 500 }] },
    });
    try {
      let answered: Response | undefined;
      void sim.fetch(new Request(sim.channelUrl, post(customer))).then((r) => (answered = r));
      expect(await clock.runUntil(() => answered !== undefined)).toBe(true);
      expect(clock.now()).toBeGreaterThanOrEqual(1_000);
      expect(answered?.status).toBe(500);
      expect(sim.received.at(-1)).toMatchObject({ fault: 'status:500', status: 500 });
    } finally {
      await sim.close();
    }
  });
});

describe('the fetch face of the proxy', () => {
  const proxies: RunningProxy[] = [];
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close(0)));
  });
  const hook = JSON.stringify(buildSampleHookEvent('chat_accepted'));
  const startHooksProxy = async (
    options: Partial<Parameters<typeof startProxy>[0]> & { clock: Clock },
  ) => {
    const proxy = await startProxy({
      iface: 'hooks',
      upstreams: { receiver: 'http://127.0.0.1:9/hooks' },
      port: 0,
      ...options,
    });
    proxies.push(proxy);
    return proxy;
  };

  it('forwards as the socket does, and journals the exchange the same way', async () => {
    const clock = createClock();
    const receiver = await start(ROLES[1] as RoleCase, { clock, journal: createJournal() });
    const journal = createJournal();
    const proxy = await startHooksProxy({ clock, journal, upstreams: { receiver: receiver.url } });
    const overSocket = await fetch(`${proxy.url}/hooks`, post(hook));
    const overFetch = await proxy.fetch(new Request('http://proxy.test/hooks', post(hook)));
    expect(overFetch.status).toBe(overSocket.status);
    expect(await overFetch.text()).toBe(await overSocket.text());
    expect(overFetch.headers.get('x-svc-role')).toBe('hook-target');
    const [socketRecord, fetchRecord] = journal.entries();
    expect(fetchRecord).toMatchObject({
      iface: socketRecord?.iface,
      kind: socketRecord?.kind,
      verdict: socketRecord?.verdict,
      request: { method: 'POST', body: hook },
      response: { status: 200, body: socketRecord?.response?.body },
    });
    expect(proxy.summary()).toMatchObject({ exchanges: 2 });
  });

  it('applies the fault plan on the fault leg: a delay on the virtual clock, then a 500', async () => {
    const clock = createVirtualClock();
    const journal = createJournal();
    const plan: FaultPlan = { delayMs: 2_000, sequence: [{ kind: 'status', status: 500 }] };
    const proxy = await startHooksProxy({ clock, journal, plan });
    let answered: Response | undefined;
    void proxy
      .fetch(new Request('http://proxy.test/hooks', post(hook)))
      .then((response) => (answered = response));
    expect(await clock.runUntil(() => answered !== undefined)).toBe(true);
    expect(clock.now()).toBeGreaterThanOrEqual(2_000);
    expect(answered?.status).toBe(500);
    expect(journal.entries().at(-1)).toMatchObject({ response: { status: 500 } });
  });

  it('answers a body over the limit 413 body_too_large, as over its socket', async () => {
    const proxy = await startHooksProxy({ clock: createVirtualClock(), bodyLimit: 64 });
    const big = JSON.stringify({ pad: 'x'.repeat(100) });
    const overFetch = await proxy.fetch(new Request('http://proxy.test/hooks', post(big)));
    const overSocket = await fetch(`${proxy.url}/hooks`, post(big));
    expect([overFetch.status, overSocket.status]).toEqual([413, 413]);
    expect(await overFetch.json()).toMatchObject({ error: { code: 'body_too_large' } });
    expect(overFetch.headers.get('x-svc-proxy')).toBe('body_too_large');
  });

  it('answers a path no leg serves 404, without reading its body', async () => {
    const proxy = await startHooksProxy({ clock: createVirtualClock() });
    const response = await proxy.fetch(new Request('http://proxy.test/nowhere', post(hook)));
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'no_route' } });
  });
});

describe('serveFetch: the wire behind every fetch face', () => {
  it('a serving side that throws answers 500 internal, and the error is heard', async () => {
    const heard: unknown[] = [];
    const face = serveFetch(
      () => {
        throw new Error('boom');
      },
      { onHandlerError: (error) => heard.push(error) },
    );
    const response = await face.fetch(new Request('http://x.test/'));
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ error: { code: 'internal' } });
    expect(heard).toHaveLength(1);
  });

  it('close() ends what still waits: a hang as a network error, a started body as a reset', async () => {
    const face = serveFetch((request, wire) => {
      if (request.url.endsWith('/hang')) return wire.hang();
      wire.start(200, { 'content-type': 'text/plain', 'set-cookie': ['a=1', 'b=2'] });
      wire.write('part');
    });
    const hanging = face.fetch(new Request('http://x.test/hang'));
    const started = await face.fetch(new Request('http://x.test/stream'));
    expect(started.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    const body = started.text();
    face.close();
    expect((await hanging).type).toBe('error');
    await expect(body).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('reading a Request body stops at the limit without reading the rest', async () => {
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(new Uint8Array(1024).fill(32));
      },
    });
    const request = new Request('http://x.test/', {
      method: 'POST',
      body: endless,
      duplex: 'half',
    } as RequestInit);
    expect(await readFetchBody(request, 4096, 'chunked')).toMatchObject({
      ok: false,
      status: 413,
      code: 'body_too_large',
    });
    expect(pulled).toBeLessThan(10);
  });
});
