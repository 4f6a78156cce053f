/**
 * An unknown field close to one the contract lists is named with it (src/contract/validate.ts):
 * a bot that writes chatId beside or for chat_id learns the spelling, not only that the key is
 * extra.
 */
import { describe, expect, it } from 'vitest';
import { validate } from '../../../src/contract/validate.js';

const rulesOf = (kind: string, value: unknown): string[] =>
  validate(kind, value).warnings.map((w) => `${w.path}: ${w.rule}`);

const extra = 'not in the spec (allowed: real traffic carries extra fields)';

describe('an unknown field', () => {
  it('names the field it is closest to, at its own level', () => {
    const answer = {
      event: 'BOT_MESSAGE',
      id: 'a1',
      chat_id: '3',
      client_id: '503',
      chatId: '3',
      message: { type: 'TEXT', text: 'hi', timestamp: 1_700_000_000, txt: 'hi' },
    };
    expect(rulesOf('bot.event.BOT_MESSAGE', answer)).toEqual([
      `message.txt: ${extra}; did you mean text?`,
      `chatId: ${extra}; did you mean chat_id?`,
    ]);
    const customer = { sender: { id: 'c1', nme: 'Ann' }, message: { type: 'text', text: 'hi' } };
    expect(rulesOf('channel.customer.text', customer)).toEqual([
      `sender.nme: ${extra}; did you mean name?`,
    ]);
  });

  it('names none when no field is close', () => {
    const value = {
      sender: { id: 'c1', loyalty_tier: 'gold' },
      message: { type: 'text', text: 'hi' },
    };
    expect(rulesOf('channel.customer.text', value)).toEqual([`sender.loyalty_tier: ${extra}`]);
  });
});
