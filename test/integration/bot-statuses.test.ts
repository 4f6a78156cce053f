import { afterEach, describe, expect, it } from 'vitest';
import { botMessage, customerText, postTo } from '../helpers/bot.js';
import { closeBotPlatforms, startBotPlatform } from '../helpers/bot-platform.js';
import { getText } from '../../src/http/client.js';
import { createClock } from '../../src/clock.js';

afterEach(closeBotPlatforms);

const text = (t = 'hi') => botMessage('1', { type: 'TEXT', text: t });

/** A platform with chat 1 opened by a customer message, ready for provider requests. */
async function withChat(setup: Parameters<typeof startBotPlatform>[0] = {}) {
  const s = await startBotPlatform(setup);
  await postTo(s.channelUrl, customerText('hello'));
  await s.clock.settle();
  return s;
}

describe('bot service: HTTP statuses to the provider (spec 7.2)', () => {
  it('400 invalid_request for malformed bodies', async () => {
    const s = await withChat();
    const cases: unknown[] = [
      '{not json',
      '[1,2]',
      { id: 'x', chat_id: '1' }, // no event
      { event: 'BOT_MESSAGE', id: 'e1', chat_id: '1' }, // missing message
      botMessage('1', { type: 'TEXT', text: 42 }), // wrong type
      botMessage('1', { type: 'VIDEO', text: 'x' }), // unknown message type
      botMessage('1', {
        type: 'BUTTONS',
        text: 'pick',
        buttons: [1, 2, 3, 4].map((i) => ({ id: `b${i}`, text: `B${i}` })), // spec 8: at most 3
      }),
      botMessage('99', { type: 'TEXT', text: 'no such chat' }),
    ];
    for (const body of cases) {
      const res = await postTo(s.webhook, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.code).toBe('invalid_request');
      expect(typeof res.json.error.message).toBe('string');
    }
    const buttons = await postTo(s.webhook, cases[6]);
    expect(buttons.json.error.message).toContain('at most 3 buttons');
  });

  it('401 invalid_client for a wrong token, 401 unauthorized_client for a bad Authorization header', async () => {
    const s = await withChat({
      bot: { auth: { clientId: 'acme-client', clientSecret: 's3cret' } },
    });
    const wrong = await postTo(`${s.server.url}/webhooks/acme/not-the-token`, text());
    expect(wrong).toMatchObject({ status: 401, json: { error: { code: 'invalid_client' } } });
    const providers = `${s.server.url}/providers/acme/bot-token-1`;
    expect(await postTo(providers, text())).toMatchObject({
      status: 401,
      json: { error: { code: 'unauthorized_client' } },
    });
    expect(await postTo(providers, text(), { authorization: 'Bearer forged' })).toMatchObject({
      status: 401,
      json: { error: { code: 'unauthorized_client' } },
    });
    const received = s.events.of('bot-event-received').map((e) => [e.status, e.code, e.path]);
    expect(received).toContainEqual([401, 'invalid_client', '/webhooks/acme/<token>']);
  });

  it('403 when the chat is not on a channel with the bot attached', async () => {
    const s = await withChat({ bot: { channelIds: ['elsewhere'] } });
    expect(s.provider.hits).toHaveLength(0);
    const res = await postTo(s.webhook, text());
    expect(res).toMatchObject({ status: 403, json: { error: { code: 'access_denied' } } });
  });

  it('404 for a malformed path or an unknown provider', async () => {
    const s = await withChat();
    for (const path of [
      '/webhooks/acme',
      '/webhooks/acme/bot-token-1/extra',
      '/webhooks/other/bot-token-1',
      '/providers',
    ]) {
      const res = await postTo(`${s.server.url}${path}`, text());
      expect(res.status, path).toBe(404);
      expect(res.json.error.code).toBe('not_found');
    }
    // reported by the bot service, the token's place hidden, empty segments dropped
    const received = s.events.of('bot-event-received').map((e) => [e.status, e.path]);
    expect(received).toEqual([
      [404, '/webhooks/acme'],
      [404, '/webhooks/acme/<token>/extra'],
      [404, '/webhooks/other/<token>'],
      [404, '/providers'],
    ]);
    await postTo(`${s.server.url}/webhooks//acme/bot-token-1/`, text());
    expect(s.events.of('bot-event-received').at(-1)).toMatchObject({
      status: 200,
      path: '/webhooks/acme/<token>',
    });
  });

  it('405 for an unsupported method or event', async () => {
    const s = await withChat();
    const get = await getText({
      url: s.webhook,
      timeoutMs: 100_000,
      clock: createClock({ timeScale: 0.01 }),
    });
    expect(get.ok && get.status).toBe(405);
    for (const event of ['CLIENT_MESSAGE', 'AGENT_JOINED', 'AGENT_UNAVAILABLE', 'BOT_TYPING']) {
      const res = await postTo(s.webhook, { event, id: 'e', client_id: '501', chat_id: '1' });
      expect(res.status, event).toBe(405);
      expect(res.json.error.message).toContain('BOT_MESSAGE and INVITE_AGENT');
    }
  });

  it('429 once the per-token limit is exceeded, within a window on the one clock', async () => {
    const s = await withChat({ bot: { rateLimit: { max: 2, windowMs: 1000 } } });
    expect((await postTo(s.webhook, text('1'))).status).toBe(200);
    expect((await postTo(s.webhook, text('2'))).status).toBe(200);
    const limited = await postTo(s.webhook, text('3'));
    expect(limited.status).toBe(429);
    expect(limited.json.error.message).toMatch(/request limit exceeded/);
    await s.clock.advance(1000);
    expect((await postTo(s.webhook, text('4'))).status).toBe(200);
  });
});

describe('bot service: the platform issues tokens for /providers (spec 5.3)', () => {
  it('issues a token for client credentials; the providers path takes it until it expires', async () => {
    const s = await withChat({
      bot: { auth: { clientId: 'acme-client', clientSecret: 's3cret', issuedTokenTtlMs: 10_000 } },
    });
    const tokenUrl = `${s.server.url}/oauth/token`;
    const form = (secret: string, grant = 'client_credentials') =>
      `grant_type=${grant}&client_id=acme-client&client_secret=${secret}`;
    const formHeaders = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await postTo(tokenUrl, form('wrong'), formHeaders)).toMatchObject({
      status: 401,
      json: { error: { code: 'invalid_client' } },
    });
    expect((await postTo(tokenUrl, form('s3cret', 'password'), formHeaders)).status).toBe(400);
    const issued = await postTo(tokenUrl, form('s3cret'), formHeaders);
    expect(issued).toMatchObject({ status: 200, json: { token_type: 'Bearer', expires_in: 10 } });
    const providers = `${s.server.url}/providers/acme/bot-token-1`;
    const auth = { authorization: `Bearer ${issued.json.access_token}` };
    expect((await postTo(providers, text(), auth)).status).toBe(200);
    await s.clock.advance(10_000);
    expect((await postTo(providers, text(), auth)).json.error.code).toBe('unauthorized_client');
  });
});
