import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_BOT_SCRIPT, pickRule } from '../../src/roles/bot/index.js';
import { customerText, postTo } from '../helpers/bot.js';
import { closeBotSims, startBotSim } from '../helpers/bot-sim.js';

afterEach(closeBotSims);

describe('bot-sim default script, against the platform (spec 3, 6.1)', () => {
  it('echoes text as TEXT, delivered to the integrator as the bot', async () => {
    const s = await startBotSim();
    await postTo(s.channelUrl, customerText('hello there'));
    const sent = await s.waitForBot('bot-sent');
    expect(sent).toMatchObject({
      event: 'BOT_MESSAGE',
      messageType: 'TEXT',
      text: 'You said: hello there',
      status: 200,
      rule: 'echo',
    });
    const [delivered] = await s.harness.waitForEvents(1);
    expect(delivered).toMatchObject({
      type: 'agent-message',
      kind: 'channel.agent.text',
      verdict: { ok: true },
    });
    expect(s.botEvents[0]).toMatchObject({
      type: 'bot-received',
      event: 'CLIENT_MESSAGE',
      chatId: '1',
      reply: { status: 200 },
      fault: 'none',
    });
  });

  it('"menu" gets BUTTONS with 3 buttons; a click gets MARKDOWN with a text fallback', async () => {
    const s = await startBotSim();
    await postTo(s.channelUrl, customerText('Menu'));
    expect(await s.waitForBot('bot-sent')).toMatchObject({
      messageType: 'BUTTONS',
      rule: 'menu',
      status: 200,
    });
    const fallback = await s.events.waitFor('bot-message');
    expect(fallback).toMatchObject({
      messageType: 'BUTTONS',
      fallback: true,
      text: 'How can I help? Reply: orders, returns or delivery',
    });
    expect(DEFAULT_BOT_SCRIPT.rules.find((r) => r.name === 'menu')!.reply[0]).toMatchObject({
      buttons: [{}, {}, {}],
    });
    // a button click comes as TEXT with button_id (spec 2.5)
    expect(
      pickRule(DEFAULT_BOT_SCRIPT, { event: 'CLIENT_MESSAGE', text: 'Orders', buttonId: 'orders' })
        ?.name,
    ).toBe('button');
  });

  it('a clicked button (button_id) gets MARKDOWN', async () => {
    const s = await startBotSim({ platformUrl: 'http://127.0.0.1:9' });
    const res = await postTo(`${s.bot.url}/sim-token`, {
      event: 'CLIENT_MESSAGE',
      id: 'ev-1',
      client_id: '501',
      chat_id: '1',
      message: { type: 'TEXT', text: 'Orders', button_id: 'orders', timestamp: 1700000000 },
    });
    expect(res.status).toBe(200);
    const sent = await s.waitForBot('bot-sent');
    expect(sent).toMatchObject({
      rule: 'button',
      messageType: 'MARKDOWN',
      text: 'You picked orders. Track your order: https://example.com/orders',
    });
  });

  it('"agent" gets INVITE_AGENT; with agents online an agent joins (AGENT_JOINED)', async () => {
    const s = await startBotSim();
    await postTo(s.channelUrl, customerText('I want an agent'));
    expect(await s.waitForBot('bot-sent')).toMatchObject({
      event: 'INVITE_AGENT',
      rule: 'agent',
      status: 200,
    });
    expect(await s.waitForBot('bot-received', (e) => e.event === 'AGENT_JOINED')).toMatchObject({
      rule: 'agent-joined',
    });
    expect(s.platform.core.state.chats.get(1)!.mode).toBe('agent');
  });

  it('"operator" with no agent online: AGENT_UNAVAILABLE, and the bot asks for contact data', async () => {
    const s = await startBotSim({ agentsOnline: false });
    await postTo(s.channelUrl, customerText('operator please'));
    await s.waitForBot('bot-received', (e) => e.event === 'AGENT_UNAVAILABLE');
    const ask = await s.waitForBot('bot-sent', (e) => e.rule === 'no-agent');
    expect(ask.text).toMatch(/e-mail or phone/);
    const message = await s.events.waitFor('bot-message', (e) => /e-mail/.test(e.text));
    expect(message.sender).toBe('Bot');
  });

  it('answers a malformed or unknown event 400 like a strict provider, and says so', async () => {
    const s = await startBotSim();
    const url = `${s.bot.url}/sim-token`;
    const unknown = await postTo(url, { event: 'HELLO', id: '1' });
    expect(unknown).toMatchObject({ status: 400, json: { error: { code: 'invalid_request' } } });
    const wrongWay = await postTo(url, {
      event: 'BOT_MESSAGE',
      id: '1',
      chat_id: '1',
      message: { type: 'TEXT', text: 'x', timestamp: 1 },
    });
    expect(wrongWay.json.error.message).toContain('goes from the provider to the platform');
    const missing = await postTo(url, {
      event: 'CLIENT_MESSAGE',
      id: '1',
      client_id: 'c',
      chat_id: '1',
    });
    expect(missing.status).toBe(400);
    expect((await postTo(`${s.bot.url}/wrong-token`, {})).json.error.code).toBe('invalid_client');
    expect((await postTo(`${s.bot.url}/a/b`, {})).json.error.code).toBe('invalid_client');
    expect((await postTo(`${s.bot.url}/`, {})).status).toBe(404);
    expect(s.botEvents.filter((e) => e.type === 'request-rejected').map((e) => e.status)).toEqual([
      400, 400, 400, 401, 401, 404,
    ]);
    // one event shape for every refusal, whether before the body or of the body itself
    const rejected = s.botEvents.filter((e) => e.type === 'request-rejected');
    for (const event of rejected)
      expect(Object.keys(event).sort()).toEqual(
        ['code', 'message', 'method', 'path', 'protocolMs', 'status', 'type'].sort(),
      );
    expect(rejected.map((e) => e.path)).toEqual([
      '/<token>',
      '/<token>',
      '/<token>',
      '/<token>',
      '/a/<token>',
      '/',
    ]);
    expect(rejected[0]).toMatchObject({ code: 'invalid_request', method: 'POST' });
  });

  it('answers under any path that ends in the token: the provider URL is free (spec 4.3)', async () => {
    const s = await startBotSim();
    const event = {
      event: 'CLIENT_MESSAGE',
      id: 'e-1',
      client_id: 'c-1',
      chat_id: '1',
      message: { type: 'TEXT', text: 'hi', timestamp: 1 },
    };
    expect((await postTo(`${s.bot.url}/bot/sim-token`, event)).status).toBe(200);
    expect((await postTo(`${s.bot.url}/a/b/sim-token`, { ...event, id: 'e-2' })).status).toBe(200);
  });

  it('--fail-first 1: the platform retries after 3 s; the bot acts once', async () => {
    const s = await startBotSim({ plan: { failFirst: 1 } });
    await postTo(s.channelUrl, customerText('hi'));
    await s.waitForBot('bot-sent');
    const received = s.botEvents.filter((e) => e.type === 'bot-received');
    expect(
      received.map((e) => [e.attempt, 'status' in e.reply ? e.reply.status : 0, e.rule]),
    ).toEqual([
      [1, 500, undefined],
      [2, 200, 'echo'],
    ]);
    const attempts = s.events.of('delivery-attempt').filter((e) => e.target === 'bot');
    expect(attempts.map((a) => a.offsetMs >= 3000)).toEqual([false, true]);
  });

  it('with auth, both sides use temporary tokens (spec 5.3)', async () => {
    const s = await startBotSim({
      auth: { clientId: 'acme-client', clientSecret: 's3cret' },
      platformAuth: true,
    });
    await postTo(s.channelUrl, customerText('secure hello'));
    expect(await s.waitForBot('bot-sent')).toMatchObject({
      status: 200,
      text: 'You said: secure hello',
    });
    expect(
      s.botEvents
        .filter((e) => e.type === 'bot-token')
        .map((e) => e.action)
        .sort(),
    ).toEqual(['issued', 'obtained']);
    expect(
      s.events
        .of('bot-token')
        .map((e) => e.action)
        .sort(),
    ).toEqual(['issued', 'obtained']);
    expect(s.events.of('bot-event-received')[0]).toMatchObject({
      path: '/providers/acme/<token>',
      status: 200,
    });
  });

  it("refuses at /oauth/token with the roles' one request-rejected event (spec 5.3, 7.2)", async () => {
    const s = await startBotSim({ auth: { clientId: 'acme-client', clientSecret: 's3cret' } });
    const get = await fetch(`${s.bot.url}/oauth/token`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const wrong = await postTo(`${s.bot.url}/oauth/token`, {
      grant_type: 'client_credentials',
      client_id: 'acme-client',
      client_secret: 'wrong',
    });
    const rejected = s.botEvents.filter((e) => e.type === 'request-rejected');
    expect(rejected.map(({ protocolMs: _at, ...e }) => e)).toEqual([
      {
        type: 'request-rejected',
        method: 'GET',
        path: '/oauth/<token>',
        status: 405,
        code: 'invalid_request',
        message: 'use POST',
      },
      {
        type: 'request-rejected',
        method: 'POST',
        path: '/oauth/<token>',
        status: wrong.status,
        code: wrong.json.error.code,
        message: wrong.json.error.message,
      },
    ]);
    expect(wrong.status).toBeGreaterThanOrEqual(400);
  });
});
