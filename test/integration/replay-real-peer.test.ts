/**
 * replay with a real peer (--integrator-url): the conversations whose setup makes the
 * embedded peer misbehave do not apply and are skipped with the reason; the others run on a
 * real clock, their timing figures matched within the stated tolerance.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { conversationSchema } from '../../src/conversation/format.js';
import { loadConversations } from '../../src/conversation/load.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { createListener, type Listener } from '../../src/roles/integrator/index.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function realIntegrator(options: { replyDelayWallMs?: number } = {}): Promise<string> {
  const listener: Listener =
    options.replyDelayWallMs === undefined
      ? await createListener({ clock: createClock({ timeScale: 0.05 }) })
      : await createListener({
          clock: createClock({ timeScale: 1 }),
          plan: { delayMs: options.replyDelayWallMs },
        });
  closers.push(() => listener.close(10));
  return listener.url;
}

describe('replay --integrator-url (a real integrator)', () => {
  it('skips a conversation whose setup.integrator.faults the real peer cannot play', async () => {
    const integratorUrl = await realIntegrator();
    const [recovered] = await loadConversations([
      'fixtures/conversations/redelivery-recovered.json',
    ]);
    const result = await replayConversation({
      conversation: recovered!.conversation,
      integratorUrl,
      timeScale: 0.05,
    });
    expect(result.ok).toBe(true);
    expect(result.skipped).toBe(
      'its setup.integrator.faults make the embedded listen misbehave; the real peer (--integrator-url) answers as it does',
    );
  });

  it("matches an event's timing figure within the real-time tolerance", async () => {
    // a delivery over a real socket takes some protocol ms, so its elapsedMs is never 0 in
    // real time: this expectation holds only within ±250 ms. The peer answers after 1 s of
    // wall, 100 protocol ms at scale 10, so the figure is off by more than rounding and the
    // tolerance is what passes it; a loaded machine has 1.5 s of wall to spare on top.
    const integratorUrl = await realIntegrator({ replyDelayWallMs: 1_000 });
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'a real integrator, a timing figure',
        steps: [
          { customer: { text: 'hi', sender: { id: 'c-1' } } },
          { agent: { text: 'hello' } },
          {
            expect: {
              event: {
                type: 'delivery-done',
                target: 'integrator',
                result: 'delivered',
                elapsedMs: 0,
              },
            },
          },
        ],
      }),
      integratorUrl,
      timeScale: 10,
    });
    expect(result.steps.filter((s) => s.status === 'failed')).toEqual([]);
    expect(result.timingToleranceMs).toBe(250);
    // the one elapsedMs the expectation holds: what the summary's real-time line counts
    expect(result.timingFigures).toBe(1);
  });

  it('counts no timing figure for a fixture that has none (one made from a recording)', async () => {
    const integratorUrl = await realIntegrator();
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'a real integrator, no timing figure',
        steps: [
          { customer: { text: 'hi', sender: { id: 'c-1' } } },
          { agent: { text: 'hello' }, delivery: { result: 'delivered' } },
        ],
      }),
      integratorUrl,
      timeScale: 0.05,
    });
    expect(result.ok).toBe(true);
    expect(result).toMatchObject({ timingToleranceMs: 250, timingFigures: 0 });
  });
});

describe('replay --hook-url / --integrator-url: what the real peer received', () => {
  async function realHookReceiver(replies?: Record<string, unknown>): Promise<string> {
    const target = await createHookTarget({
      clock: createClock({ timeScale: 0.2 }),
      ...(replies ? { replies } : {}),
    });
    closers.push(() => target.close(10));
    return `${target.url}/hooks`;
  }

  it('checks hook expectations from the requests the simulator sent and the replies it got', async () => {
    const [lifecycle] = await loadConversations(['fixtures/conversations/hook-lifecycle.json']);
    const hookUrl = await realHookReceiver();
    const result = await replayConversation({
      conversation: lifecycle!.conversation,
      hookUrl,
      timeScale: 0.2,
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
    expect(result.expectations).toEqual({ checked: 5, skipped: 0 });
    expect(result.realPeers).toEqual([`the hook receiver at ${hookUrl}`]);
  });

  it('skips a conversation whose setup.hooks.replies only the embedded hook-target gives', async () => {
    const [failure] = await loadConversations([
      'fixtures/conversations/hook-accepted-failure.json',
    ]);
    const hookUrl = await realHookReceiver();
    const result = await replayConversation({
      conversation: failure!.conversation,
      hookUrl,
      timeScale: 0.2,
    });
    expect(result.ok).toBe(true);
    expect(result.skipped).toBe(
      'its setup.hooks.replies make the embedded hook-target misbehave; the real peer (--hook-url) answers as it does',
    );
  });

  it('fails when the real receiver answers otherwise than the fixture expects', async () => {
    const [lifecycle] = await loadConversations(['fixtures/conversations/hook-lifecycle.json']);
    // this receiver gives no crm_link: the fixture's "$reply": { "crm_link": "$string" } is red
    const hookUrl = await realHookReceiver({ chat_accepted: { result: 'ok' } });
    const result = await replayConversation({
      conversation: lifecycle!.conversation,
      hookUrl,
      timeScale: 0.2,
    });
    expect(result.ok).toBe(false);
    const failed = result.steps.find((s) => s.status === 'failed');
    expect(failed?.name).toBe('accepted');
    expect(failed?.details.join('\n')).toContain('crm_link');
  });

  it('says what a receiver answered when its reply is not the expected one', async () => {
    const receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"error":"boom"}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'a real hook receiver answering 500',
        setup: { hooks: {} },
        steps: [
          { customer: { text: 'hi', sender: { id: 'c-1' } } },
          { agent: { text: 'hello' } },
          { expect: { hook: { event_name: 'chat_accepted', $reply: { result: 'ok' } } } },
        ],
      }),
      hookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      timeScale: 0.05,
    });
    const failed = result.steps.find((s) => s.status === 'failed');
    expect(failed?.details).toContain('  it answered 500: {"error":"boom"}');
  });

  it('warns on a step whose hook the receiver failed, which the expectation does not hold', async () => {
    // a PHP receiver whose library knows five events throws on call_event: php -S answers 500
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const failing = body.includes('"call_event"');
        res.writeHead(failing ? 500 : 200, { 'content-type': 'application/json' });
        res.end(failing ? '' : '{"result":"ok"}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const dir = mkdtempSync(join(tmpdir(), 'svc-peer-reply-'));
    const file = join(dir, 'call.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'a callback call at a receiver that fails call_event',
        setup: { hooks: {} },
        steps: [
          {
            control: { method: 'POST', path: '/_sim/calls', body: { phone: '+49 30 1' } },
            response: { status: 202 },
          },
          { expect: { hook: { event_name: 'call_event', call: { status: 'start' } } } },
          {
            expect: {
              hook: { event_name: 'call_event', call: { status: 'agent_connected' }, $status: 500 },
            },
          },
        ],
      }),
    );
    const t = createTestContext({ cwd: dir });
    const port = (receiver.address() as AddressInfo).port;
    // 1 s of wall per 5 s call step, 3 s per 15 s expectation: room on a busy machine
    const code = await runInProcess(t, [
      '--time-scale',
      '0.2',
      'replay',
      file,
      '--hook-url',
      `http://127.0.0.1:${port}/hooks`,
    ]);
    expect(code).toBe(0);
    const lines = t.stdout().split('\n');
    // the green conversation shows the warned step (one line each otherwise); a step whose
    // expectation holds $status says nothing more
    expect(lines.filter((l) => l.includes('warning:'))).toEqual([
      '        warning: your hook receiver answered this call_event HTTP 500 (empty body); this expectation checks what was sent, not the reply ("$status": 200 in it would fail the step) (spec 4.4)',
    ]);
    expect(lines.some((l) => /^ {4}! 2\. expect hook call_event/.test(l))).toBe(true);
  });

  it('an order holds as the hooks were sent, though the first was answered last', async () => {
    // this receiver answers chat_accepted only once chat_finished has come and been answered:
    // the simulator sees the answers the other way round, but sent chat_accepted first
    let finished: () => void = () => undefined;
    const finishedCame = new Promise<void>((resolve) => (finished = resolve));
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { event_name: name } = JSON.parse(body) as { event_name: string };
        const answer = (): void => {
          res.setHeader('content-type', 'application/json');
          res.end('{"result":"ok"}');
        };
        if (name === 'chat_accepted') void finishedCame.then(() => setImmediate(answer));
        else {
          answer();
          if (name === 'chat_finished') finished();
        }
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => receiver.close(() => resolve())));
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'a real hook receiver answering out of order',
        setup: { hooks: {} },
        steps: [
          { customer: { text: 'hi', sender: { id: 'c-1' } } },
          { agent: { text: 'hello' } },
          { close: {} },
          { expect: { order: ['hook:chat_accepted', 'hook:chat_finished'] } },
        ],
      }),
      hookUrl: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`,
      timeScale: 0.2,
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('an order across an embedded receiver and a real integrator: both by when they were sent', async () => {
    // the platform sends chat_accepted as the agent's first message goes out (its hook first);
    // the real integrator's sighting was placed by its send time, the embedded hook-target's
    // by when it got the hook, a little later: the order read the other way round
    const integratorUrl = await realIntegrator();
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'order across a real and an embedded peer',
        setup: { hooks: {} },
        steps: [
          { customer: { text: 'hi', sender: { id: 'c-1' } } },
          { agent: { text: 'hello' } },
          { close: {} },
          {
            expect: {
              order: ['hook:chat_accepted', 'integrator:agent-message', 'hook:chat_finished'],
            },
          },
        ],
      }),
      integratorUrl,
      timeScale: 0.2,
    });
    expect(result.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });

  it('checks integrator expectations against what the simulator delivered', async () => {
    const integratorUrl = await realIntegrator();
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'a real integrator, what it received',
        steps: [
          { customer: { text: 'hi', sender: { id: 'c-1' } } },
          { agent: { text: 'hello' } },
          {
            expect: {
              integrator: {
                recipient: { id: 'c-1' },
                message: { text: 'hello' },
                $attempt: 1,
                $status: 200,
                $reply: { result: 'ok' },
              },
            },
          },
          { expect: { integrator: { message: { text: 'never sent' } }, within: 200 } },
        ],
      }),
      integratorUrl,
      // 600 ms of wall per 3 s attempt: $attempt 1 with $status 200 holds on a busy machine
      timeScale: 0.2,
    });
    expect(result.steps.map((s) => s.status)).toEqual(['passed', 'passed', 'passed', 'failed']);
    expect(result.expectations).toEqual({ checked: 2, skipped: 0 });
  });
});
