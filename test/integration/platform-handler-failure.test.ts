import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import type { PlatformEvent } from '../../src/platform/events.js';

// The socket adapter answers a route that fails after the body was read (a throw, a
// rejection, a non-Error thrown) with a 500 and tells the log once; the server keeps serving.
/** What a careless route may throw: not an Error. */
const NOT_AN_ERROR: unknown = 'boom';

describe('a route that fails on the socket', () => {
  let platform: Platform | undefined;
  afterEach(async () => platform?.close());

  it.each([
    [
      'throws',
      () => {
        throw new Error('boom');
      },
    ],
    ['rejects', () => Promise.reject(new Error('boom'))],
    [
      'throws a non-Error',
      () => {
        throw NOT_AN_ERROR;
      },
    ],
  ])(
    '%s: 500 internal, one "handler failed" notice, and the next request is served',
    async (_name, handler) => {
      platform = createPlatform({ clock: createVirtualClock(), channels: [{ id: 'shop' }] });
      platform.core.use({
        name: 'failing',
        routes: [{ method: 'POST', path: '/fail/now', handler }],
      });
      const notices: PlatformEvent[] = [];
      platform.core.on((event) => {
        if (event.type === 'notice') notices.push(event);
      });
      const server = await platform.listen({ port: 0 });
      const res = await fetch(`${server.url}/fail/now`, { method: 'POST', body: '{}' });
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ error: { code: 'internal' } });
      expect(notices).toMatchObject([{ level: 'error', message: 'handler failed: boom' }]);
      const state = await fetch(`${server.url}/_sim/state`);
      expect(state.status).toBe(200);
    },
  );
});
