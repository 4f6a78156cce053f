/**
 * What a browser on the user's machine may do with svc-cli's servers (docs/SECURITY.md), on
 * real loopback sockets: a foreign Host is refused by every server; every state-changing
 * control route, walked from the platform's route table, refuses a cross-origin text/plain
 * POST and a foreign Origin with JSON and changes nothing; --allowed-host, --allow-origin and
 * --control-token open exactly what they name.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock, createVirtualClock } from '../../src/clock.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import type { ServePlatformOptions } from '../../src/platform/http-adapter.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createListener } from '../../src/roles/integrator/index.js';
import { startProxy } from '../../src/proxy/index.js';
import { startDemoServer } from '../../src/web/demo-server.js';
import { createConsoleService } from '../../src/web/console-service.js';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: { error?: { code?: string; message?: string } } & Record<string, unknown>;
}

/** One request with exactly these headers (fetch would not let a test set Host). */
function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // a body is framed: node's client chunks a POST or PUT body but sends a DELETE one unframed
    const framing =
      options.body === undefined
        ? {}
        : { 'content-length': String(Buffer.byteLength(options.body)) };
    const req = httpRequest(
      url,
      { method: options.method ?? 'GET', headers: { ...framing, ...options.headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          let json: Answer['json'] = {};
          try {
            json = JSON.parse(text) as Answer['json'];
          } catch {
            // not JSON
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The headers of an event stream's answer; the stream itself is dropped. */
function streamStatus(url: string, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      resolve(res.statusCode ?? 0);
      req.destroy();
    });
    req.on('error', reject);
    req.end();
  });
}

const closers: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

const EVIL = 'http://evil.example';
const JSON_TYPE = { 'content-type': 'application/json' };

async function platformOn(
  options: ServePlatformOptions = {},
): Promise<{ platform: Platform; url: string; channelUrl: string }> {
  const platform = createPlatform({
    clock: createVirtualClock(),
    channels: [{ id: 'shop', randomString: 'rs0123456789abcdef012345' }],
    services: [createConsoleService()],
    hooks: { url: 'http://127.0.0.1:9/hooks' },
    bot: {
      providerUrl: 'http://127.0.0.1:9/bot',
      token: 'bot-token-1',
      providerId: 'acme',
      channelIds: [],
    },
  });
  const server = await platform.listen({ port: 0, ...options });
  closers.push(() => platform.close());
  return {
    platform,
    url: server.url,
    channelUrl: `${server.url}/rs0123456789abcdef012345/shop`,
  };
}

/** A concrete path for a route pattern: `:id` -> 1, `*` -> x. */
const concrete = (pattern: string): string =>
  pattern.replace(/:[A-Za-z]+/g, '1').replace(/\*$/, 'x');

/** What the simulator holds that a control request could change. */
function snapshot(platform: Platform): string {
  const { state, journal } = platform.core;
  return JSON.stringify({
    agentsOnline: state.agentsOnline,
    agents: state.agents,
    channels: [...state.channels.values()],
    chats: [...state.chats.values()],
    customers: [...state.customers.values()],
    out: journal.entries().filter((e) => e.direction === 'out').length,
  });
}

describe('control API: cross-origin use is refused (docs/SECURITY.md)', () => {
  it('refuses text/plain and a foreign Origin on every state-changing /_sim/ route, and changes nothing', async () => {
    const { platform, url, channelUrl } = await platformOn();
    // a chat to act on: every refused request below would change it if it got through
    const opened = await send(channelUrl, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    expect(opened.status).toBe(200);
    const routes = platform.core
      .routes()
      .filter((r) => r.path.startsWith('/_sim/'))
      .flatMap((r) =>
        (typeof r.method === 'string' ? [r.method] : r.method)
          .map((m) => (m === '*' ? 'POST' : m))
          .filter((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS')
          .map((method) => ({ method, path: concrete(r.path) })),
      );
    // the walk found the routes the issue names, and more
    expect(routes.map((r) => r.path)).toEqual(
      expect.arrayContaining([
        '/_sim/agent/message',
        '/_sim/chats/1/close',
        '/_sim/agents',
        '/_sim/journal/1/resend',
        '/_sim/visitor/update',
        '/_sim/calls',
        '/_sim/widget/events',
      ]),
    );
    expect(routes.length).toBeGreaterThanOrEqual(12);
    const before = snapshot(platform);
    const body = JSON.stringify({ chatId: 1, text: 'pwned', online: false, url: null });
    for (const { method, path } of routes) {
      const plain = await send(`${url}${path}`, {
        method,
        headers: { 'content-type': 'text/plain', origin: EVIL },
        body,
      });
      expect([path, plain.status, plain.json.error?.code]).toEqual([path, 403, 'cross_origin']);
      const foreign = await send(`${url}${path}`, {
        method,
        headers: { ...JSON_TYPE, origin: EVIL },
        body,
      });
      expect([path, foreign.status, foreign.json.error?.code]).toEqual([path, 403, 'cross_origin']);
      expect(foreign.json.error?.message).toContain(`--allow-origin ${EVIL}`);
      // no Origin (a form post from an old browser, curl): text/plain is still refused
      const bare = await send(`${url}${path}`, {
        method,
        headers: { 'content-type': 'text/plain' },
        body,
      });
      expect([path, bare.status, bare.json.error?.code]).toEqual([path, 403, 'json_required']);
      const none = await send(`${url}${path}`, { method, body });
      expect([path, none.status]).toEqual([path, 403]);
    }
    expect(snapshot(platform)).toBe(before);
    // the same routes from the server's own origin with JSON reach their handlers
    for (const { method, path } of routes) {
      const own = await send(`${url}${path}`, {
        method,
        headers: { ...JSON_TYPE, origin: url },
        body: '{}',
      });
      expect([path, own.json.error?.code]).not.toEqual([path, 'cross_origin']);
      expect([path, own.json.error?.code]).not.toEqual([path, 'json_required']);
    }
  });

  it("says in the simulator's log how to let a refused page in", async () => {
    // the page's own console shows only the browser's CORS errors
    const { platform, url } = await platformOn();
    const notices: string[] = [];
    platform.core.on((e) => {
      if (e.type === 'notice') notices.push(e.message);
    });
    await send(`${url}/_sim/widget/events`, { method: 'OPTIONS', headers: { origin: EVIL } });
    expect(notices).toContain(
      `refused OPTIONS /_sim/widget/events from a page at ${EVIL}; --allow-origin ${EVIL} lets it in (docs/SECURITY.md)`,
    );
  });

  it('refuses reads of the journal, state and event stream from a foreign Origin', async () => {
    const { url } = await platformOn();
    for (const path of ['/_sim/journal', '/_sim/state', '/_sim/chats', '/_sim/events']) {
      const answer = await send(`${url}${path}`, { headers: { origin: EVIL } });
      expect([path, answer.status, answer.json.error?.code]).toEqual([path, 403, 'cross_origin']);
    }
    expect((await send(`${url}/_sim/state`, { headers: { origin: url } })).status).toBe(200);
    expect((await send(`${url}/_sim/state`)).status).toBe(200);
  });

  it('answers the page-script routes with CORS for loopback origins only', async () => {
    const { url } = await platformOn();
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:5173', 'http://[::1]:8080']) {
      const preflight = await send(`${url}/_sim/widget/events`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe(origin);
      expect(preflight.headers['access-control-allow-headers']).toContain('content-type');
      const posted = await send(`${url}/_sim/widget/events`, {
        method: 'POST',
        headers: { ...JSON_TYPE, origin },
        body: JSON.stringify({ type: 'visitor_hello', visitorId: 'v-1' }),
      });
      expect(posted.headers['access-control-allow-origin']).toBe(origin);
      expect(posted.json.error?.code).toBeUndefined();
    }
    // the demo page of `widget --host 0.0.0.0` opened from another machine: the same host name
    const lan = await send(`${url}/_sim/widget/visitors`, {
      headers: { host: '10.1.2.3:8800', origin: 'http://10.1.2.3:8801' },
    });
    expect(lan.headers['access-control-allow-origin']).toBe('http://10.1.2.3:8801');
    const otherLan = await send(`${url}/_sim/widget/visitors`, {
      headers: { host: '10.1.2.3:8800', origin: 'http://10.1.2.4:8801' },
    });
    expect(otherLan.status).toBe(403);
    const foreign = await send(`${url}/_sim/widget/visitors`, { headers: { origin: EVIL } });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // a loopback page is not a control API client
    const state = await send(`${url}/_sim/state`, { headers: { origin: 'http://localhost:3000' } });
    expect(state.status).toBe(403);
    // without an Origin nothing needs CORS: no wildcard over a socket
    const plain = await send(`${url}/_sim/widget/visitors`);
    expect(plain.status).toBe(200);
    expect(plain.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('--allow-origin opens exactly the origins it names', () => {
  it('admits the named origin to the control API with CORS, and no other', async () => {
    const named = 'http://localhost:5173';
    const { url, platform } = await platformOn({ access: { allowOrigins: [named] } });
    const preflight = await send(`${url}/_sim/agents`, {
      method: 'OPTIONS',
      headers: { origin: named, 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(named);
    const set = await send(`${url}/_sim/agents`, {
      method: 'POST',
      headers: { ...JSON_TYPE, origin: named },
      body: JSON.stringify({ online: false }),
    });
    expect(set.status).toBe(200);
    expect(set.headers['access-control-allow-origin']).toBe(named);
    expect(platform.core.state.agentsOnline).toBe(false);
    for (const other of ['http://localhost:5174', 'https://localhost:5173', EVIL]) {
      const refused = await send(`${url}/_sim/agents`, {
        method: 'POST',
        headers: { ...JSON_TYPE, origin: other },
        body: JSON.stringify({ online: true }),
      });
      expect([other, refused.status]).toEqual([other, 403]);
    }
    expect(platform.core.state.agentsOnline).toBe(false);
    // still JSON only, even for an admitted origin
    const plain = await send(`${url}/_sim/agents`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: named },
      body: JSON.stringify({ online: true }),
    });
    expect(plain.status).toBe(403);
  });
});

describe('a page opened from a file (Origin: null)', () => {
  it('is refused by default, naming --allow-origin null, and let in with it', async () => {
    const { platform, url } = await platformOn();
    const notices: string[] = [];
    platform.core.on((e) => {
      if (e.type === 'notice') notices.push(e.message);
    });
    const refused = await send(`${url}/_sim/widget/visitors`, { headers: { origin: 'null' } });
    expect(refused.status).toBe(403);
    expect(notices.join('\n')).toContain(
      '(opened from a file, or a sandboxed frame); --allow-origin null lets it in',
    );
    const open = await platformOn({ access: { allowOrigins: ['null'] } });
    const posted = await send(`${open.url}/_sim/widget/events`, {
      method: 'POST',
      headers: { ...JSON_TYPE, origin: 'null' },
      body: JSON.stringify({ type: 'visitor_hello', visitorId: 'v-1' }),
    });
    expect(posted.headers['access-control-allow-origin']).toBe('null');
    expect(posted.json.error?.code).toBeUndefined();
  });
});

describe('--control-token opens the control API to its bearer', () => {
  it('wants the token on the control API, journal and event stream; not on the console files, page-script routes or channel', async () => {
    const token = 'tok-0123456789';
    const { url, channelUrl } = await platformOn({ access: { token } });
    for (const path of ['/_sim/state', '/_sim/journal', '/_sim/chats']) {
      const none = await send(`${url}${path}`);
      expect([path, none.status, none.json.error?.code]).toEqual([path, 401, 'control_token']);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await send(`${url}${path}`, { headers: { authorization: 'Bearer nope' } });
      expect([path, wrong.status]).toEqual([path, 401]);
      const right = await send(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      expect([path, right.status]).toEqual([path, 200]);
      // the query token is for EventSource only
      expect((await send(`${url}${path}?token=${token}`)).status).toBe(401);
    }
    const posted = await send(`${url}/_sim/agents`, {
      method: 'POST',
      headers: JSON_TYPE,
      body: '{"online":false}',
    });
    expect(posted.status).toBe(401);
    const authorized = await send(`${url}/_sim/agents`, {
      method: 'POST',
      headers: { ...JSON_TYPE, authorization: `Bearer ${token}` },
      body: '{"online":false}',
    });
    expect(authorized.status).toBe(200);
    // resent from the journal, the control request carries the resend's token, not the
    // `Bearer ***` the journal keeps (which the guard would refuse)
    const bearer = { authorization: `Bearer ${token}` };
    const journal = await send(`${url}/_sim/journal`, { headers: bearer });
    type Entry = { seq: number; request: { url: string }; response?: { status: number } };
    const entries = (journal.json as { entries: Entry[] }).entries;
    const recorded = entries.find(
      (e) => e.request.url.endsWith('/_sim/agents') && e.response?.status === 200,
    );
    expect(recorded).toBeDefined();
    const resent = await send(`${url}/_sim/journal/${recorded!.seq}/resend`, {
      method: 'POST',
      headers: { ...JSON_TYPE, ...bearer },
      body: '{}',
    });
    expect([resent.status, resent.json.status], resent.text).toEqual([200, 200]);
    expect(await streamStatus(`${url}/_sim/events`)).toBe(401);
    expect(await streamStatus(`${url}/_sim/events?token=wrong`)).toBe(401);
    expect(await streamStatus(`${url}/_sim/events?plain=1&token=${token}`)).toBe(200);
    expect(await streamStatus(`${url}/_sim/events`, { authorization: `Bearer ${token}` })).toBe(
      200,
    );
    expect((await send(`${url}/_sim/console/`)).status).toBe(200);
    expect((await send(`${url}/_sim/widget/visitors`)).status).toBe(200);
    const customer = await send(channelUrl, {
      method: 'POST',
      headers: JSON_TYPE,
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    expect(customer.status).toBe(200);
  });
});

describe('Host allow-list: every server refuses a Host name it was not given', () => {
  async function everyServer(allowedHosts?: string[]): Promise<Array<[string, string]>> {
    const extra = allowedHosts ? { allowedHosts } : {};
    const clock = createClock({ timeScale: 0.001 });
    const { url: platformUrl } = await platformOn(extra);
    const listener = await createListener({ clock, port: 0, ...extra });
    closers.push(() => listener.close(0));
    const hooks = await createHookTarget({ clock, port: 0, ...extra });
    closers.push(() => hooks.close(0));
    const bot = await createBotProvider({ token: 't', providerId: 'p', clock, port: 0, ...extra });
    closers.push(() => bot.close(0));
    const proxy = await startProxy({
      iface: 'hooks',
      upstreams: { receiver: 'http://127.0.0.1:9/hooks' },
      clock,
      port: 0,
      ...extra,
    });
    closers.push(() => proxy.close(0));
    const demo = await startDemoServer({ platformUrl, port: 0, ...extra });
    closers.push(() => demo.close(0));
    return [
      ['platform', platformUrl],
      ['listen', listener.url],
      ['hook-target', hooks.url],
      ['bot-sim', bot.url],
      ['proxy', proxy.url],
      ['widget demo', demo.url],
    ];
  }

  it('answers 403 naming --allowed-host to a foreign Host, and serves loopback names and IPs', async () => {
    for (const [name, url] of await everyServer()) {
      const port = new URL(url).port;
      const refused = await send(`${url}/`, { headers: { host: `attacker.example:${port}` } });
      expect([name, refused.status, refused.json.error?.code]).toEqual([
        name,
        403,
        'host_not_allowed',
      ]);
      expect(refused.json.error?.message).toContain('--allowed-host attacker.example');
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, '10.1.2.3']) {
        const served = await send(`${url}/`, { headers: { host } });
        expect([name, host, served.json.error?.code]).not.toEqual([name, host, 'host_not_allowed']);
      }
    }
  });

  it('--allowed-host admits exactly the names given (.name: the names under it)', async () => {
    for (const [name, url] of await everyServer(['svc.test', '.dev.test'])) {
      for (const host of ['svc.test', 'SVC.test:8800', 'dev.test', 'a.dev.test:1']) {
        const served = await send(`${url}/`, { headers: { host } });
        expect([name, host, served.status]).not.toEqual([name, host, 403]);
      }
      for (const host of ['svc.test.evil', 'other.test', 'xdev.test', 'evil-svc.test']) {
        const refused = await send(`${url}/`, { headers: { host } });
        expect([name, host, refused.status]).toEqual([name, host, 403]);
      }
    }
  });

  it('startServer guards any handler, before it runs', async () => {
    let reached = 0;
    const server: RunningServer = await startServer({
      port: 0,
      handler: (_req, res) => {
        reached++;
        res.end('ok');
      },
    });
    closers.push(() => server.close(0));
    expect((await send(server.url, { headers: { host: 'rebound.example' } })).status).toBe(403);
    expect(reached).toBe(0);
    expect((await send(server.url)).text).toBe('ok');
  });
});
