import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { formatProxyEvent } from '../../src/cli/render/proxy.js';
import { createClock, createVirtualClock } from '../../src/clock.js';
import { createJournal } from '../../src/journal/journal.js';
import {
  startProxy,
  type ProxyEvent,
  type ProxyViolationEvent,
  type RunningProxy,
} from '../../src/proxy/index.js';
import { createHookTarget, type HookTarget } from '../../src/roles/hooks/index.js';
import { buildSampleHookEvent } from '../../src/roles/hooks/samples.js';
import { post } from '../helpers/platform.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function receiver(): Promise<HookTarget> {
  const target = await createHookTarget({ clock: createVirtualClock() });
  closers.push(() => target.close(0));
  return target;
}

async function hooksProxy(
  upstream: string,
  more: Partial<Parameters<typeof startProxy>[0]> = {},
): Promise<{ proxy: RunningProxy; events: ProxyEvent[] }> {
  const events: ProxyEvent[] = [];
  const proxy = await startProxy({
    iface: 'hooks',
    upstreams: { receiver: upstream },
    clock: createVirtualClock(),
    onEvent: (e) => events.push(e),
    ...more,
  });
  closers.push(() => proxy.close(0));
  return { proxy, events };
}

const violations = (events: ProxyEvent[]): ProxyViolationEvent[] =>
  events.filter((e): e is ProxyViolationEvent => e.type === 'violation');

/**
 * The planted bug of a platform under test: after chat_finished, a chat_assigned about the same
 * chat (as svc-cli's own platform did when a closed chat was assigned, test/helpers/late-hook.ts).
 * Each hook is valid on its own: only the conversation shows the bug.
 */
async function sendChat(proxyUrl: string, lateHook: boolean): Promise<void> {
  for (const name of ['chat_accepted', 'chat_finished', ...(lateHook ? ['chat_assigned'] : [])]) {
    const answer = await post(`${proxyUrl}/hooks`, buildSampleHookEvent(name as 'chat_accepted'));
    expect(answer.status).toBe(200);
  }
}

describe('proxy: the invariants on the conversations passing through', () => {
  it('flags a hook after chat_finished as it passes, naming both exchanges, and counts it', async () => {
    const target = await receiver();
    const journal = createJournal();
    const { proxy, events } = await hooksProxy(target.url, { journal });
    await sendChat(proxy.url, true);
    // flagged as the late hook passed, before the proxy is stopped
    const [flagged] = violations(events);
    expect(flagged).toMatchObject({
      type: 'violation',
      rule: 'hook-after-finish',
      spec: '6.2',
      chat: 1042,
      exchanges: [2, 3],
    });
    // the seqs and the run are the --record journal's
    expect(flagged!.run).toBe(journal.run);
    expect(journal.entries()[0]!.run).toBe(journal.run);
    expect(journal.entries().map((r) => [r.seq, r.kind])).toEqual([
      [1, 'hook.chat_accepted'],
      [2, 'hook.chat_finished'],
      [3, 'hook.chat_assigned'],
    ]);
    // the line printed, and the summary counting it as --fail-on-violation does
    const line = formatProxyEvent(flagged!, new Chalk({ level: 0 }));
    expect(line).toMatch(
      /^✗ invariant hook-after-finish \(spec 6\.2\): #3 chat_assigned at \+[\d.]+ s went to the hook receiver after #2 chat_finished at \+[\d.]+ s \[exchanges #2 and #3; --no-invariant hook-after-finish switches it off\]$/,
    );
    await proxy.close(0);
    expect(violations(events)).toHaveLength(1); // reported once, not again at the end
    const summary = proxy.summary();
    expect(summary).toMatchObject({
      violations: 0,
      invariantViolations: 1,
      byInvariant: { 'hook-after-finish': 1 },
    });
    expect(formatProxyEvent(summary, new Chalk({ level: 0 }))).toContain(
      '1 broken invariant\n  1 x invariant hook-after-finish (--no-invariant hook-after-finish switches it off)',
    );
  });

  it('passes the same chat without the late hook, and with the invariant switched off', async () => {
    const target = await receiver();
    const fixed = await hooksProxy(target.url);
    await sendChat(fixed.proxy.url, false);
    await fixed.proxy.close(0);
    expect(violations(fixed.events)).toEqual([]);
    expect(fixed.proxy.summary().invariantViolations).toBe(0);

    const off = await hooksProxy(target.url, { invariants: { disabled: ['hook-after-finish'] } });
    await sendChat(off.proxy.url, true);
    await off.proxy.close(0);
    expect(violations(off.events)).toEqual([]);
  });

  it("checks a chat that never ended once the proxy stops: the bot's AGENT_JOINED unasked", async () => {
    // a bot leg to a provider that answers 200: the platform says AGENT_JOINED for a chat
    // whose bot never invited an agent and whose CLIENT_MESSAGE it answered
    const provider = await receiver();
    const events: ProxyEvent[] = [];
    const proxy = await startProxy({
      iface: 'bot',
      upstreams: { provider: provider.url },
      clock: createVirtualClock(),
      onEvent: (e) => events.push(e),
    });
    closers.push(() => proxy.close(0));
    const base = { chat_id: 77, client_id: 'c-77', timestamp: 1795894815 };
    await post(`${proxy.url}/provider/t0k`, {
      ...base,
      id: 'e-1',
      event: 'CLIENT_MESSAGE',
      message: { type: 'text', text: 'Hello' },
    });
    await post(`${proxy.url}/provider/t0k`, { ...base, id: 'e-2', event: 'AGENT_JOINED' });
    expect(violations(events)).toEqual([]); // the chat has not ended: nothing judged yet
    await proxy.close(0);
    expect(violations(events)).toMatchObject([
      { rule: 'agent-joined', chat: 77, exchanges: [1, 2] },
    ]);
    // no --record journal: the proxy's own run id, not an empty one
    expect(violations(events)[0]!.run).toMatch(/^[0-9a-f]{12,}$/);
  });

  it('a provider too slow for the platform leaves the chat to a hand-over: AGENT_JOINED is no violation', async () => {
    // the provider answers 200 after 40 ms of wall time: 4 s at 0.01, over the 3 s budget, so
    // the platform took neither attempt (spec 8) and handed the chat over
    const provider = createServer((req, res) => {
      req.resume();
      req.on('end', () => setTimeout(() => res.writeHead(200).end('{}'), 40));
    });
    await new Promise<void>((done) => provider.listen(0, '127.0.0.1', done));
    closers.push(() => new Promise((done) => provider.close(() => done())));
    const events: ProxyEvent[] = [];
    const journal = createJournal();
    const proxy = await startProxy({
      iface: 'bot',
      upstreams: { provider: `http://127.0.0.1:${(provider.address() as AddressInfo).port}` },
      clock: createClock({ timeScale: 0.01 }),
      journal,
      invariants: { disabled: ['handover-budget'] },
      onEvent: (e) => events.push(e),
    });
    closers.push(() => proxy.close(0));
    const base = { chat_id: 78, client_id: 'c-78', timestamp: 1795894815 };
    const message = {
      ...base,
      id: 'e-1',
      event: 'CLIENT_MESSAGE',
      message: { type: 'text', text: 'Hi' },
    };
    await post(`${proxy.url}/provider/t0k`, message);
    await post(`${proxy.url}/provider/t0k`, message);
    await post(`${proxy.url}/provider/t0k`, { ...base, id: 'e-2', event: 'AGENT_JOINED' });
    await proxy.close(0);
    // judged as the platform judges them, in the journal too
    expect(journal.entries().map((r) => r.notes?.[2])).toEqual([
      'rejected: over the budget',
      'rejected: over the budget',
      'rejected: over the budget',
    ]);
    expect(violations(events)).toEqual([]);
  });
});
