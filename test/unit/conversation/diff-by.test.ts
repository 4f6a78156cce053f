/**
 * record diff says whose doing each difference is: a staging recording set beside the
 * simulator's is read for the platform's lines, and what the integrator answered is not one.
 */
import { describe, expect, it } from 'vitest';
import { diffObservations } from '../../../src/conversation/record/diff.js';
import { createObserver } from '../../../src/conversation/record/observe.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

let seq = 0;
const record = (
  iface: ExchangeRecord['iface'],
  direction: ExchangeRecord['direction'],
  kind: string,
  body: unknown,
  status: number,
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
  response: { status, body: '{"result":"ok"}' },
});

function observe(records: ExchangeRecord[]) {
  const observer = createObserver(['x.ndjson']);
  for (const r of records) observer.add(r);
  return observer.finish();
}

describe('record diff: whose doing a difference is', () => {
  it("the integrator's answers are the peer's; what the platform sends and answers is its own", () => {
    const agent = { recipient: { id: 'c-1' }, message: { type: 'text', id: 'm', text: 'hi' } };
    const customer = { sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } };
    const a = observe([
      record('channel', 'out', 'channel.agent.text', agent, 200),
      record('channel', 'in', 'channel.customer.text', customer, 200),
    ]);
    const b = observe([
      record('channel', 'out', 'channel.agent.text', { ...agent, extra: 1 }, 404),
      record('channel', 'in', 'channel.customer.text', { ...customer, extra: 1 }, 400),
    ]);
    const lines = diffObservations(a, b).differences.map((d) => [d.kind, d.aspect, d.by, d.peer]);
    expect(lines).toEqual(
      expect.arrayContaining([
        // the integrator answered 404 where it answered 200: its doing
        ['channel.agent.text', 'status', 'peer', 'integrator'],
        // the platform sent a field it did not: the platform's
        ['channel.agent.text', 'field', 'platform', undefined],
        // the platform answered the customer message 400: the platform's
        ['channel.customer.text', 'status', 'platform', undefined],
        // the customer side sent a field: the peer's
        ['channel.customer.text', 'field', 'peer', 'integrator'],
      ]),
    );
  });
});
