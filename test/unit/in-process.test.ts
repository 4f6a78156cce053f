// The in-process transport gives a client what a socket would: the reply, a reset,
// a refusal, or its own timeout, on the same clock.
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { getText, postJson, type PostOutcome } from '../../src/http/client.js';
import {
  bodyOf,
  isInProcessUrl,
  mountInProcess,
  type InProcessHandler,
} from '../../src/http/in-process.js';

const post = (url: string, extra: Partial<Parameters<typeof postJson>[0]> = {}) => {
  const clock = createVirtualClock();
  return { clock, out: postJson({ url, body: '{"a":1}', timeoutMs: 3000, clock, ...extra }) };
};

const mounted = (handler: InProcessHandler) => mountInProcess('test', handler);

describe('the in-process transport', () => {
  it('hands the request to the handler and the whole reply back', async () => {
    let seen: unknown;
    const m = mounted((request, wire) => {
      seen = request;
      wire.send(201, '{"ok":true}', { 'x-extra': '1' });
    });
    const { out } = post(`${m.url}/a/b?c=1`, { headers: { Authorization: 'Bearer t' } });
    const reply = await out;
    expect(reply).toMatchObject({ ok: true, status: 201, body: '{"ok":true}' });
    expect((reply as Extract<PostOutcome, { ok: true }>).headers['x-extra']).toBe('1');
    expect(seen).toMatchObject({
      method: 'POST',
      target: '/a/b?c=1',
      body: '{"a":1}',
      transfer: 'content-length',
      headers: { authorization: 'Bearer t', 'content-length': '7' },
    });
    expect(isInProcessUrl(m.url)).toBe(true);
    expect(isInProcessUrl('http://127.0.0.1:8080/x')).toBe(false);
    await m.close();
  });

  it('says chunked when the client frames its body so, and GET has no body', async () => {
    const seen: unknown[] = [];
    const m = mounted((request, wire) => {
      seen.push([request.method, request.transfer, request.body]);
      wire.send(200, '{}');
    });
    const clock = createVirtualClock();
    await postJson({ url: m.url, body: '{}', chunked: true, timeoutMs: 1000, clock });
    await getText({ url: m.url, timeoutMs: 1000, clock });
    expect(seen).toEqual([
      ['POST', 'chunked', '{}'],
      ['GET', 'none', undefined],
    ]);
    await m.close();
  });

  it('refuses once nothing is mounted there', async () => {
    const m = mounted((_request, wire) => wire.send(200, '{}'));
    await m.close();
    expect(await post(m.url).out).toMatchObject({ ok: false, reason: 'refused' });
  });

  it('gives a reset for a reset, and for a request still open when the side closes', async () => {
    const resetting = mounted((_request, wire) => wire.reset());
    expect(await post(resetting.url).out).toMatchObject({ ok: false, reason: 'reset' });
    const hanging = mounted((_request, wire) => wire.hang());
    const { out } = post(hanging.url);
    await hanging.close();
    expect(await out).toMatchObject({ ok: false, reason: 'reset' });
    await resetting.close();
  });

  it('times out a hanging reply at the timeout on the clock, and tells the handler', async () => {
    let gone = false;
    const m = mounted((_request, wire) => {
      wire.onClose(() => (gone = true));
      wire.hang();
    });
    const { clock, out } = post(m.url);
    let done = false;
    void out.then(() => (done = true));
    await clock.runUntil(() => done);
    expect(await out).toMatchObject({ ok: false, reason: 'timeout', durationMs: 3000 });
    expect(gone).toBe(true);
    await m.close();
  });

  it("sets the client's timeout before the handler runs, as a socket would", async () => {
    const clock = createVirtualClock();
    let handled = false;
    // the handler answers exactly at the client's timeout: the client's timer, set first, wins
    const m = mounted((_request, wire) => {
      handled = true;
      clock.setTimer(3000, () => wire.send(200, '{}'));
    });
    const out = postJson({ url: m.url, body: '{}', timeoutMs: 3000, clock });
    expect(handled).toBe(false); // not inside the caller's call
    let done = false;
    void out.then(() => (done = true));
    await clock.runUntil(() => done);
    expect(await out).toMatchObject({ ok: false, reason: 'timeout', durationMs: 3000 });
    await m.close();
  });

  it('waits for the last piece of a started reply', async () => {
    const clock = createVirtualClock();
    const m = mounted(async (_request, wire) => {
      wire.start(200, { 'content-type': 'application/json' });
      wire.write('{"a"');
      await clock.sleep(1000);
      wire.write(':1}');
      wire.end();
    });
    const out = postJson({ url: m.url, body: '{}', timeoutMs: 3000, clock });
    let done = false;
    void out.then(() => (done = true));
    await clock.runUntil(() => done);
    expect(await out).toMatchObject({ ok: true, body: '{"a":1}', durationMs: 1000 });
    await m.close();
  });

  it('answers 500 when the handler throws, and keeps serving', async () => {
    const errors: unknown[] = [];
    let calls = 0;
    const m = mountInProcess(
      'test',
      (_request, wire) => {
        if (++calls === 1) throw new Error('boom');
        wire.send(200, '{}');
      },
      (error) => errors.push(error),
    );
    expect(await post(m.url).out).toMatchObject({ ok: true, status: 500 });
    expect(await post(m.url).out).toMatchObject({ ok: true, status: 200 });
    expect(errors).toHaveLength(1);
    await m.close();
  });

  it('stops when the caller cancels, and caps the reply size', async () => {
    const m = mounted((_request, wire) => wire.send(200, JSON.stringify({ t: 'x'.repeat(100) })));
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    expect(await post(m.url, { signal: controller.signal }).out).toMatchObject({
      ok: false,
      reason: 'aborted',
    });
    expect(await post(m.url, { maxResponseBytes: 10 }).out).toMatchObject({
      ok: false,
      reason: 'error',
      message: 'reply body larger than 10 bytes',
    });
    await m.close();
  });

  it('reads a body as the socket adapters do', () => {
    const request = {
      method: 'POST',
      url: 'http://x-1.in-process.invalid/',
      target: '/',
      headers: {},
      transfer: 'content-length' as const,
    };
    expect(bodyOf({ ...request, body: '{"a":1}' })).toMatchObject({ ok: true, json: { a: 1 } });
    expect(bodyOf({ ...request, body: '{"a":' })).toMatchObject({ ok: false, status: 400 });
    expect(bodyOf({ ...request, body: '' })).toMatchObject({ ok: false, code: 'empty_body' });
    expect(bodyOf({ ...request, body: '{"a":"xxxxxx"}' }, 5)).toMatchObject({
      ok: false,
      status: 413,
    });
  });
});
