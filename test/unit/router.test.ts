/**
 * The shared route matcher (src/http/router.ts) with plain data as handlers, as the proxy's
 * legs and bot-sim's endpoints use it: the most specific pattern wins whatever the order.
 */
import { describe, expect, it } from 'vitest';
import { createRouter } from '../../src/http/router.js';

describe('createRouter<H>: routes as data', () => {
  it('hands back the data of the most specific route, whatever the order added', () => {
    const router = createRouter<string>();
    router.add([{ method: '*', path: '/*', handler: 'events' }]);
    router.add([{ method: '*', path: '/oauth/token', handler: 'token' }]);
    expect(router.match('POST', '/oauth/token')).toMatchObject({ kind: 'found', handler: 'token' });
    expect(router.match('GET', '/oauth//token')).toMatchObject({ handler: 'token' });
    expect(router.match('POST', '/bot/t0k')).toMatchObject({
      handler: 'events',
      params: { '*': 'bot/t0k' },
    });
    expect(router.match('POST', '/')).toMatchObject({ handler: 'events', params: { '*': '' } });
  });

  it('matches a prefix leg with or without the rest, and answers 405 by method', () => {
    const router = createRouter<{ name: string }>();
    router.add([
      { method: '*', path: '/integrator/*', handler: { name: 'integrator' } },
      { method: 'POST', path: '/hooks', handler: { name: 'hooks' } },
    ]);
    expect(router.match('POST', '/integrator')).toMatchObject({ handler: { name: 'integrator' } });
    expect(router.match('POST', '/integrator/a/b')).toMatchObject({ params: { '*': 'a/b' } });
    expect(router.match('POST', '/integratorx').kind).toBe('none');
    expect(router.match('GET', '/hooks')).toEqual({ kind: 'method', allow: ['POST'] });
  });

  it('lets a * stand before the last segments: any path ending in the token', () => {
    const router = createRouter<string>();
    router.add([
      { method: '*', path: '/*/:token', handler: 'events' },
      { method: '*', path: '/oauth/token', handler: 'token' },
      { method: 'POST', path: '/a/*/:x/end', handler: 'inner' },
    ]);
    expect(router.match('POST', '/t0k')).toEqual({
      kind: 'found',
      handler: 'events',
      params: { '*': '', token: 't0k' },
    });
    expect(router.match('POST', '/bot//v1/t0k/')).toMatchObject({
      params: { '*': 'bot/v1', token: 't0k' },
    });
    expect(router.match('POST', '/oauth/token')).toMatchObject({ handler: 'token' });
    expect(router.match('POST', '/').kind).toBe('none');
    expect(router.match('POST', '/a/q/end')).toMatchObject({
      handler: 'inner',
      params: { '*': '', x: 'q' },
    });
    expect(router.match('POST', '/a/1/2/q/end')).toMatchObject({
      handler: 'inner',
      params: { '*': '1/2', x: 'q' },
    });
    expect(router.match('GET', '/a/q/end')).toEqual({ kind: 'method', allow: ['POST'] });
    expect(() => router.add([{ method: '*', path: '/*/x/*', handler: 'two' }])).toThrow(/one \*/);
  });
});

describe('createRouter<H>: the last route found', () => {
  it('answers the same path and method as it did, with frozen params, until routes change', () => {
    const router = createRouter<string>();
    router.add([{ method: 'POST', path: '/:random/:channel', handler: 'ingest' }]);
    const first = router.match('POST', '/r4nd/shop');
    expect(first).toEqual({
      kind: 'found',
      handler: 'ingest',
      params: { random: 'r4nd', channel: 'shop' },
    });
    expect(router.match('POST', '/r4nd/shop')).toBe(first);
    if (first.kind === 'found') expect(Object.isFrozen(first.params)).toBe(true);
    // another path or method is matched afresh
    expect(router.match('POST', '/x/y')).toMatchObject({ params: { random: 'x', channel: 'y' } });
    expect(router.match('GET', '/x/y')).toEqual({ kind: 'method', allow: ['POST'] });
    expect(router.match('POST', '/r4nd/shop')).toEqual(first);
    // a route added later may own the path: nothing remembered answers for it
    router.add([{ method: 'POST', path: '/r4nd/shop', handler: 'static' }]);
    expect(router.match('POST', '/r4nd/shop')).toMatchObject({ handler: 'static' });
  });
});
