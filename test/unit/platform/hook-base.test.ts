import { describe, expect, it } from 'vitest';
import { hookAgentOf, hookBaseOf } from '../../../src/platform/hooks/hook-service.js';
import type { Agent, Channel, Chat, Customer } from '../../../src/platform/model.js';

const agents: Agent[] = [
  { id: 1, name: 'Ann', email: 'ann@example.com' },
  { id: 2, name: 'Bo', email: 'bo@example.com' },
  { id: 3, name: 'Cy', email: 'cy@example.com' },
];
const channel = { id: 'ch', agentIds: [3, 1] } as Channel;
const state = { agents, channels: new Map([['ch', channel]]) };
const chat = (extra: Partial<Chat> = {}): Chat => ({
  id: 9,
  channelId: 'ch',
  customerKey: 'ch/c-1',
  mode: 'agent',
  agentIds: [],
  lines: [
    { timestamp: 1, type: 'visitor', kind: 'channel.customer.text', text: 'hi' },
    { timestamp: 2, type: 'agent', kind: 'channel.agent.text', text: 'hello' },
    { timestamp: 3, type: 'visitor', kind: 'channel.customer.text', text: 'thanks' },
  ],
  openedAt: 0,
  lastActivityMs: 0,
  ext: {},
  ...extra,
});
const customer: Customer = {
  key: 'ch/c-1',
  channelId: 'ch',
  senderId: 'c-1',
  clientId: '501',
  visitorNumber: 4,
  name: 'Dee',
  userToken: 'tok',
};

describe('hookBaseOf: the fields every chat hook event carries (spec 6.2)', () => {
  it("names the widget, the chat and the visitor, counting the visitor's messages", () => {
    expect(hookBaseOf(undefined, 'w-1', chat(), customer)).toEqual({
      widgetId: 'w-1',
      seed: 'ch/c-1',
      chatId: 9,
      visitor: { number: 4, name: 'Dee', userToken: 'tok', chatsCount: 2 },
    });
  });

  it('leaves out the user token under the hook-without-user-token mutant', () => {
    const base = hookBaseOf('hook-without-user-token', 'w-1', chat(), customer);
    expect(base.visitor).not.toHaveProperty('userToken');
  });
});

describe('hookAgentOf: the agent a hook event names', () => {
  it("takes the agent given, else the chat's, else its channel's first, else the first", () => {
    expect(hookAgentOf(state, chat({ agentId: 2 }), 1)?.name).toBe('Ann');
    expect(hookAgentOf(state, chat({ agentId: 2 }))?.name).toBe('Bo');
    expect(hookAgentOf(state, chat())?.name).toBe('Cy');
    expect(hookAgentOf(state, undefined)?.name).toBe('Ann');
  });
});
