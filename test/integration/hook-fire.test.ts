import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { validate } from '../../src/contract/index.js';
import { createClock } from '../../src/clock.js';
import {
  buildSampleHookEvent,
  defaultHookReply,
  fireAllHooks,
  fireHook,
  HOOK_LIFECYCLE,
  parseSetFlag,
  SAMPLE_CRM_LINK,
} from '../../src/roles/hooks/index.js';
import { closeAll, deadUrl, startTarget } from '../helpers/hooks.js';

afterEach(closeAll);

const clock = () => createClock({ timeScale: 0.1 });

describe('hook-fire against hook-target', () => {
  it.each(HOOK_LIFECYCLE)('fires a valid %s and gets a conforming reply', async (event) => {
    const { target, events } = await startTarget();
    const result = await fireHook({ url: `${target.url}/hooks`, event, clock: clock() });
    expect(result.requestVerdict.errors).toEqual([]);
    expect(result.verdict).toMatchObject({ ok: true, errors: [] });
    expect(result.status).toBe(200);
    expect(events).toMatchObject([
      { type: 'hook-received', kind: `hook.${event}`, verdict: { ok: true } },
    ]);
  });

  it('fires every event in lifecycle order; chat_assigned carries the reply crm_link', async () => {
    const { target, events } = await startTarget();
    const results = await fireAllHooks({ url: target.url, clock: clock() });
    expect(results.map((r) => r.event)).toEqual(HOOK_LIFECYCLE);
    expect((results[2]!.request as { assign_to: string }).assign_to).toBe(SAMPLE_CRM_LINK);
    expect(events).toHaveLength(6);
  });

  it('carries each chat_finished line in message, as the public samples do, and in text', () => {
    // a public PHP webhook library reads the line's text from `message` only
    const body = buildSampleHookEvent('chat_finished') as {
      chat: { messages: { message?: string; text?: string }[] };
    };
    expect(body.chat.messages.map((m) => m.message)).toEqual([
      'Hi, can I return shoes I wore once?',
      'Yes, within 30 days.',
      'Great, thanks!',
    ]);
    expect(body.chat.messages.every((m) => m.text === m.message)).toBe(true);
    expect(validate('hook.chat_finished', body)).toMatchObject({ ok: true, warnings: [] });
  });

  it('sends offline_messages, the field table spelling, and the target accepts it', async () => {
    const { target, events } = await startTarget();
    const result = await fireHook({
      url: target.url,
      event: 'offline_message',
      offlineName: 'offline_messages',
      clock: clock(),
    });
    expect((result.request as { event_name: string }).event_name).toBe('offline_messages');
    expect(events).toMatchObject([{ eventName: 'offline_messages', verdict: { ok: true } }]);
  });

  it('applies --set overrides by dotted path, values as JSON when they parse', async () => {
    const { target } = await startTarget();
    const result = await fireHook({
      url: target.url,
      event: 'call_event',
      sets: ['call.status=error', 'call.reason=busy', 'chat_id=7', 'visitor.social={"fb":"x"}'],
      clock: clock(),
    });
    expect(result.request).toMatchObject({
      chat_id: 7,
      call: { status: 'error', reason: 'busy' },
      visitor: { social: { fb: 'x' } },
    });
    expect(result.requestVerdict.ok).toBe(true);
  });

  it.each(['__proto__.polluted=1', 'visitor.constructor=1', 'a.prototype.b=2'])(
    'refuses the prototype key in --set %s as an input error',
    async (set) => {
      expect(() => parseSetFlag(set)).toThrow(
        expect.objectContaining({ code: 'SVC_E_SET_FORBIDDEN_KEY', category: 'input' }),
      );
      await expect(
        fireHook({ url: 'http://127.0.0.1:1', event: 'chat_updated', sets: [set] }),
      ).rejects.toMatchObject({ category: 'input' });
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );

  it('reports replies that break the contract with exact paths', async () => {
    const { target } = await startTarget({
      replies: {
        chat_accepted: { result: 'ok', custom_data: 'nope', enable_assign: 'yes' },
        chat_finished: { result: 'maybe' },
      },
    });
    const accepted = await fireHook({ url: target.url, event: 'chat_accepted', clock: clock() });
    expect(accepted.verdict.ok).toBe(false);
    expect(accepted.verdict.errors.map((i) => [i.path, i.spec])).toEqual([
      ['custom_data', '6.2'],
      ['enable_assign', '6.2'],
    ]);
    const finished = await fireHook({ url: target.url, event: 'chat_finished', clock: clock() });
    expect(finished.verdict.errors.map((i) => i.path)).toEqual(['result']);
  });

  it('reports a non-200 reply and a reply that is not JSON', async () => {
    const { target } = await startTarget({
      plan: { sequence: [{ kind: 'status', status: 503 }, { kind: 'bad-json' }] },
    });
    const first = await fireHook({ url: target.url, event: 'chat_updated', clock: clock() });
    expect(first.verdict.errors).toMatchObject([{ code: 'http_status', spec: '4.4' }]);
    const second = await fireHook({ url: target.url, event: 'chat_updated', clock: clock() });
    expect(second.verdict.errors).toMatchObject([{ code: 'invalid_json' }]);
  });

  it('says what to answer when a reply is empty or not JSON', async () => {
    // a PHP handler that returns nothing (its library's README leaves chat_finished's empty)
    // answers 200 with no body; another writes a bare OK
    const bodies = ['', 'OK'];
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        res.end(bodies.shift() ?? '');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    try {
      const rules = [];
      for (const _ of [1, 2]) {
        const fired = await fireHook({ url, event: 'chat_finished', clock: clock() });
        rules.push(fired.verdict.errors.map((i) => `${i.code}: ${i.rule}`));
      }
      expect(rules).toEqual([
        ['invalid_json: the reply is empty, not JSON; a minimal valid reply is {"result":"ok"}'],
        ['invalid_json: the reply is not JSON; a minimal valid reply is {"result":"ok"}'],
      ]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('names a reply that is the event sent back, not each of its fields', async () => {
    // a Flask receiver written for the real platform returns what it got: the whole event
    // from one route, its visitor from another
    const receiver = createServer((req, res) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => {
        const event = JSON.parse(text) as { visitor: unknown };
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(req.url === '/visitor' ? event.visitor : event));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const whole = await fireHook({ url: `${base}/all`, event: 'chat_accepted', clock: clock() });
      expect(whole.verdict.errors.map((i) => i.path)).toEqual(['result']);
      expect(whole.verdict.warnings.map((i) => i.rule)).toEqual([
        'the receiver sent back the event it got as its reply (its fields are not reply fields); a receiver answers with a reply of spec 6.2, such as {"result":"ok"}',
      ]);
      const visitor = await fireHook({
        url: `${base}/visitor`,
        event: 'offline_message',
        clock: clock(),
      });
      expect(visitor.verdict.warnings.map((i) => i.rule)).toEqual([
        expect.stringMatching(/^the receiver sent back the event's visitor object as its reply/),
      ]);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('throws a network error when the receiver is unreachable or too slow', async () => {
    await expect(
      fireHook({ url: await deadUrl(), event: 'chat_accepted', clock: clock() }),
    ).rejects.toMatchObject({ code: 'SVC_E_HOOK_UNREACHABLE', category: 'network' });
    const { target } = await startTarget({ plan: { fault: { kind: 'hang' } } });
    await expect(
      fireHook({ url: target.url, event: 'chat_accepted', timeoutMs: 1000, clock: clock() }),
    ).rejects.toMatchObject({
      code: 'SVC_E_HOOK_TIMEOUT',
      category: 'network',
      // the protocol limit, and what it was on the wall at --time-scale 0.1
      message: expect.stringContaining(
        'no complete reply within 1000 ms (100 ms of wall time at time scale 0.1;',
      ),
    });
  });

  it('a timeout of a few ms, a bare number meant as seconds, says how to write seconds', async () => {
    const { target } = await startTarget({ plan: { fault: { kind: 'hang' } } });
    await expect(
      fireHook({ url: target.url, event: 'chat_accepted', timeoutMs: 5, clock: createClock() }),
    ).rejects.toMatchObject({
      code: 'SVC_E_HOOK_TIMEOUT',
      hint: 'The receiver took longer than --timeout (default 10 s, an assumption: spec 8 is silent). --timeout 5 is 5 ms, as a bare number is ms: --timeout 5s waits 5 s.',
    });
  });

  it('--all fires every event past one that times out, which breaks the contract', async () => {
    // a receiver slow on one event only: it answers chat_updated never
    const slow = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (body.includes('"event_name":"chat_updated"')) return;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
      });
    });
    await new Promise<void>((done) => slow.listen(0, '127.0.0.1', done));
    try {
      const { port } = slow.address() as AddressInfo;
      const results = await fireAllHooks({
        url: `http://127.0.0.1:${port}/`,
        timeoutMs: 1000,
        // a whole second of wall time per event: at time scale 0.1 (100 ms) an answering
        // event timed out too on a busy machine (a fresh-clone run beside other work)
        clock: createClock(),
      });
      expect(results.map((r) => [r.event, r.status, r.verdict.ok])).toEqual(
        HOOK_LIFECYCLE.map((event) => [
          event,
          event === 'chat_updated' ? 0 : 200,
          event !== 'chat_updated',
        ]),
      );
      const updated = results.find((r) => r.event === 'chat_updated');
      expect(updated?.verdict.errors).toMatchObject([
        {
          code: 'no_reply',
          spec: '8',
          // its spec is said once, after the rule: (spec 8)
          rule: expect.stringMatching(
            /^no complete reply within 1000 ms.*: the receiver took longer than --timeout \(an assumed limit: the spec sets none\)$/,
          ),
        },
      ]);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });

  it('a receiver that closes the connection (plain HTTP to an HTTPS port) gets its own hint', async () => {
    const { target } = await startTarget({ plan: { fault: { kind: 'reset' } } });
    await expect(
      fireHook({ url: target.url, event: 'chat_accepted', clock: clock() }),
    ).rejects.toMatchObject({
      code: 'SVC_E_HOOK_UNREACHABLE',
      hint: expect.stringContaining('if it serves HTTPS, use an https:// URL'),
    });
  });

  it('rejects an unknown event as an input error', async () => {
    await expect(
      fireHook({ url: 'http://127.0.0.1:1', event: 'chat_started' }),
    ).rejects.toMatchObject({
      code: 'SVC_E_UNKNOWN_EVENT',
      category: 'input',
    });
  });
});

describe('hook-target', () => {
  it('flags an event that breaks the contract and an unknown event_name', async () => {
    const { target, events } = await startTarget();
    const body = buildSampleHookEvent('chat_assigned');
    delete body.assign_to;
    await fireHook({ url: target.url, body, clock: clock() });
    await fireHook({
      url: target.url,
      event: 'chat_updated',
      sets: ['event_name=chat_started'],
      clock: clock(),
    }).catch(() => undefined);
    expect(events[0]).toMatchObject({ verdict: { ok: false, errors: [{ path: 'assign_to' }] } });
    expect(events[1]).toMatchObject({
      kind: 'unknown',
      verdict: { errors: [{ path: 'event_name' }] },
    });
  });

  it('serves only --path when given and answers 405 to other methods', async () => {
    const { target, events } = await startTarget({ path: '/hooks' });
    await expect(
      fireHook({ url: `${target.url}/other`, event: 'chat_updated', clock: clock() }),
    ).resolves.toMatchObject({ status: 404 });
    expect(events).toMatchObject([{ type: 'request-rejected', status: 404 }]);
  });

  it('every sample validates as its kind', () => {
    for (const event of HOOK_LIFECYCLE) {
      const result = validate(`hook.${event}`, buildSampleHookEvent(event));
      expect([result.errors, result.warnings], event).toEqual([[], []]);
    }
  });
});

describe("hook-target's default chat_accepted reply", () => {
  it("echoes the visitor's own contact data instead of renaming the customer", () => {
    const reply = defaultHookReply('chat_accepted', {
      event_name: 'chat_accepted',
      visitor: { name: 'Ann Smith', email: 'ann@example.com', number: '7' },
    });
    expect(reply.contact_info).toEqual({ name: 'Ann Smith', email: 'ann@example.com' });
    // a visitor without a name gets no contact_info (spec 6.2: it needs a name)
    expect(defaultHookReply('chat_accepted', { visitor: { number: '8' } }).contact_info).toBe(
      undefined,
    );
  });
});
