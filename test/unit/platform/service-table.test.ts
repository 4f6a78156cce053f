import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { addChannel, channelInfoOf } from '../../../src/platform/core.js';
import { createState } from '../../../src/platform/model.js';
import {
  createServiceTable,
  ifaceOf,
  noEndpoint,
  notThisMethod,
} from '../../../src/platform/service-table.js';
import type { PlatformRequest } from '../../../src/platform/types.js';
import { ProtocolError } from '../../../src/protocol-error.js';
import type { RequestRejectedEvent } from '../../../src/wire-errors.js';

const request = (method: string, path: string): PlatformRequest => ({
  method,
  path,
  query: new URLSearchParams(),
  headers: {},
});

describe('the service table: services in use() order, one place that answers', () => {
  it('collects routes and lifecycle hooks as services are used, and finds a service by name', () => {
    const added: unknown[] = [];
    const table = createServiceTable({
      hooks: { add: (hooks) => added.push(hooks) },
      clock: createVirtualClock(),
    });
    const lifecycle = { chatOpened: () => undefined };
    table.use({
      name: 'a',
      lifecycle,
      routes: [{ method: 'GET', path: '/a', handler: () => ({ status: 200, body: 'a' }) }],
    });
    table.use({ name: 'b' });
    expect(added).toEqual([lifecycle, undefined]);
    expect(table.routes().map((r) => r.path)).toEqual(['/a']);
    expect(table.service('b')?.name).toBe('b');
    expect(table.services.map((s) => s.name)).toEqual(['a', 'b']);
    expect(table.handle(request('GET', '/a'))).toMatchObject({ status: 200, body: 'a' });
  });

  it('answers 404 and 405 itself, recorded under the interface of the path', () => {
    const table = createServiceTable({
      hooks: { add: () => undefined },
      clock: createVirtualClock(),
    });
    table.use({
      name: 'a',
      routes: [{ method: 'GET', path: '/_sim/a', handler: () => ({ status: 200 }) }],
    });
    expect(table.handle(request('GET', '/_sim/nope'))).toEqual({
      status: 404,
      body: {
        error: {
          code: 'not_found',
          message:
            'no endpoint at GET /_sim/nope; the control API routes: svc-cli platform --help, docs/platform.md',
        },
      },
      record: { iface: 'control' },
    });
    expect(table.handle(request('DELETE', '/_sim/a'))).toEqual({
      status: 405,
      headers: { allow: 'GET' },
      body: { error: { code: 'method_not_allowed', message: 'use GET' } },
      record: { iface: 'control' },
    });
  });

  it('names the refusals the way spec 7 answers them', () => {
    expect(noEndpoint({ method: 'PUT', path: '/x' }).message).toBe('no endpoint at PUT /x');
    // the console asked of a simulator started without --web: the flag that serves it
    expect(noEndpoint({ method: 'GET', path: '/_sim/console/' }).message).toBe(
      'no endpoint at GET /_sim/console/; the web console is served when the simulator runs with --web (svc-cli platform --web)',
    );
    const refusal = notThisMethod(['GET', 'HEAD']);
    expect([refusal.status, refusal.message, refusal.headers]).toEqual([
      405,
      'use GET or HEAD',
      { allow: 'GET, HEAD' },
    ]);
  });

  it('knows the interface of a path', () => {
    expect(['/', '/_sim/state', '/webhooks/p/t', '/oauth/token', '/r/ch'].map(ifaceOf)).toEqual([
      'control',
      'control',
      'bot',
      'bot',
      'channel',
    ]);
  });
});

describe('channels as the setup screen configures them (spec 1.3, 4.1)', () => {
  it('fills in the defaults, trims the integrator URL and names the channel URL', () => {
    const state = createState([{ id: 7, name: 'Ann', email: 'ann@example.com' }], true);
    const channel = addChannel(state, {
      id: 'ch',
      randomString: 'r4nd',
      integratorUrl: 'http://127.0.0.1:9/in//',
    });
    expect(state.channels.get('ch')).toBe(channel);
    expect(channel).toEqual({
      id: 'ch',
      kind: 'custom',
      name: 'Channel ch',
      randomString: 'r4nd',
      integratorUrl: 'http://127.0.0.1:9/in',
      chunked: false,
      agentIds: [7],
    });
    expect(channelInfoOf('http://127.0.0.1:8', channel)).toEqual({
      id: 'ch',
      name: 'Channel ch',
      url: 'http://127.0.0.1:8/r4nd/ch',
      statusUrl: 'http://127.0.0.1:8/r4nd/ch/status',
      integratorUrl: 'http://127.0.0.1:9/in',
      chunked: false,
    });
  });

  it('reports every refusal it answers once as request-rejected, unless its route did', async () => {
    const rejected: RequestRejectedEvent[] = [];
    const clock = createVirtualClock();
    const table = createServiceTable({
      hooks: { add: () => undefined },
      clock,
      onRejected: (e) => rejected.push(e),
    });
    table.use({
      name: 'a',
      routes: [
        {
          method: 'POST',
          path: '/log',
          handler: () => {
            throw new ProtocolError('not_found', 'no such thing', {
              report: 'the richer log line',
            });
          },
        },
        {
          method: 'POST',
          path: '/own',
          handler: () => {
            throw new ProtocolError('invalid_request', 'said already').reported();
          },
        },
      ],
    });
    await clock.advance(1500);
    expect((await table.handle(request('GET', '/nowhere'))).status).toBe(404);
    expect((await table.handle(request('GET', '/log'))).status).toBe(405);
    expect((await table.handle(request('POST', '/log'))).status).toBe(404);
    expect((await table.handle(request('POST', '/own'))).status).toBe(400);
    expect(rejected).toEqual([
      expect.objectContaining({
        path: '/nowhere',
        status: 404,
        code: 'not_found',
        protocolMs: 1500,
      }),
      expect.objectContaining({ path: '/log', status: 405, code: 'method_not_allowed' }),
      expect.objectContaining({ path: '/log', status: 404, message: 'the richer log line' }),
    ]);
  });
});
