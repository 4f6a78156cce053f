/** What starts a causal chain of its own in a trace: a customer's request, whatever came of it. */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { linkConversation } from '../../../src/trace/links.js';
import { spanOf } from '../../../src/trace/span.js';

const record = (seq: number, r: Omit<ExchangeRecord, 'type' | 'seq' | 'run' | 'at'>) =>
  spanOf({ type: 'exchange', seq, run: 'r', at: '2026-01-01T00:00:00.000Z', ...r });

describe('trace: roots', () => {
  it('a customer request the platform ignored (no kind) is caused by nothing before it', () => {
    const url = 'http://127.0.0.1:8800/s3cr3t/shop';
    const spans = linkConversation([
      record(1, {
        protocolMs: 0,
        iface: 'channel',
        direction: 'out',
        kind: 'channel.agent.typing',
        chat: 1,
        attempt: 1,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:9000/agent-messages/shop',
          body: '{"recipient":{"id":"c-5"},"message":{"type":"typeout"}}',
        },
        response: { status: 200, body: '{"result":"ok"}' },
      }),
      // spec 2.3: a type the channel does not know is ignored (200), recorded without a kind
      record(2, {
        protocolMs: 0,
        iface: 'channel',
        direction: 'in',
        chat: 1,
        request: {
          method: 'POST',
          url,
          body: '{"sender":{"id":"c-5"},"message":{"type":"typing"}}',
        },
        response: { status: 200, body: '{"result":"ok"}' },
        notes: ['ignored'],
      }),
    ]);
    expect(spans.find((s) => s.seq === 2)?.cause).toBeUndefined();
  });
});

describe('trace: what accepted a chat', () => {
  const url = 'http://127.0.0.1:8800/s3cr3t/shop';
  const customer = record(1, {
    protocolMs: 0,
    iface: 'channel',
    direction: 'in',
    kind: 'channel.customer.text',
    chat: 1,
    request: {
      method: 'POST',
      url,
      body: '{"sender":{"id":"c-5"},"message":{"type":"text","text":"human"}}',
    },
    response: { status: 200, body: '{"result":"ok"}' },
  });
  const invite = record(2, {
    protocolMs: 6200,
    iface: 'bot',
    direction: 'in',
    kind: 'bot.event.INVITE_AGENT',
    chat: 1,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8800/bot',
      body: '{"event":"INVITE_AGENT","chat_id":1}',
    },
    response: { status: 200, body: '{"result":"ok"}' },
  });
  const joined = record(3, {
    protocolMs: 6220,
    durationMs: 0,
    iface: 'bot',
    direction: 'out',
    kind: 'bot.event.AGENT_JOINED',
    chat: 1,
    attempt: 1,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9100/tok',
      body: '{"event":"AGENT_JOINED","chat_id":1}',
    },
    response: { status: 200, body: '{"result":"ok"}' },
  });
  const hook = (seq: number, at: number) =>
    record(seq, {
      protocolMs: at,
      durationMs: 0,
      iface: 'hook',
      direction: 'out',
      kind: 'hook.chat_accepted',
      chat: 1,
      attempt: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9200/hooks',
        body: '{"event_name":"chat_accepted","chat_id":1}',
      },
      response: { status: 200, body: '{"result":"ok"}' },
    });
  const reply = (seq: number, at: number) =>
    record(seq, {
      protocolMs: at,
      durationMs: 5,
      iface: 'channel',
      direction: 'out',
      kind: 'channel.agent.text',
      chat: 1,
      attempt: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/shop',
        body: '{"recipient":{"id":"c-5"},"message":{"type":"text","text":"Hello, Ann here","id":"m-1"}}',
      },
      response: { status: 200, body: '{"result":"ok"}' },
    });

  it('after a hand-over: AGENT_JOINED, not the agent message that came seconds later', () => {
    const spans = linkConversation([customer, invite, joined, hook(4, 6220), reply(5, 10_905)]);
    const accepted = spans.find((s) => s.seq === 4)!;
    expect(accepted.cause).toBe(3);
    // no span's cause starts after it
    const bySeq = new Map(spans.map((s) => [s.seq, s]));
    for (const s of spans)
      if (s.cause !== undefined) expect(bySeq.get(s.cause)!.startMs).toBeLessThanOrEqual(s.startMs);
  });

  it("without a bot: the agent's first message, sent in the same moment", () => {
    const spans = linkConversation([customer, reply(2, 4005), hook(3, 4000)]);
    expect(spans.find((s) => s.seq === 3)?.cause).toBe(2);
  });
});
