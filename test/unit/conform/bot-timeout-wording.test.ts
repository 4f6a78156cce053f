/**
 * A bot that does not answer in time is told what the platform then does, for the event it
 * missed: only a CLIENT_MESSAGE hands the customer over (src/platform/bot/bot-service.ts); an
 * unanswered AGENT_JOINED, AGENT_UNAVAILABLE or CHAT_CLOSED is given up on.
 */
import { describe, expect, it } from 'vitest';
import { judgeBotAnswer } from '../../../src/conversation/conform/bot.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

const timedOut = {
  type: 'exchange',
  request: { method: 'POST', url: 'http://127.0.0.1:7000/bot/***' },
  failure: { reason: 'timeout', message: 'no answer within 3000 ms' },
} as unknown as ExchangeRecord;

describe('judgeBotAnswer of a timeout', () => {
  it('keeps the hand-over for CLIENT_MESSAGE', () => {
    expect(judgeBotAnswer('CLIENT_MESSAGE', timedOut)).toEqual([
      'reply time: no answer to CLIENT_MESSAGE within 3000 ms; the platform waits 3 s per attempt, 2 attempts, then hands the customer to an agent (spec 4.3, 8)',
    ]);
  });

  it.each([
    [
      'AGENT_JOINED',
      'gives up on AGENT_JOINED: the agent keeps the chat, and the bot is never told they joined',
    ],
    [
      'AGENT_UNAVAILABLE',
      'gives up on AGENT_UNAVAILABLE: the chat stays with the bot, which is never told no agent is free',
    ],
    [
      'CHAT_CLOSED',
      'gives up on CHAT_CLOSED: the chat is closed all the same, and the bot is never told',
    ],
  ])('says the platform gives up on %s, and hands nobody over', (event, after) => {
    const [reason] = judgeBotAnswer(event, timedOut);
    expect(reason).toBe(
      `reply time: no answer to ${event} within 3000 ms; the platform waits 3 s per attempt, 2 attempts, then ${after} (spec 4.3, 8)`,
    );
    expect(reason).not.toContain('hands the customer');
  });
});
