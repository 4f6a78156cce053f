import { describe, expect, it } from 'vitest';
import { countBotAnswers, findBotEvent } from '../../../src/conversation/bot-answers.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

let seq = 0;
/** The platform sent the bot `event` (an attempt that took `durationMs`, stamped at its end). */
function sent(
  at: number,
  body: Record<string, unknown>,
  attempt = 1,
  durationMs = 5,
): ExchangeRecord {
  return {
    type: 'exchange',
    seq: ++seq,
    at: '',
    protocolMs: at + durationMs,
    durationMs,
    iface: 'bot',
    direction: 'out',
    kind: `bot.event.${String(body.event)}`,
    attempt,
    request: { method: 'POST', url: 'http://bot/t', body: JSON.stringify(body) },
    response: { status: 200, body: '{}' },
  };
}
/** The bot posted `body` to the bot service, which answered `status`. */
function answered(at: number, body: Record<string, unknown>, status = 200): ExchangeRecord {
  return {
    type: 'exchange',
    seq: ++seq,
    at: '',
    protocolMs: at,
    iface: 'bot',
    direction: 'in',
    request: { method: 'POST', url: 'http://p/webhooks/acme/t', body: JSON.stringify(body) },
    response: { status, body: '{}' },
  };
}
const client = (id: string, chat: string) => ({
  event: 'CLIENT_MESSAGE',
  id,
  chat_id: chat,
  client_id: 'c',
  message: { type: 'TEXT', text: 'hi' },
});
const reply = (chat: string, text: string) => ({
  event: 'BOT_MESSAGE',
  id: `b-${text}`,
  chat_id: chat,
  message: { type: 'TEXT', text },
});

describe('a bot answers to one event, from the journal', () => {
  it('counts every answer for the chat from the first attempt to the next customer message', () => {
    const records = [
      sent(100, client('e1', '1')),
      // before the attempt was stamped (its answer came first): still the answer to e1
      answered(102, reply('1', 'first')),
      answered(110, reply('2', 'another chat')),
      sent(200, client('e1', '1'), 2),
      answered(210, reply('1', 'again')),
      answered(220, { event: 'INVITE_AGENT', id: 'i', chat_id: '1' }, 400),
      sent(300, client('e2', '1')),
      answered(310, reply('1', 'to e2')),
    ];
    const e1 = findBotEvent(records, 'e1')!;
    expect(e1.attempts).toHaveLength(2);
    const counted = countBotAnswers(records, e1);
    expect(counted.accepted.map((a) => a.text)).toEqual(['first', 'again']);
    expect(counted.refused).toEqual([{ event: 'INVITE_AGENT', status: 400 }]);
    // without an id: the last CLIENT_MESSAGE sent
    const last = findBotEvent(records, undefined)!;
    expect(last.id).toBe('e2');
    expect(countBotAnswers(records, last).accepted.map((a) => a.text)).toEqual(['to e2']);
    expect(findBotEvent(records, 'nope')).toBeUndefined();
  });

  it('leaves out an attempt the platform interrupted when it stopped (a recording cut mid-series)', () => {
    const { response: _answered, durationMs: _took, ...attempt } = sent(400, client('e3', '1'));
    const cut: ExchangeRecord = {
      ...attempt,
      failure: { reason: 'interrupted', message: 'interrupted: stopped' },
    };
    expect(findBotEvent([sent(300, client('e2', '1')), cut], undefined)?.id).toBe('e2');
  });

  it('orders what happened at one instant by the customer message journaled before it', () => {
    // replay's virtual clock: every exchange at protocol 0; the embedded bot answers before
    // the attempt that asked it is journaled
    const customer = (chat: number, run?: string): ExchangeRecord => ({
      type: 'exchange',
      seq: ++seq,
      at: '',
      protocolMs: 0,
      iface: 'channel',
      direction: 'in',
      kind: 'channel.customer.text',
      chat,
      ...(run === undefined ? {} : { run }),
      request: { method: 'POST', url: 'http://p/s/shop', body: '{}' },
      response: { status: 200, body: '{"result":"ok"}' },
    });
    const at0 = (r: ExchangeRecord, run?: string): ExchangeRecord => ({
      ...r,
      protocolMs: 0,
      durationMs: 0,
      ...(run === undefined ? {} : { run }),
    });
    const oneRun = [
      customer(1),
      at0(answered(0, reply('1', 'You said: hi'))),
      at0(sent(0, client('m1', '1'))),
      customer(1),
      at0(answered(0, { event: 'INVITE_AGENT', id: 'i', chat_id: '1' })),
      at0(sent(0, client('m2', '1'))),
    ];
    const first = countBotAnswers(oneRun, findBotEvent(oneRun, 'm1')!);
    expect(first.accepted.map((a) => a.text ?? a.event)).toEqual(['You said: hi']);
    const second = countBotAnswers(oneRun, findBotEvent(oneRun, 'm2')!);
    expect(second.accepted.map((a) => a.event)).toEqual(['INVITE_AGENT']);

    // two runs of one file: chat 1 of each is its own chat, its clock starts again
    const twoRuns = [
      customer(1, 'r1'),
      at0(sent(0, client('a1', '1')), 'r1'),
      { ...answered(50, reply('1', 'run one')), run: 'r1' },
      customer(1, 'r2'),
      at0(sent(0, client('b1', '1')), 'r2'),
      { ...answered(20, reply('1', 'run two')), run: 'r2' },
    ];
    const a1 = countBotAnswers(twoRuns, findBotEvent(twoRuns, 'a1')!);
    expect(a1.accepted.map((a) => a.text)).toEqual(['run one']);
    const b1 = countBotAnswers(twoRuns, findBotEvent(twoRuns, 'b1')!);
    expect(b1.accepted.map((a) => a.text)).toEqual(['run two']);
  });
});
