/**
 * svc-cli/msw under a profile: the handlers follow what `platform --profile` follows.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../../src/clock.js';
import { createMswPlatform, type Profile } from '../../../src/msw/index.js';

const learned: Profile = {
  version: 1,
  name: 'real',
  channel: { intervalMs: { value: 5000, observations: 2 } },
  kinds: {
    'channel.customer.text': {
      observations: 4,
      direction: 'in',
      statuses: { '202': 4 },
      fields: {},
      answerFields: {},
    },
  },
};
const sim = createMswPlatform({
  baseUrl: 'https://platform.test',
  clock: createClock({ timeScale: 0.001 }),
  channels: [{ id: 'shop', randomString: 'test-random-string-0123456789' }],
  profile: learned,
});
const server = setupServer(...sim.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await sim.close();
});

describe('createMswPlatform({ profile })', () => {
  it("answers in the profile's status and shape, resends on its schedule", async () => {
    const response = await fetch(sim.channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'Hi' } }),
    });
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({});
    expect(sim.core.channelPolicy).toMatchObject({ attempts: 3, intervalMs: 5000 });
  });

  it('docs: the docs bot events; options given win over the profile', async () => {
    const bot = { providerUrl: 'https://bot.test/hook', token: 't', providerId: 'acme' };
    const clientInfo = (platform: ReturnType<typeof createMswPlatform>) =>
      platform.core.request('/webhooks/acme/t', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ event: 'CLIENT_INFO', id: 'e-1', client_id: 'x', chat_id: '1' }),
      });
    const docs = createMswPlatform({ baseUrl: 'https://p.test', profile: 'docs', bot });
    const spec = createMswPlatform({ baseUrl: 'https://p.test', profile: 'spec', bot });
    // CLIENT_INFO is a docs event: under spec it is refused 405 naming the switch
    expect((await clientInfo(spec)).status).toBe(405);
    expect((await clientInfo(docs)).status).not.toBe(405);
    expect(spec.core.forms).toBeUndefined();
    await Promise.all([docs.close(), spec.close()]);
    const mine = createMswPlatform({
      baseUrl: 'https://p.test',
      profile: learned,
      channelPolicy: { attempts: 1, intervalMs: 1000, attemptTimeoutMs: 1000, failAfterMs: 1000 },
    });
    expect(mine.core.channelPolicy.attempts).toBe(1);
    expect(mine.core.forms?.answered?.['channel.customer.text']?.status).toBe(202);
  });

  it('a profile that is not one is refused with the field named', () => {
    expect(() =>
      createMswPlatform({ baseUrl: 'https://p.test', profile: 'real' as 'docs' }),
    ).toThrow(/profile "real" is not known/);
    expect(() =>
      createMswPlatform({
        baseUrl: 'https://p.test',
        profile: { version: 1, name: 'x', bot: { attempts: 3 } } as unknown as Profile,
      }),
    ).toThrow(/bot\.attempts/);
  });
});
