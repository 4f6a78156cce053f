/**
 * record to-fixture's `order` expectation never orders what one moment set off: the agent's
 * first message in a chat and the chat_accepted hook it causes (spec 3) are sent in one turn,
 * so a replay may see them either way round, however far apart their POSTs started in the
 * recording. Hand-built records, so the same moment is exact.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/journal.js';
import { orderOf } from '../../../src/conversation/record/order.js';
import { convertRecording } from '../../../src/conversation/record/to-fixture.js';

function recording() {
  let seq = 0;
  const base = (protocolMs: number) => ({
    type: 'exchange' as const,
    seq: ++seq,
    run: 'r1',
    at: new Date(0).toISOString(),
    protocolMs,
    chat: 1,
  });
  return {
    customer: (protocolMs: number): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'channel',
      direction: 'in',
      kind: 'channel.customer.text',
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8800/r4nd0m/shop',
        body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    }),
    /** an attempt journaled when its reply came: `protocolMs` is its end */
    agent: (protocolMs: number, durationMs: number, text = 'Let me check'): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'channel',
      direction: 'out',
      kind: 'channel.agent.text',
      attempt: 1,
      durationMs,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/agent-messages/shop',
        body: JSON.stringify({
          sender: { name: 'Alice Agent' },
          recipient: { id: 'c-1' },
          message: { type: 'text', text, id: `m-${seq}` },
        }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    }),
    hook: (protocolMs: number, durationMs: number, event_name: string): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'hook',
      direction: 'out',
      kind: `hook.${event_name}`,
      attempt: 1,
      durationMs,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8443/hooks',
        body: JSON.stringify({ event_name, chat_id: 1, agent: { id: 1, name: 'Alice Agent' } }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    }),
  };
}

const lastStep = (records: ExchangeRecord[]) => convertRecording({ records }).steps.at(-1);

describe('record to-fixture orders nothing one moment set off', () => {
  it('leaves the agent message out when it and chat_accepted came back in the same ms', () => {
    const r = recording();
    // both replies came at 5000: the slow receiver's hook POST started 1.4 s before the
    // message's, which a busy machine held back (one moment set both off)
    const records = [
      r.customer(1000),
      r.agent(5000, 10),
      r.hook(5000, 1400, 'chat_accepted'),
      r.hook(9000, 5, 'chat_finished'),
    ];
    expect(orderOf(records)).toEqual(['hook:chat_accepted', 'hook:chat_finished']);
    expect(lastStep(records)).toEqual({
      expect: { order: ['hook:chat_accepted', 'hook:chat_finished'] },
    });
  });

  it('leaves chat_accepted out when the message started first, whatever the gap', () => {
    const r = recording();
    const records = [
      r.customer(1000),
      r.agent(4010, 10),
      r.hook(5300, 10, 'chat_accepted'),
      r.hook(9000, 5, 'chat_finished'),
    ];
    expect(orderOf(records)).toEqual(['integrator:text', 'hook:chat_finished']);
  });

  it('keeps one of the two when both started in the same protocol ms', () => {
    const r = recording();
    const records = [
      r.customer(1000),
      r.hook(5000, 0, 'chat_accepted'),
      r.agent(5000, 0),
      r.hook(9000, 0, 'chat_finished'),
    ];
    expect(orderOf(records)).toEqual(['hook:chat_accepted', 'hook:chat_finished']);
  });

  it("still orders the agent's later messages against chat_accepted", () => {
    const r = recording();
    const records = [
      r.customer(1000),
      r.hook(4000, 0, 'chat_accepted'),
      r.agent(4000, 0, 'Hi'),
      {
        ...r.agent(7000, 0),
        kind: 'channel.agent.image',
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:9000/agent-messages/shop',
          body: JSON.stringify({ message: { type: 'image', url: 'https://x.example/a.png' } }),
        },
      },
    ];
    expect(orderOf(records)).toEqual(['hook:chat_accepted', 'integrator:image']);
  });
});
