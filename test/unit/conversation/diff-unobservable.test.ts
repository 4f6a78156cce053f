/**
 * record diff leaves out what one side could not see: a `proxy channel` recording (the
 * integrator's calls only, or no bot and hooks) beside a replay's has no drift on the legs it
 * never recorded, and says so apart.
 */
import { describe, expect, it } from 'vitest';
import { diffObservations, legOf } from '../../../src/conversation/record/diff.js';
import { createObserver } from '../../../src/conversation/record/observe.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

let seq = 0;
const record = (
  iface: ExchangeRecord['iface'],
  direction: ExchangeRecord['direction'],
  kind: string,
  body: unknown,
  notes?: string[],
): ExchangeRecord => ({
  type: 'exchange',
  seq: ++seq,
  run: 'r',
  at: '2026-12-01T00:00:00.000Z',
  protocolMs: seq,
  iface,
  direction,
  kind,
  request: { method: 'POST', url: 'http://127.0.0.1/x', body: JSON.stringify(body) },
  response: { status: 200, body: '{"result":"ok"}' },
  ...(notes ? { notes } : {}),
});

function observe(records: ExchangeRecord[]) {
  const observer = createObserver(['x.ndjson']);
  for (const r of records) observer.add(r);
  return observer.finish();
}

const customer = { sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } };
const customerImage = { sender: { id: 'c-1' }, message: { type: 'image', url: 'x' } };
const agent = { recipient: { id: 'c-1' }, message: { type: 'text', id: 'm', text: 'hi' } };

describe('record diff: legs one side did not record', () => {
  it('a proxy channel recording of the platform leg only: bot, hooks and agent messages are not observable', () => {
    const real = observe([
      record('channel', 'in', 'channel.customer.text', customer, ['proxy', 'leg:platform']),
    ]);
    const sim = observe([
      record('channel', 'in', 'channel.customer.text', customer),
      record('channel', 'in', 'channel.customer.image', customerImage),
      record('bot', 'out', 'bot.event.CLIENT_MESSAGE', { event: 'CLIENT_MESSAGE' }),
      record('hook', 'out', 'hook.chat_accepted', { event_name: 'chat_accepted' }),
      record('channel', 'out', 'channel.agent.text', agent),
    ]);
    const result = diffObservations(real, sim);
    // a leg both recorded: a kind seen on one side only is still drift
    expect(result.differences.map((d) => [d.kind, d.aspect, d.detail])).toEqual([
      ['channel.customer.image', 'kind', 'sent only in b (1 exchange)'],
    ]);
    expect(result.unobservable).toEqual([
      { side: 'a', leg: 'platform -> bot (bot)', kinds: { 'bot.event.CLIENT_MESSAGE': 1 } },
      {
        side: 'a',
        leg: 'platform -> integrator (channel)',
        kinds: { 'channel.agent.text': 1 },
      },
      { side: 'a', leg: 'platform -> hook receiver (hook)', kinds: { 'hook.chat_accepted': 1 } },
    ]);
  });

  it('works both ways: the side b that lacks a leg', () => {
    const full = observe([
      record('channel', 'out', 'channel.agent.text', agent),
      record('channel', 'in', 'channel.customer.text', customer),
    ]);
    const inOnly = observe([record('channel', 'in', 'channel.customer.text', customer)]);
    const result = diffObservations(full, inOnly);
    expect(result.counts.behaviour).toBe(0);
    expect(result.unobservable).toEqual([
      {
        side: 'b',
        leg: legOf({ iface: 'channel', direction: 'out' }),
        kinds: { 'channel.agent.text': 1 },
      },
    ]);
  });
});
