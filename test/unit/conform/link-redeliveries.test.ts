import { describe, expect, it } from 'vitest';
import { linkRedeliveries } from '../../../src/conversation/conform/observed.js';
import type { ExchangeRecord } from '../../../src/journal/index.js';

/** An agent message the embedded listener was sent (`in`), answered `status` or not at all. */
const agent = (
  seq: number,
  to: string,
  text: string,
  id: string,
  status: number | 'reset',
): ExchangeRecord => ({
  type: 'exchange',
  seq,
  at: '2026-01-01T00:00:00.000Z',
  protocolMs: seq * 3000,
  iface: 'channel',
  direction: 'in',
  kind: 'channel.agent.text',
  attempt: 1,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:1/shop',
    body: JSON.stringify({ recipient: { id: to }, message: { id, type: 'text', text } }),
  },
  ...(status === 'reset'
    ? { failure: { reason: 'reset', message: 'no reply' } }
    : { response: { status, body: '' } }),
});

const links = (records: ExchangeRecord[]) =>
  linkRedeliveries(records).map((r) => [r.seq, r.attempt, r.cause]);

describe('linkRedeliveries (spec 8: a refused agent message is sent again), which redelivery-id reads', () => {
  it('links what follows a refusal for the same customer and text, whatever its id', () => {
    expect(
      links([
        agent(1, 'c1', 'hi', 'm1', 500),
        agent(2, 'c1', 'hi', 'm1-retry-2', 'reset'),
        agent(3, 'c1', 'hi', 'm1-retry-3', 200),
      ]),
    ).toEqual([
      [1, 1, undefined],
      [2, 2, 1],
      [3, 3, 2],
    ]);
  });

  it('an answer in 2xx ends the series: the same text after it is a new message', () => {
    expect(links([agent(1, 'c1', 'hi', 'm1', 200), agent(2, 'c1', 'hi', 'm2', 500)])).toEqual([
      [1, 1, undefined],
      [2, 1, undefined],
    ]);
  });

  it('keeps series of other customers and other texts apart, interleaved or not', () => {
    expect(
      links([
        agent(1, 'c1', 'hi', 'm1', 500),
        agent(2, 'c2', 'hi', 'm2', 500),
        agent(3, 'c1', 'bye', 'm3', 500),
        agent(4, 'c1', 'hi', 'm1', 200),
        agent(5, 'c2', 'hi', 'm2', 200),
      ]),
    ).toEqual([
      [1, 1, undefined],
      [2, 1, undefined],
      [3, 1, undefined],
      [4, 2, 1],
      [5, 2, 2],
    ]);
  });

  it('leaves what is not an agent message the listener was sent as it is', () => {
    const hook: ExchangeRecord = {
      ...agent(1, 'c1', 'hi', 'm1', 500),
      iface: 'hook',
      kind: 'hook.chat_updated',
    };
    const sent: ExchangeRecord = { ...agent(2, 'c1', 'hi', 'm1', 500), direction: 'out' };
    expect(linkRedeliveries([hook, sent])).toEqual([hook, sent]);
  });
});
