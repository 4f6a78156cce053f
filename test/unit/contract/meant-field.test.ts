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

describe('a value an enum does not take', () => {
  const errorsOf = (kind: string, value: unknown): string[] =>
    validate(kind, value).errors.map((e) => `${e.path}: ${e.rule}`);
  const call = (status: string) => ({
    event_name: 'call_event',
    chat_id: 1,
    widget_id: 'w',
    call: { type: 'callback', phone: '+1', status },
  });

  it('names the allowed value a typo or a capital was meant for', () => {
    expect(errorsOf('hook.call_event', call('eror'))).toContainEqual(
      expect.stringMatching(
        /^call\.status: must be one of "start", .*"error"; did you mean "error"\?$/,
      ),
    );
    expect(errorsOf('hook.call_event', call('Start'))).toContainEqual(
      expect.stringMatching(/; did you mean "start"\?$/),
    );
  });

  it('names none when no value is close', () => {
    expect(errorsOf('hook.call_event', call('finished'))).toContainEqual(
      expect.stringMatching(/^call\.status: must be one of [^;]+$/),
    );
  });
});
