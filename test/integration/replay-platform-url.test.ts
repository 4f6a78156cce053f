import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import type { Conversation } from '../../src/conversation/format.js';
import { loadConversations } from '../../src/conversation/load.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';
import { createListener, type Listener } from '../../src/roles/integrator/index.js';
import { deadPeerUrl } from '../helpers/broken-peers.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A running simulator (as `svc-cli platform` would be) with a listener as its integrator. */
async function startSimulator(token?: string): Promise<{ url: string; platform: Platform }> {
  const clock = createClock({ timeScale: 0.1 });
  const listener: Listener = await createListener({ clock });
  const platform = createPlatform({
    clock,
    channels: [{ id: 'shop', integratorUrl: listener.url }],
  });
  const server = await platform.listen({
    port: 0,
    ...(token === undefined ? {} : { access: { allowOrigins: [], token } }),
  });
  closers.push(async () => {
    await platform.close();
    await listener.close(10);
  });
  return { url: server.url, platform };
}

describe('replay --platform-url (a running svc simulator)', () => {
  it('runs customer, agent, agents, close and control steps; event expectations over SSE', async () => {
    const { url } = await startSimulator();
    const [textBothWays] = await loadConversations(['fixtures/conversations/text-both-ways.json']);
    const conversation: Conversation = {
      version: 1,
      name: 'against a running simulator',
      steps: [
        ...textBothWays!.conversation.steps,
        { agents: 'offline' },
        { expect: { event: { type: 'agents', online: false } } },
        {
          control: { method: 'GET', path: '/_sim/state' },
          response: { body: { agentsOnline: false } },
        },
        { agents: 'online' },
        { name: 'closed', close: { customer: 'c-42' } },
        { expect: { event: { type: 'chat-closed', chatId: '${closed.chatId}' } } },
      ],
    };
    const result = await replayConversation({ conversation, platformUrl: url, timeScale: 0.1 });
    expect(result.steps.filter((s) => s.status === 'failed')).toEqual([]);
    expect(result.ok).toBe(true);
    const skipped = result.steps.filter((s) => s.status === 'skipped');
    expect(skipped.map((s) => s.kind)).toEqual(['expect']);
    expect(skipped[0]?.details[0]).toMatch(
      /^skipped: with --platform-url the simulator talks to its own integrator/,
    );
    expect(result.steps.find((s) => s.name === 'answer')?.value).toMatchObject({
      result: 'delivered',
      attempts: 1,
    });
  });

  it('sends the control token to a simulator that wants one (--control-token)', async () => {
    const { url } = await startSimulator('s3cret-t0ken');
    const [textBothWays] = await loadConversations(['fixtures/conversations/text-both-ways.json']);
    const conversation: Conversation = {
      ...textBothWays!.conversation,
      steps: [
        ...textBothWays!.conversation.steps,
        { agents: 'offline' },
        { expect: { event: { type: 'agents', online: false } } },
        { agents: 'online' },
      ],
    };
    const withToken = await replayConversation({
      conversation,
      platformUrl: url,
      controlToken: 's3cret-t0ken',
      timeScale: 0.1,
    });
    expect(withToken.steps.filter((s) => s.status === 'failed')).toEqual([]);
    const without = await replayConversation({ conversation, platformUrl: url, timeScale: 0.1 });
    expect(without.ok).toBe(false);
    expect(without.steps[0]?.details[0]).toMatch(
      /its control API wants a control token \(HTTP 401\)/,
    );
  });

  it('a failing expectation fails against the simulator too', async () => {
    const { url } = await startSimulator();
    const result = await replayConversation({
      conversation: {
        version: 1,
        name: 'wrong on purpose',
        setup: { agents: 'online' },
        steps: [
          { customer: { text: 'Hi', sender: { id: 'c-1' } } },
          { expect: { event: { type: 'customer-message', text: 'Bye' }, within: 300 } },
        ],
      },
      platformUrl: url,
      timeScale: 0.1,
    });
    expect(result.ok).toBe(false);
    expect(result.steps[1]?.details[0]).toBe(
      'expected event {"type":"customer-message","text":"Bye"} within 300 ms',
    );
  });

  it('a conversation whose setup the simulator cannot apply is skipped with the reason', async () => {
    const { url } = await startSimulator();
    const result = await replayConversation({
      conversation: {
        version: 1,
        name: 'needs integrator faults',
        setup: { integrator: { faults: { failFirst: 2 } } },
        steps: [{ customer: { text: 'Hi', sender: { id: 'c-1' } } }],
      },
      platformUrl: url,
    });
    expect(result).toMatchObject({ ok: true, steps: [] });
    expect(result.skipped).toBe(
      'setup.integrator cannot be applied to a running simulator (it runs as it was started); replay it without --platform-url',
    );
  });

  it('puts the agents back as it found them, and matches timings within the stated tolerance', async () => {
    const { url } = await startSimulator();
    const result = await replayConversation({
      conversation: {
        version: 1,
        name: 'agents go offline',
        steps: [{ agents: 'offline' }, { customer: { text: 'Hi', sender: { id: 'c-1' } } }],
      },
      platformUrl: url,
    });
    expect(result).toMatchObject({ ok: true, timingToleranceMs: 250 });
    const state = (await (await fetch(`${url}/_sim/state`)).json()) as { agentsOnline: boolean };
    expect(state.agentsOnline).toBe(true);
  });

  it('an unreachable simulator is a network error (exit 3)', async () => {
    await expect(
      replayConversation({
        conversation: { version: 1, name: 'x', steps: [{ agents: 'online' }] },
        platformUrl: await deadPeerUrl(),
      }),
    ).rejects.toMatchObject({ code: 'SVC_E_PEER_UNREACHABLE', category: 'network' });
  });
});
