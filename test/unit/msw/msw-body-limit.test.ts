/**
 * svc-cli/msw reads a body within the same limit as the socket adapter: a larger one gets the
 * same 413 `body_too_large` reply, is journaled as such, and never reaches the channel.
 */
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../../src/clock.js';
import { DEFAULT_BODY_LIMIT, tooLarge } from '../../../src/http/body.js';
import { createMswPlatform } from '../../../src/msw/index.js';
import { errorBody } from '../../../src/wire-errors.js';

const LIMIT = 200;
const channels = [{ id: 'shop', randomString: 'test-random-string-0123456789' }];
const small = createMswPlatform({
  baseUrl: 'https://small.test',
  clock: createClock({ timeScale: 0.001 }),
  channels,
  bodyLimit: LIMIT,
});
const plain = createMswPlatform({
  baseUrl: 'https://plain.test',
  clock: createClock({ timeScale: 0.001 }),
  channels,
});
const server = setupServer(...small.handlers, ...plain.handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(async () => {
  server.close();
  await small.close();
  await plain.close();
});

const message = (text: string) => ({
  sender: { id: 'c-1', name: 'Ann' },
  message: { type: 'text', text },
});
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
/** The socket adapter's reply to a body over `limit` (src/http/body.ts). */
const wireError = (limit: number) => {
  const refused = tooLarge(limit, 'content-length');
  return refused.ok ? undefined : errorBody(refused.code, refused.message);
};

describe('svc-cli/msw: the body limit', () => {
  it('answers a body over bodyLimit 413 body_too_large, as the socket adapter does', async () => {
    const response = await post(small.channelUrl, message('x'.repeat(LIMIT)));
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(wireError(LIMIT));
    expect(small.events.some((e) => e.type === 'customer-message')).toBe(false);
    expect(small.journal().at(-1)).toMatchObject({ response: { status: 413 } });
  });

  it('takes a body within the limit', async () => {
    const response = await post(small.channelUrl, message('hi'));
    expect(response.status).toBe(200);
  });

  it('refuses a chunked body over the limit once read', async () => {
    const big = JSON.stringify(message('y'.repeat(LIMIT)));
    const response = await fetch(small.channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(response.status).toBe(413);
  });

  it('holds the socket default (1 MiB) without bodyLimit', async () => {
    const over = await post(plain.channelUrl, message('z'.repeat(DEFAULT_BODY_LIMIT)));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual(wireError(DEFAULT_BODY_LIMIT));
    expect((await post(plain.channelUrl, message('z'.repeat(1000)))).status).toBe(200);
  });
});
