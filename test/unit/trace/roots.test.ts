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
