import { afterEach, describe, expect, it } from 'vitest';
import { parseFault } from '../../src/faults/index.js';
import { createJournal } from '../../src/journal/index.js';
import type { AgentMessageEvent } from '../../src/roles/integrator/index.js';
import { agentText, closeListeners, post, startListener } from '../helpers/listener.js';

afterEach(closeListeners);

const fault = (text: string) => {
  const parsed = parseFault(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.fault;
};

const only = (events: unknown[]) => events[0] as AgentMessageEvent;

describe('listener: agent messages (spec 4.2)', () => {
  it('replies {"result":"ok"} and reports a valid agent message', async () => {
    const h = await startListener();
    const out = await post(`${h.listener.url}/ch-42`, agentText());
    expect(out).toMatchObject({ ok: true, status: 200, body: '{"result":"ok"}' });
    const event = only(await h.waitForEvents(1));
    expect(event).toMatchObject({
      type: 'agent-message',
      request: 1,
      attempt: 1,
      channel: 'ch-42',
      kind: 'channel.agent.text',
      messageId: 'm-1',
      transfer: 'content-length',
      verdict: { ok: true, errors: [] },
      fault: 'none',
      reply: { status: 200 },
    });
  });

  it('reports an invalid agent message with its issues, and still replies ok', async () => {
    const h = await startListener();
    const out = await post(`${h.listener.url}/ch-42`, { message: { type: 'text' } });
    expect(out).toMatchObject({ ok: true, status: 200 });
    const event = only(await h.waitForEvents(1));
    expect(event.verdict.ok).toBe(false);
    expect(event.verdict.errors.map((i) => i.path)).toEqual(
      expect.arrayContaining(['recipient', 'message.text']),
    );
  });

  it('recognises typing notices (spec 2.3) and unknown types', async () => {
    const h = await startListener();
    await post(`${h.listener.url}/c`, { recipient: { id: 'x' }, message: { type: 'typein' } });
    await post(`${h.listener.url}/c`, { recipient: { id: 'x' }, message: { type: 'gif' } });
    const [typing, unknown] = (await h.waitForEvents(2)) as AgentMessageEvent[];
    expect(typing).toMatchObject({ kind: 'channel.agent.typing', verdict: { ok: true } });
    expect(unknown).toMatchObject({ kind: 'unknown', verdict: { ok: false } });
  });

  it.each([false, true])(
    'tells Content-Length from chunked bodies (chunked: %s)',
    async (chunked) => {
      const h = await startListener();
      await post(`${h.listener.url}/ch`, agentText(), { chunked });
      expect(only(await h.waitForEvents(1)).transfer).toBe(chunked ? 'chunked' : 'content-length');
    },
  );
});

describe('listener: requests that are not agent messages', () => {
  it('answers 404 with a JSON error on the root path', async () => {
    const h = await startListener();
    const out = await post(`${h.listener.url}/`, agentText());
    expect(out).toMatchObject({ ok: true, status: 404 });
    expect(JSON.parse(out.ok ? out.body : '{}')).toMatchObject({ error: { code: 'not_found' } });
    expect(await h.waitForEvents(1)).toMatchObject([
      { type: 'request-rejected', status: 404, path: '/' },
    ]);
  });

  it('takes the last path segment as the channel id, so an integrator URL may have a path', async () => {
    const h = await startListener({ channel: 'shop' });
    expect(await post(`${h.listener.url}/agent-messages/shop`, agentText())).toMatchObject({
      status: 200,
    });
    expect(await h.waitForEvents(1)).toMatchObject([{ type: 'agent-message', channel: 'shop' }]);
  });

  it('serves only --channel when given', async () => {
    const h = await startListener({ channel: 'mine' });
    expect(await post(`${h.listener.url}/other`, agentText())).toMatchObject({ status: 404 });
    expect(await post(`${h.listener.url}/mine`, agentText())).toMatchObject({ status: 200 });
    expect(h.listener.listening).toEqual({
      type: 'listening',
      url: h.listener.url,
      channel: 'mine',
    });
  });

  it('answers 400 for bad JSON and records it', async () => {
    const journal = createJournal();
    const h = await startListener({ journal });
    const out = await post(`${h.listener.url}/ch`, '{"message": ');
    expect(out).toMatchObject({ ok: true, status: 400 });
    expect(await h.waitForEvents(1)).toMatchObject([{ status: 400, code: 'invalid_json' }]);
    expect(journal.entries()[0]).toMatchObject({
      direction: 'in',
      request: { method: 'POST', body: '{"message": ' },
      response: { status: 400 },
    });
  });

  it.each([false, true])('answers 413 beyond 1 MiB (chunked: %s)', async (chunked) => {
    const h = await startListener();
    const big = JSON.stringify({ ...agentText(), pad: 'x'.repeat(1024 * 1024) });
    const out = await post(`${h.listener.url}/ch`, big, { chunked });
    if (out.ok) expect(out.status).toBe(413);
    else expect(out.reason).toBe('reset'); // the server may close before the client finished
    expect(await h.waitForEvents(1)).toMatchObject([{ status: 413, code: 'body_too_large' }]);
  });

  it('answers 405 to GET', async () => {
    const h = await startListener();
    const res = await fetch(`${h.listener.url}/ch`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('answers 404 before 405: a GET on the root or on another channel is no endpoint', async () => {
    const h = await startListener({ channel: 'mine' });
    expect((await fetch(`${h.listener.url}/`)).status).toBe(404);
    expect((await fetch(`${h.listener.url}/other`)).status).toBe(404);
    expect((await fetch(`${h.listener.url}/base//mine/`)).status).toBe(405);
    expect(await post(`${h.listener.url}/base//mine/`, agentText())).toMatchObject({ status: 200 });
    expect(await h.waitForEvents(4)).toMatchObject([
      { status: 404, path: '/' },
      { status: 404, path: '/other' },
      { status: 405, path: '/base//mine/' },
      { type: 'agent-message', channel: 'mine' },
    ]);
  });
});

describe('listener: faults', () => {
  it.each([
    ['status:503', { ok: true, status: 503 }, { status: 503 }],
    ['error:busy:try later', { ok: true, status: 200 }, { status: 200 }],
    ['bad-json', { ok: true, status: 200, body: '{"result": ok' }, { status: 200 }],
    ['reset', { ok: false, reason: 'reset' }, { noReply: 'reset' }],
    ['hang', { ok: false, reason: 'timeout' }, { noReply: 'hang' }],
    ['slow-body:3000000', { ok: false, reason: 'timeout' }, { status: 200 }],
  ])('%s', async (spec, outcome, reply) => {
    const h = await startListener({ plan: { fault: fault(spec) } });
    // a hang or a slow body (3000 s at 0.001 = 3 s wall) meets the client's 30 s limit (300 ms
    // wall: room for the request to arrive under load); the others answer
    const waits = 'reason' in outcome && outcome.reason === 'timeout';
    const out = await post(`${h.listener.url}/ch`, agentText(), {
      timeoutMs: waits ? 30_000 : 100_000,
    });
    expect(out).toMatchObject(outcome);
    const event = only(await h.waitForEvents(1));
    expect(event).toMatchObject({ fault: spec, reply });
  });

  it('error replies carry the code and message (spec 2.2)', async () => {
    const h = await startListener({ plan: { fault: fault('error:busy:try later') } });
    const out = await post(`${h.listener.url}/ch`, agentText());
    expect(out.ok && JSON.parse(out.body)).toEqual({
      error: { code: 'busy', message: 'try later' },
    });
  });

  it('delays the reply by protocol time', async () => {
    const h = await startListener({ plan: { delayMs: 5000 } });
    expect(await post(`${h.listener.url}/ch`, agentText())).toMatchObject({ status: 200 });
    const event = only(await h.waitForEvents(1));
    expect(event.delayMs).toBe(5000);
    expect(event.durationMs).toBeGreaterThanOrEqual(5000);
  });

  it('fails the first N attempts of a message, recognised by message.id', async () => {
    const h = await startListener({ plan: { failFirst: 2 } });
    const statuses: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      const out = await post(`${h.listener.url}/ch`, agentText('m-7', `try ${i}`));
      statuses.push(out.ok ? out.status : out.reason);
    }
    expect(statuses).toEqual([500, 500, 200]);
    const events = (await h.waitForEvents(3)) as AgentMessageEvent[];
    expect(events.map((e) => [e.attempt, e.fault])).toEqual([
      [1, 'status:500'],
      [2, 'status:500'],
      [3, 'none'],
    ]);
  });

  it('fails the first N attempts of a message, recognised by body hash without an id', async () => {
    const h = await startListener({ plan: { failFirst: 1, failWith: fault('reset') } });
    const body = { recipient: { id: 'c' }, message: { type: 'text', text: 'no id' } };
    expect(await post(`${h.listener.url}/ch`, body)).toMatchObject({ ok: false, reason: 'reset' });
    expect(await post(`${h.listener.url}/ch`, body)).toMatchObject({ ok: true, status: 200 });
    const other = { ...body, message: { type: 'text', text: 'other' } };
    expect(await post(`${h.listener.url}/ch`, other)).toMatchObject({ ok: false, reason: 'reset' });
  });

  it('records every exchange with fault, verdict and transfer mode', async () => {
    const journal = createJournal();
    const h = await startListener({ journal, plan: { failFirst: 1 } });
    await post(`${h.listener.url}/ch`, agentText(), { chunked: true });
    await post(`${h.listener.url}/ch`, agentText());
    await h.waitForEvents(2);
    expect(journal.entries().map((r) => [r.attempt, r.fault, r.response?.status, r.notes])).toEqual(
      [
        [1, 'status:500', 500, ['transfer: chunked']],
        [2, 'none', 200, ['transfer: content-length']],
      ],
    );
  });
});
