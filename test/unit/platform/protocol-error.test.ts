import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { createPlatformCore, type PlatformCore } from '../../../src/platform/index.js';
import type { PlatformRequest } from '../../../src/platform/types.js';
import { ProtocolError } from '../../../src/protocol-error.js';
import { WIRE_ERRORS } from '../../../src/wire-errors.js';

const cores: PlatformCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.stop()));
});

const request = (path: string, method = 'POST'): PlatformRequest => ({
  method,
  path,
  query: new URLSearchParams(),
  headers: {},
});

/** A core with one route that throws (or rejects with) what it is given. */
function coreThrowing(error: Error, async = false): PlatformCore {
  const core = createPlatformCore({ clock: createVirtualClock(), channels: [] });
  cores.push(core);
  core.use({
    name: 'refuser',
    routes: [
      {
        method: '*',
        path: '/webhooks/*',
        handler: () => {
          if (async) return Promise.reject(error);
          throw error;
        },
      },
    ],
  });
  return core;
}

describe('ProtocolError: a protocol refusal thrown by a route, answered once by the core', () => {
  it('takes its status and contract section from the wire error catalogue', () => {
    const refusal = new ProtocolError('invalid_client', 'wrong token');
    expect(refusal).toMatchObject({
      status: WIRE_ERRORS.invalid_client.status,
      code: 'invalid_client',
      section: '7.2',
      message: 'wrong token',
    });
    expect(refusal).toBeInstanceOf(Error);
    // spec 7.2: an event the platform does not take is invalid_request with 405
    expect(new ProtocolError('invalid_request', 'x', { status: 405 }).status).toBe(405);
    expect(new ProtocolError('invalid_json', 'x').section).toBeNull();
    // @ts-expect-error a free string is not a wire error code (checked by tsc, not run)
    const typed = () => new ProtocolError('nope', 'x');
    expect(typeof typed).toBe('function');
  });

  it('is answered with its status, headers, error body and record, synchronously', () => {
    const core = coreThrowing(
      new ProtocolError('rate_limited', 'retry in 1000 ms', {
        headers: { 'retry-after': '1' },
        record: { chat: 3, verdict: { ok: false, errors: ['rate_limited'], warnings: [] } },
      }),
    );
    const answer = core.handle(request('/webhooks/acme/t'));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual({
      status: 429,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'rate_limited', message: 'retry in 1000 ms' } },
      record: {
        iface: 'bot',
        chat: 3,
        verdict: { ok: false, errors: ['rate_limited'], warnings: [] },
      },
    });
  });

  it('a route that rejects with one is answered the same way', async () => {
    const core = coreThrowing(new ProtocolError('access_denied', 'not attached'), true);
    await expect(core.handle(request('/webhooks/acme/t'))).resolves.toMatchObject({
      status: 403,
      body: { error: { code: 'access_denied', message: 'not attached' } },
      record: { iface: 'bot' },
    });
  });

  it('withRecord adds what the route knew and keeps the rest', () => {
    const refusal = new ProtocolError('method_not_allowed', 'use POST', {
      headers: { allow: 'POST' },
      record: { notes: ['a'] },
    }).withRecord({ chat: 1 });
    expect(refusal).toMatchObject({
      status: 405,
      headers: { allow: 'POST' },
      record: { notes: ['a'], chat: 1 },
    });
  });

  it("an interface's own refusal shape and record interface are answered as given", () => {
    const core = coreThrowing(
      new ProtocolError('not_found', 'no such thing', {
        body: { ok: false, error: 'no such thing' },
        record: { iface: 'widget' },
      }).withRecord({ notes: ['kept'] }),
    );
    expect(core.handle(request('/webhooks/acme/t'))).toEqual({
      status: 404,
      body: { ok: false, error: 'no such thing' },
      record: { iface: 'widget', notes: ['kept'] },
    });
  });

  it('other errors are not refusals: they reach the adapter (a 500 there)', () => {
    const core = coreThrowing(new TypeError('a bug'));
    expect(() => core.handle(request('/webhooks/acme/t'))).toThrow('a bug');
  });
});
