import { describe, expect, it } from 'vitest';
import { runIds, shiftChatIds } from '../../../src/conversation/run-ids.js';
import type { Conversation } from '../../../src/conversation/format.js';

describe('fresh ids per replay run', () => {
  it('numbers chats from <run>001 and clients from <run>501', () => {
    expect(runIds(42)).toEqual({ firstChatId: 42_001, firstClientId: 42_501 });
  });

  it("moves a fixture's literal chat ids into the run's block and keeps references", () => {
    const conversation: Conversation = {
      version: 1,
      name: 'recorded',
      steps: [
        { customer: { text: 'hi', raw: { chat_id: 1 } } },
        { name: 'answer', agent: { text: 'yes' }, delivery: { chatId: 1 } },
        { control: { method: 'POST', path: '/_sim/chats/1/assign', body: {} } },
        { control: { method: 'POST', path: '/_sim/chats/${answer.chatId}/close', body: {} } },
        { control: { method: 'POST', path: '/_sim/calls', body: { chatId: 2 } } },
        { expect: { event: { type: 'crm-data', chatId: 1 } } },
        { expect: { hook: { event_name: 'chat_updated', chat_id: '${answer.chatId}' } } },
        { expect: { bot: { event: 'AGENT_JOINED', chat_id: '1', client_id: '$string' } } },
        { expect: { hook: { event_name: 'offline_message', chat_id: '$absent' } } },
      ],
    };
    const shifted = shiftChatIds(conversation, 42).steps;
    // what the customer sends is the fixture's own body
    expect(shifted[0]).toBe(conversation.steps[0]);
    expect(shifted[1]).toMatchObject({ delivery: { chatId: 42_001 } });
    expect(shifted[2]).toMatchObject({ control: { path: '/_sim/chats/42001/assign' } });
    expect(shifted[3]).toMatchObject({ control: { path: '/_sim/chats/${answer.chatId}/close' } });
    expect(shifted[4]).toMatchObject({ control: { body: { chatId: 42_002 } } });
    expect(shifted[5]).toEqual({ expect: { event: { type: 'crm-data', chatId: 42_001 } } });
    expect(shifted[6]).toEqual(conversation.steps[6]);
    expect(shifted[7]).toMatchObject({ expect: { bot: { chat_id: '42001' } } });
    expect(shifted[8]).toEqual(conversation.steps[8]);
    // run id 0 (none) changes nothing
    expect(shiftChatIds(conversation, 0)).toBe(conversation);
  });
});
