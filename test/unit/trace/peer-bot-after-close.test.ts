/**
 * conform bot's bot-after-close (src/trace/peer-rules.ts): the bot's answer to a message sent
 * before the close may arrive after it, however late a busy machine brings it; a post on top of
 * the answers that were under way is the bug the rule is for.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { checkPeer } from '../../../src/trace/peer-rules.js';

function journal() {
  const records: ExchangeRecord[] = [];
  const add = (
    direction: 'in' | 'out',
    at: number,
    body: Record<string, unknown>,
  ): ExchangeRecord => {
    const record: ExchangeRecord = {
      type: 'exchange',
      seq: records.length + 1,
      run: 'r',
      at: '2026-01-01T00:00:00.000Z',
      protocolMs: at,
      durationMs: direction === 'out' ? 5 : 0,
      iface: 'bot',
      direction,
      request: { method: 'POST', url: 'http://127.0.0.1:9100/t0k', body: JSON.stringify(body) },
      response: { status: 200, body: '{}' },
    };
    records.push(record);
    return record;
  };
  return {
    records,
    /** the platform to the bot, journaled at the answer */
    toBot: (event: string, at: number, id = `e-${records.length}`) =>
      add('out', at, { event, id, chat_id: 7, client_id: 'c-1' }),
    /** the bot to the platform's bot service */
    fromBot: (event: string, at: number) =>
      add('in', at, { event, id: `b-${records.length}`, chat_id: 7, client_id: 'c-1' }),
  };
}

const violations = (records: ExchangeRecord[]) =>
  checkPeer('bot', records, { toleranceMs: 250 })
    .filter((v) => v.rule === 'bot-after-close')
    .map((v) => v.exchanges);

describe('bot-after-close in conform bot', () => {
  it('lets pass a late answer to a message sent before the close', () => {
    const j = journal();
    j.toBot('CLIENT_MESSAGE', 1000);
    const closed = j.toBot('CHAT_CLOSED', 1390);
    j.fromBot('BOT_MESSAGE', 1756); // the answer to the message, 366 ms after the close
    expect(violations(j.records)).toEqual([]);
    expect(closed.seq).toBe(2);
  });

  it('catches a goodbye on top of that answer', () => {
    const j = journal();
    j.toBot('CLIENT_MESSAGE', 1000);
    const closed = j.toBot('CHAT_CLOSED', 1390);
    j.fromBot('BOT_MESSAGE', 1756);
    const bye = j.fromBot('BOT_MESSAGE', 2890);
    expect(violations(j.records)).toEqual([[closed.seq, bye.seq]]);
  });

  it('catches a post after the close when every message was answered before it', () => {
    const j = journal();
    j.toBot('CLIENT_MESSAGE', 1000);
    j.fromBot('BOT_MESSAGE', 1010);
    const closed = j.toBot('CHAT_CLOSED', 1390);
    const late = j.fromBot('BOT_MESSAGE', 1756);
    expect(violations(j.records)).toEqual([[closed.seq, late.seq]]);
  });
});
