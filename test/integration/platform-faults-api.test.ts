/**
 * The fault plan switched while the platform serves (`PUT`, `GET`, `DELETE /_sim/faults`,
 * `Platform.setFaults`, src/platform/control-api.ts), as a test suite driving a long-running
 * `svc-cli platform` does between its tests: on a real loopback socket, a platform started
 * without a plan gets one, reads it, changes it (attempt counts start again) and clears it;
 * a bad plan is refused with the control API's code and the field at fault; the control API
 * itself is never faulted.
 */
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { createMswPlatform } from '../../src/msw/index.js';
import { createPlatform } from '../../src/platform/index.js';
import { customerText, post, startPlatform } from '../helpers/platform.js';

const message = (id: string, text = 'Hello') => ({
  ...customerText('c-42', text, { name: 'Ann' }),
  message: { type: 'text', text, id },
});

/** A control request with a JSON body (or raw text) and the JSON answer. */
async function control(
  url: string,
  method: 'PUT' | 'DELETE' | 'GET',
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method,
    ...(method === 'GET'
      ? {}
      : {
          headers: { 'content-type': 'application/json' },
          body: typeof body === 'string' ? body : JSON.stringify(body ?? {}),
        }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function setup() {
  const harness = await startPlatform({ clock: createVirtualClock(), channels: [{ id: 'shop' }] });
  const { core } = harness.platform;
  const faultsUrl = `${harness.url}/_sim/faults`;
  const counted = () => harness.of('customer-message').length;
  return { harness, core, faultsUrl, counted };
}

describe('PUT /_sim/faults on a platform started without a plan', () => {
  it('switches the faults on, reads them, changes them and clears them', async () => {
    const { harness, core, faultsUrl, counted } = await setup();
    expect((await post(harness.channelUrl, message('m-0'))).status).toBe(200);
    expect(await control(faultsUrl, 'GET')).toEqual({ status: 200, body: { plan: null } });

    const put = await control(faultsUrl, 'PUT', { fault: 'status:503', rate: 1, seed: 7 });
    expect(put).toEqual({
      status: 200,
      body: { plan: { fault: 'status:503', rate: 1, seed: 7 }, before: null },
    });
    const faulted = await post(harness.channelUrl, message('m-1'));
    expect(faulted.status).toBe(503);
    expect(faulted.body).toEqual({
      error: { code: 'injected', message: 'svc-cli injected HTTP 503' },
    });
    expect(counted()).toBe(1); // m-0 alone: the faulted message never reached the core
    expect(core.state.chats.size).toBe(1);
    expect(await control(faultsUrl, 'GET')).toEqual({
      status: 200,
      body: { plan: { fault: 'status:503', rate: 1, seed: 7 } },
    });
    // the control API is never faulted
    expect((await fetch(`${harness.url}/_sim/state`)).status).toBe(200);

    // a new plan: attempt counts start again, m-1 included
    const failFirst = await control(faultsUrl, 'PUT', { failFirst: 1 });
    expect(failFirst.body).toEqual({
      plan: { failFirst: 1 },
      before: { fault: 'status:503', rate: 1, seed: 7 },
    });
    const attempts: number[] = [];
    for (let i = 0; i < 2; i++)
      attempts.push((await post(harness.channelUrl, message('m-1'))).status);
    expect(attempts).toEqual([500, 200]);
    expect(counted()).toBe(2);

    const cleared = await control(faultsUrl, 'DELETE');
    expect(cleared).toEqual({ status: 200, body: { plan: null, before: { failFirst: 1 } } });
    expect((await post(harness.channelUrl, message('m-2'))).status).toBe(200);
    expect(counted()).toBe(3);
    expect(await control(faultsUrl, 'GET')).toEqual({ status: 200, body: { plan: null } });
  });

  it('journals setting and clearing the plan as control requests, not reading it', async () => {
    const { core, faultsUrl } = await setup();
    await control(faultsUrl, 'PUT', { version: 1, sequence: ['reset', 'status:429'] });
    await control(faultsUrl, 'GET');
    await control(faultsUrl, 'DELETE');
    const controls = core.journal.entries().filter((r) => r.iface === 'control');
    expect(controls.map((r) => [r.request?.method, r.response?.status])).toEqual([
      ['PUT', 200],
      ['DELETE', 200],
    ]);
    expect(controls[0]?.request?.body).toBe(
      JSON.stringify({ version: 1, sequence: ['reset', 'status:429'] }),
    );
    expect(controls[0]?.fault).toBeUndefined();
  });

  it('takes {} as no plan', async () => {
    const { harness, faultsUrl } = await setup();
    await control(faultsUrl, 'PUT', { fault: 'status:503' });
    expect((await control(faultsUrl, 'PUT', {})).body).toEqual({
      plan: null,
      before: { fault: 'status:503' },
    });
    expect((await post(harness.channelUrl, message('m-1'))).status).toBe(200);
  });

  it('leaves a request no route takes its 405 or 404, with a JSON body or without', async () => {
    const { harness, faultsUrl } = await setup();
    await control(faultsUrl, 'PUT', { fault: 'status:503' });
    // the status URL takes GET: a POST is refused as it is, faulted or not by its body before
    const wrongMethod = await post(`${harness.channelUrl}/status`, message('m-1'));
    expect(wrongMethod.status).toBe(405);
    expect((await post(`${harness.channelUrl}/status`, 'not json')).status).toBe(405);
    expect((await post(`${harness.url}/nowhere/at/all`, message('m-2'))).status).toBe(404);
    expect((await post(harness.channelUrl, message('m-3'))).status).toBe(503);
  });
});

describe('PUT /_sim/faults with a bad plan', () => {
  it.each([
    ['an unknown fault', { fault: 'status:999x' }, 'fault: "status:999x"'],
    ['an unknown fault name', { fault: 'explode' }, 'fault: unknown fault "explode"'],
    ['a rate out of range', { fault: 'status:503', rate: 1.5 }, 'rate:'],
    [
      'a field no plan has',
      { faults: 'status:503' },
      'faults: unknown key (did you mean "fault"?)',
    ],
    ['a sequence with a bad fault', { sequence: ['reset', 'nope'] }, 'sequence.1:'],
    ['a body that is not JSON', '{"fault": status:503', 'JSON'],
  ])('refuses %s with 400 SVC_E_CONTROL_BODY naming it', async (_what, body, names) => {
    const { harness, faultsUrl } = await setup();
    await control(faultsUrl, 'PUT', { failFirst: 1 });
    const refused = await control(faultsUrl, 'PUT', body);
    expect(refused.status).toBe(400);
    const error = refused.body.error as { code: string; message: string };
    expect(error.code).toBe('SVC_E_CONTROL_BODY');
    expect(error.message).toContain(names);
    // the plan in force stays
    expect((await control(faultsUrl, 'GET')).body).toEqual({ plan: { failFirst: 1 } });
    expect((await post(harness.channelUrl, message('m-1'))).status).toBe(500);
  });
});

describe('/_sim/faults from an admitted page (--allow-origin)', () => {
  it('answers the preflight of a PUT and a DELETE', async () => {
    const origin = 'http://localhost:5173';
    const platform = createPlatform({ clock: createVirtualClock() });
    try {
      const server = await platform.listen({ port: 0, access: { allowOrigins: [origin] } });
      const preflight = await fetch(`${server.url}/_sim/faults`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-methods')).toBe(
        'GET, POST, PUT, DELETE, OPTIONS',
      );
      const put = await fetch(`${server.url}/_sim/faults`, {
        method: 'PUT',
        headers: { origin, 'content-type': 'application/json' },
        body: JSON.stringify({ fault: 'hang' }),
      });
      expect(put.status).toBe(200);
      expect(put.headers.get('access-control-allow-origin')).toBe(origin);
    } finally {
      await platform.close();
    }
  });
});

describe('Platform.setFaults', () => {
  it('replaces the plan in code, checked as createPlatform({ faults }) is', async () => {
    const { harness, faultsUrl } = await setup();
    const { platform } = harness;
    platform.setFaults({ failFirst: 1, failWith: { kind: 'status', status: 502 } });
    expect((await control(faultsUrl, 'GET')).body).toEqual({
      plan: { failFirst: 1, failWith: 'status:502' },
    });
    expect((await post(harness.channelUrl, message('m-1'))).status).toBe(502);
    expect(() => platform.setFaults({ fault: { kind: 'bogus' } } as never)).toThrow(
      expect.objectContaining({ code: 'SVC_E_FAULT_PLAN' }),
    );
    // a plan written in code goes over the control API as it is, and back in the flag syntax
    expect(
      (await control(faultsUrl, 'PUT', { failWith: { kind: 'status', status: 503 }, failFirst: 1 }))
        .body,
    ).toMatchObject({ plan: { failFirst: 1, failWith: 'status:503' } });
    platform.setFaults({ failFirst: 1, failWith: { kind: 'status', status: 502 } });
    // the fetch face reads the same plan
    const viaFetch = await platform.fetch(
      new Request(harness.channelUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(message('m-2')),
      }),
    );
    expect(viaFetch.status).toBe(502);
    platform.setFaults(undefined);
    expect((await post(harness.channelUrl, message('m-3'))).status).toBe(200);
  });

  it('is the plan createPlatform({ faults }) started with', async () => {
    const harness = await startPlatform({
      clock: createVirtualClock(),
      faults: { fault: { kind: 'reset' }, rate: 0.5, seed: 3 },
    });
    const answer = await control(`${harness.url}/_sim/faults`, 'GET');
    expect(answer.body).toEqual({ plan: { fault: 'reset', rate: 0.5, seed: 3 } });
  });
});

describe('/_sim/faults through the msw handlers', () => {
  it('replaces the plan setFaults replaces (the core holds the one plan)', async () => {
    const sim = createMswPlatform({ baseUrl: 'https://platform.test' });
    const faults = 'https://platform.test/_sim/faults';
    try {
      const put = await sim.fetch(
        new Request(faults, {
          method: 'PUT',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ fault: 'status:429' }),
        }),
      );
      expect(await put.json()).toEqual({ plan: { fault: 'status:429' }, before: null });
      const refused = await sim.fetch(new Request(sim.channelUrl, { method: 'POST', body: '{}' }));
      expect(refused.status).toBe(429);
      // msw's plan acts on every request it is handed, /_sim/ included: setFaults clears it
      sim.setFaults({});
      expect(await (await sim.fetch(new Request(faults))).json()).toEqual({ plan: null });
    } finally {
      await sim.close();
    }
  });
});
