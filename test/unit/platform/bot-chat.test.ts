import { describe, expect, it } from 'vitest';
import { contactFieldsOf, findBotChat } from '../../../src/platform/bot/bot-service.js';
import type { Chat, Customer } from '../../../src/platform/model.js';

const chat = (id: number, customerKey: string, mode: Chat['mode'] = 'bot'): Chat => ({
  id,
  channelId: 'ch',
  customerKey,
  mode,
  agentIds: [],
  lines: [],
  openedAt: 0,
  lastActivityMs: 0,
  ext: {},
});
const customer = (n: number): Customer => ({
  key: `ch/c-${n}`,
  channelId: 'ch',
  senderId: `c-${n}`,
  clientId: String(500 + n),
  visitorNumber: n,
});

function state(...chats: Chat[]) {
  return {
    chats: new Map(chats.map((c) => [c.id, c])),
    customers: new Map([1, 2].map((n) => [`ch/c-${n}`, customer(n)])),
  };
}

describe('findBotChat: the open chat a provider event is about (spec 6.1)', () => {
  const open = chat(1, 'ch/c-1');
  const closed = chat(2, 'ch/c-2', 'closed');

  it('takes chat_id first, as a number or a string, and never a closed chat', () => {
    expect(findBotChat(state(open, closed), { chat_id: 1 }, undefined)).toBe(open);
    expect(findBotChat(state(open, closed), { chat_id: '1' }, undefined)).toBe(open);
    expect(findBotChat(state(open, closed), { chat_id: 2 }, 1)).toBeUndefined();
  });

  it("then the open chat of client_id's customer", () => {
    expect(findBotChat(state(open, closed), { client_id: '501' }, undefined)).toBe(open);
  });

  it('else the chat the bot was last asked about, while it is open', () => {
    expect(findBotChat(state(open, closed), {}, 1)).toBe(open);
    expect(findBotChat(state(open, closed), { client_id: '502' }, 2)).toBeUndefined();
    expect(findBotChat(state(open), {}, undefined)).toBeUndefined();
  });
});

describe("contactFieldsOf: CLIENT_INFO's contact data as visitor fields", () => {
  it('keeps the non-empty strings of name, email, phone and description only', () => {
    expect(
      contactFieldsOf({ name: 'Ann', email: '', phone: 5, description: 'vip', city: 'Oslo' }),
    ).toEqual({ name: 'Ann', description: 'vip' });
  });
});
