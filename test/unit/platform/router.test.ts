import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { createPlatform } from '../../../src/platform/index.js';
import { createRouter, type RouteHandler } from '../../../src/platform/router.js';

const named =
  (name: string): RouteHandler =>
  () => ({ status: 200, body: name });

describe('the router (routes as data)', () => {
  const router = createRouter();
  // registered in the "wrong" order on purpose: specificity, not order, decides
  router.add([
    { method: '*', path: '/:random/:channel', handler: named('channel') },
    { method: '*', path: '/:random/:channel/status', handler: named('status') },
    { method: '*', path: '/webhooks/*', handler: named('bot') },
    { method: 'GET', path: '/_sim/console/*', handler: named('console') },
    { method: 'GET', path: '/_sim/chats/:id', handler: named('chat') },
    { method: 'POST', path: '/_sim/chats/:id/close', handler: named('close') },
    { method: ['GET', 'HEAD'], path: '/', handler: named('root') },
  ]);
  const nameOf = (method: string, path: string) => {
    const m = router.match(method, path);
    return m.kind === 'found' ? [m.handler({} as never, m.params)] : m;
  };

  it.each([
    ['POST', '/r4nd0m/shop', [{ status: 200, body: 'channel' }]],
    ['GET', '/r4nd0m/shop/status', [{ status: 200, body: 'status' }]],
    ['POST', '/webhooks/dev/token', [{ status: 200, body: 'bot' }]],
    ['POST', '/webhooks/status', [{ status: 200, body: 'bot' }]],
    ['GET', '/_sim/console/app.js', [{ status: 200, body: 'console' }]],
    ['GET', '/_sim/chats/7', [{ status: 200, body: 'chat' }]],
    ['HEAD', '/', [{ status: 200, body: 'root' }]],
  ])('%s %s goes to the most specific route', (method, path, expected) => {
    expect(nameOf(method, path)).toEqual(expected);
  });

  it('answers 405 with every allowed method when only the method differs, else none', () => {
    expect(router.match('DELETE', '/_sim/chats/7/close')).toEqual({
      kind: 'method',
      allow: ['POST'],
    });
    expect(router.match('GET', '/_sim/nothing/here/at/all')).toEqual({ kind: 'none' });
  });

  it('hands the params over', () => {
    const m = router.match('POST', '/_sim/chats/42/close');
    expect(m).toMatchObject({ kind: 'found', params: { id: '42' } });
  });

  it('reads empty segments as absent, and `*` as the rest of the path, even empty', () => {
    expect(router.match('POST', '//r4nd0m///shop/')).toMatchObject({
      kind: 'found',
      params: { random: 'r4nd0m', channel: 'shop' },
    });
    expect(router.match('GET', '/_sim/console')).toMatchObject({
      kind: 'found',
      params: { '*': '' },
    });
    expect(router.match('GET', '/_sim//console/a//b/')).toMatchObject({
      kind: 'found',
      params: { '*': 'a/b' },
    });
    expect(router.match('POST', '/r4nd0m')).toEqual({ kind: 'none' });
    expect(router.match('POST', '/a/b/c/d')).toEqual({ kind: 'none' });
    const mid = createRouter();
    mid.add([{ method: 'GET', path: '/a/*/b', handler: named('mid') }]);
    // a `*` before other segments takes what they leave: the path must end in them
    expect(mid.match('GET', '/a/b')).toMatchObject({ kind: 'found', params: { '*': '' } });
    expect(mid.match('GET', '/a/x/y/b')).toMatchObject({ kind: 'found', params: { '*': 'x/y' } });
    expect(mid.match('GET', '/a').kind).toBe('none');
    expect(mid.match('GET', '/a/x/y/z').kind).toBe('none');
  });
});

describe('core.request(): the platform without a socket', () => {
  it('serves the channel, the control API, 404 and 405 in process', async () => {
    const platform = createPlatform({
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'r4nd0m' }],
    });
    const { core } = platform;
    const status = await core.request('/r4nd0m/shop/status');
    expect([status.status, await status.text()]).toEqual([200, '1']);
    const sent = await core.request('/r4nd0m/shop', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    expect(sent.status).toBe(200);
    const chats = (await (await core.request('/_sim/chats')).json()) as { chats: unknown[] };
    expect(chats.chats).toHaveLength(1);
    const wrong = await core.request('/wrong/shop', { method: 'POST', body: '{}' });
    expect(wrong.status).toBe(404);
    const method = await core.request('/_sim/agents');
    expect([method.status, method.headers.get('allow')]).toEqual([405, 'POST']);
    const missing = await core.request('/_sim/chats/99');
    expect([
      missing.status,
      ((await missing.json()) as { error: { code: string } }).error.code,
    ]).toEqual([404, 'SVC_E_NO_CHAT']);
    await platform.close();
  });
});

describe('control API chat ids (string or number, like every chat id)', () => {
  it('POST /_sim/calls and /_sim/agent/message take chatId as "1" or 1; "x" is a 400 naming it', async () => {
    const platform = createPlatform({
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'r4nd0m' }],
      hooks: { url: 'http://127.0.0.1:9/hooks', attempts: 1 },
    });
    const { core } = platform;
    const post = (path: string, body: unknown) =>
      core.request(path, { method: 'POST', body: JSON.stringify(body) });
    await post('/r4nd0m/shop', { sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } });
    for (const chatId of ['1', 1]) {
      const call = await post('/_sim/calls', { phone: '+15550100', chatId });
      expect(call.status).toBe(202);
      const typing = await post('/_sim/agent/typing', { chatId, typing: true });
      expect(typing.status).not.toBe(400);
    }
    const bad = await post('/_sim/calls', { phone: '+15550100', chatId: 'x' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('chatId: must be a chat id');
    await platform.close();
  });
});

describe('a chat id in the path that is not a number', () => {
  it('is no such chat, named as given, on every /_sim/chats/:id route', async () => {
    const platform = createPlatform({
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'r4nd0m' }],
      hooks: { url: 'http://127.0.0.1:9/hooks', attempts: 1 },
    });
    const { core } = platform;
    for (const [method, path, body] of [
      ['GET', '/_sim/chats/abc', undefined],
      ['POST', '/_sim/chats/abc/close', {}],
      ['POST', '/_sim/chats/abc/assign', {}],
      ['POST', '/_sim/chats/abc/rate', { rate: 'positive' }],
    ] as const) {
      const answer = await core.request(path, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect([path, answer.status, await answer.json()]).toMatchObject([
        path,
        404,
        { error: { code: 'SVC_E_NO_CHAT', message: 'Could not find chat abc.' } },
      ]);
    }
    await platform.close();
  });
});

describe('control API "wait": false', () => {
  it('answers 202 with the chat and delivery ids, and refuses what it would not send', async () => {
    const platform = createPlatform({
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'r4nd0m' }],
    });
    const { core } = platform;
    const post = (path: string, body: unknown) =>
      core.request(path, { method: 'POST', body: JSON.stringify(body) });
    const announced: string[] = [];
    core.on((e) => {
      if (e.type === 'agent-message') announced.push(e.deliveryId);
    });
    await post('/r4nd0m/shop', { sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } });
    const sent = await post('/_sim/agent/message', { customerId: 'c-1', text: 'a', wait: false });
    expect(sent.status).toBe(202);
    const body = (await sent.json()) as { accepted: boolean; chatId: number; deliveryId: string };
    expect(body).toMatchObject({ accepted: true, chatId: 1 });
    expect(body.deliveryId).toMatch(/\S{8,}/);
    expect(announced).toEqual([body.deliveryId]); // the id the delivery events carry
    // refused now, not answered 202 for a message that is never sent
    const refused = await post('/_sim/agent/message', {
      customerId: 'c-1',
      message: { type: 'banana' },
      wait: false,
    });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('SVC_E_AGENT_MESSAGE');
    await post('/_sim/chats/1/close', {});
    const closed = await post('/_sim/agent/message', { customerId: 'c-1', text: 'b', wait: false });
    expect(closed.status).toBe(409);
    expect(await closed.text()).toContain('SVC_E_CHAT_CLOSED');
    await platform.close();
  });
});

describe('log order ("chat opened" stamped after the message that opened it)', () => {
  it("a chat opened by a customer message carries that message's protocol time", async () => {
    const base = createVirtualClock();
    let tick = 0;
    // every read of the clock is 10 ms later, as on a busy real clock
    const clock = { ...base, now: () => (tick += 10) };
    const platform = createPlatform({ clock, channels: [{ id: 'shop', randomString: 'r4nd0m' }] });
    const events: { type: string; protocolMs: number }[] = [];
    platform.core.on((e) => events.push(e as { type: string; protocolMs: number }));
    await platform.core.request('/r4nd0m/shop', {
      method: 'POST',
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
    });
    const opened = events.find((e) => e.type === 'chat-opened')!;
    const message = events.find((e) => e.type === 'customer-message')!;
    expect(opened.protocolMs).toBe(message.protocolMs);
    expect(events.indexOf(opened)).toBeLessThan(events.indexOf(message));
    await platform.close();
  });
});
