/**
 * The web console sends POST /_sim/agent/typing as the agent starts and stops typing; the
 * platform then sends the integrator a typein / typeout (spec 2.3). The timeline names that
 * request as the notice's cause, not the customer's message before it.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { linkConversation } from '../../../src/trace/links.js';
import { spanOf } from '../../../src/trace/span.js';

const BASE = 'http://127.0.0.1:8800';

function journal() {
  const records: ExchangeRecord[] = [];
  const add = (r: Omit<ExchangeRecord, 'type' | 'seq' | 'run' | 'at'>): number => {
    records.push({
      type: 'exchange',
      seq: records.length + 1,
      run: 'r',
      at: '2026-01-01T00:00:00.000Z',
      ...r,
    });
    return records.length;
  };
  const toIntegrator = (kind: string, message: object, at: number) =>
    add({
      protocolMs: at,
      iface: 'channel',
      direction: 'out',
      kind,
      attempt: 1,
      chat: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/agent-messages/shop',
        body: JSON.stringify({ sender: { name: 'Alice' }, recipient: { id: 'c-1' }, message }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
      durationMs: 5,
    });
  return {
    records,
    customer: (text: string, at: number) =>
      add({
        protocolMs: at,
        iface: 'channel',
        direction: 'in',
        kind: 'channel.customer.text',
        chat: 1,
        request: {
          method: 'POST',
          url: `${BASE}/***/shop`,
          body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text } }),
        },
        response: { status: 200, body: '{"result":"ok"}' },
      }),
    // journaled once answered, after the delivery it waited for: its record comes later,
    // stamped with the time it started
    control: (path: string, body: object, at: number, durationMs: number) =>
      add({
        protocolMs: at,
        iface: 'control',
        direction: 'in',
        request: { method: 'POST', url: `${BASE}${path}`, body: JSON.stringify(body) },
        response: { status: 200, body: '{}' },
        durationMs,
      }),
    typing: (type: 'typein' | 'typeout', at: number) =>
      toIntegrator('channel.agent.typing', { type, id: `t-${at}` }, at),
    text: (text: string, at: number) =>
      toIntegrator('channel.agent.text', { type: 'text', text, id: `m-${at}` }, at),
  };
}

describe('an agent typing notice sent through the control API', () => {
  it('is caused by its POST /_sim/agent/typing, as a message by its POST /_sim/agent/message', () => {
    const j = journal();
    const said = j.customer('Where is my parcel?', 0);
    const typein = j.typing('typein', 5_000);
    const startTyping = j.control('/_sim/agent/typing', { chatId: 1, typing: true }, 4_990, 20);
    const text = j.text('Checking now.', 5_100);
    const reply = j.control('/_sim/agent/message', { chatId: 1, text: 'Checking now.' }, 5_090, 30);
    const typeout = j.typing('typeout', 5_200);
    const stopTyping = j.control('/_sim/agent/typing', { chatId: 1, typing: false }, 5_190, 20);
    const spans = linkConversation(j.records.map(spanOf).filter((s) => s.chat === 1));
    const causeOf = (seq: number) => spans.find((s) => s.seq === seq)?.cause;
    expect(causeOf(typein)).toBe(startTyping);
    expect(causeOf(typeout)).toBe(stopTyping);
    expect(causeOf(text)).toBe(reply);
    expect(causeOf(startTyping)).toBeUndefined();
    expect(said).toBe(1);
  });

  it('without a control request (a replayed agent step) still follows the customer', () => {
    const j = journal();
    const said = j.customer('Hi', 0);
    const typein = j.typing('typein', 1_000);
    const spans = linkConversation(j.records.map(spanOf).filter((s) => s.chat === 1));
    expect(spans.find((s) => s.seq === typein)?.cause).toBe(said);
  });
});
