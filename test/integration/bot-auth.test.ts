import { afterEach, describe, expect, it } from 'vitest';
import { customerText, postTo, type ProviderHit, type ProviderReply } from '../helpers/bot.js';
import { closeBotPlatforms, startBotPlatform } from '../helpers/bot-platform.js';

afterEach(closeBotPlatforms);

/** A provider with a token endpoint (expires_in 10 s) that refuses tokens listed in `refused`. */
function providerWithTokens(refused: Set<string>) {
  let issued = 0;
  return (hit: ProviderHit): ProviderReply => {
    if (hit.path === '/oauth/token') {
      const form = new URLSearchParams(hit.raw);
      if (form.get('client_secret') !== 's3cret' || form.get('grant_type') !== 'client_credentials')
        return { status: 401, body: { error: { code: 'invalid_client', message: 'no' } } };
      issued++;
      return {
        status: 200,
        body: { access_token: `tok-${issued}`, token_type: 'Bearer', expires_in: 10 },
      };
    }
    const token = String(hit.headers.authorization ?? '').replace(/^Bearer /, '');
    return token.startsWith('tok-') && !refused.has(token) ? 200 : 401;
  };
}

const withAuth = (providerUrl: string) => ({
  auth: { tokenUrl: `${providerUrl}/oauth/token`, clientId: 'acme-client', clientSecret: 's3cret' },
});

const eventHits = (hits: ProviderHit[]): unknown[][] =>
  hits
    .filter((h) => h.path !== '/oauth/token')
    .map((h): unknown[] => [h.json.event as string, h.headers.authorization]);

describe('bot service: temporary token to the provider (spec 5.3, OAuth2 client credentials)', () => {
  it('obtains a token, sends it as Bearer, renews it when it expires on the clock', async () => {
    const s = await startBotPlatform({ reply: providerWithTokens(new Set()), bot: withAuth });
    await postTo(s.channelUrl, customerText('one'));
    await s.clock.settle();
    await postTo(s.channelUrl, customerText('two'));
    await s.clock.settle();
    await s.clock.advance(10_000); // the token's 10 s are up
    await postTo(s.channelUrl, customerText('three'));
    await s.clock.settle();
    const token = s.provider.hits.find((h) => h.path === '/oauth/token')!;
    expect(token.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(token.raw))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'acme-client',
      client_secret: 's3cret',
    });
    expect(eventHits(s.provider.hits)).toEqual([
      ['CLIENT_MESSAGE', 'Bearer tok-1'],
      ['CLIENT_MESSAGE', 'Bearer tok-1'],
      ['CLIENT_MESSAGE', 'Bearer tok-2'],
    ]);
    expect(s.events.of('bot-token').map((e) => [e.action, e.reason, e.expiresInMs])).toEqual([
      ['obtained', undefined, 10_000],
      ['renewed', 'expired', 10_000],
    ]);
  });

  it('renews a token the provider refuses with 401, on the next attempt', async () => {
    const s = await startBotPlatform({
      reply: providerWithTokens(new Set(['tok-1'])),
      bot: withAuth,
    });
    await postTo(s.channelUrl, customerText('hello'));
    const done = await s.clock.runUntil(() => s.events.of('bot-event-sent').length > 0, 10_000);
    expect(done).toBe(true);
    expect(eventHits(s.provider.hits)).toEqual([
      ['CLIENT_MESSAGE', 'Bearer tok-1'],
      ['CLIENT_MESSAGE', 'Bearer tok-2'],
    ]);
    expect(s.events.of('bot-event-sent')[0]).toMatchObject({ result: 'delivered', attempts: 2 });
    expect(s.events.of('bot-token').map((e) => [e.action, e.reason])).toEqual([
      ['obtained', undefined],
      ['renewed', 'refused with 401'],
    ]);
  });

  it('reports a token endpoint that refuses the credentials', async () => {
    const s = await startBotPlatform({
      reply: providerWithTokens(new Set()),
      bot: (url) => ({ auth: { ...withAuth(url).auth, clientSecret: 'wrong' } }),
    });
    await postTo(s.channelUrl, customerText('hello'));
    await s.clock.settle();
    expect(s.events.of('bot-token')[0]).toMatchObject({
      action: 'failed',
      reason: 'token endpoint answered HTTP 401',
    });
  });
});
