import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatBotEvent } from '../../../src/cli/render/bot-events.js';
import type { BotHandoverEvent } from '../../../src/platform/bot/bot-events.js';

const plain = new Chalk({ level: 0 });
const handover = (to: BotHandoverEvent['to'], reason: string): string =>
  formatBotEvent({ type: 'bot-handover', chatId: 1, reason, to, protocolMs: 0 }, plain).replace(
    /^.*?⇄/,
    '⇄',
  );

const INVITED = 'INVITE_AGENT: the bot invited an agent';
const SILENT = 'no regular answer from the bot in 2 attempts (connection refused)';

describe("the platform's line for a bot chat handed over (or not)", () => {
  it('reads as a sentence for each place the chat goes to', () => {
    expect(handover('agent', INVITED)).toMatchInlineSnapshot(
      `"⇄ chat 1 handed over to an agent (INVITE_AGENT: the bot invited an agent)"`,
    );
    expect(handover('bot', INVITED)).toMatchInlineSnapshot(
      `"⇄ chat 1 not handed over: no agent online, the bot keeps the chat (INVITE_AGENT: the bot invited an agent)"`,
    );
    expect(handover('queue', SILENT)).toMatchInlineSnapshot(
      `"⇄ chat 1 not handed over: no agent online, the chat waits in the queue (no regular answer from the bot in 2 attempts: connection refused)"`,
    );
  });
});
