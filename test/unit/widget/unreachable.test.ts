/** What a page is told when a send does not reach the platform (a browser says only "Failed to fetch"). */
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpTransport } from '../../../src/widget/http-transport.js';

const failing = (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch;
const event = { type: 'visitor_message', visitor: 'v-1', text: 'hi' } as never;
const g = globalThis as { location?: unknown };

afterEach(() => {
  delete g.location;
});

describe('widget HTTP transport: a send that fails', () => {
  it('on a page of another origin: names CORS and the --allow-origin to start the platform with', async () => {
    g.location = { origin: 'http://shop.test:42110', hostname: 'shop.test' };
    const transport = createHttpTransport('http://127.0.0.1:8800', { fetch: failing });
    await expect(transport.send(event)).rejects.toThrow(
      "Failed to fetch (the platform at http://127.0.0.1:8800 is not running, or it refused this page's origin http://shop.test:42110: start it with --allow-origin http://shop.test:42110)",
    );
  });

  it('on a page opened from a file: --allow-origin null, the Origin it sends', async () => {
    g.location = { origin: 'file://', hostname: '', protocol: 'file:' };
    const transport = createHttpTransport('http://127.0.0.1:8800', { fetch: failing });
    await expect(transport.send(event)).rejects.toThrow(
      'start it with --allow-origin null, or serve the page from http://localhost',
    );
  });

  it('on a loopback page (always let in): asks whether the platform runs', async () => {
    g.location = { origin: 'http://127.0.0.1:5173', hostname: '127.0.0.1' };
    const transport = createHttpTransport('http://127.0.0.1:8800/', { fetch: failing });
    await expect(transport.send(event)).rejects.toThrow(
      'Failed to fetch (is the platform at http://127.0.0.1:8800 running?)',
    );
  });
});
