/** Who wrote a message delivered to the integrator: the bot's answers are named `bot.*`. */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { reportSection } from '../../../src/trace/html.js';
import { linkConversation } from '../../../src/trace/links.js';
import { spanOf } from '../../../src/trace/span.js';

const record = (seq: number, r: Omit<ExchangeRecord, 'type' | 'seq' | 'run' | 'at'>) =>
  spanOf({ type: 'exchange', seq, run: 'r', at: '2026-01-01T00:00:00.000Z', ...r });
const ok = { status: 200, body: '{"result":"ok"}' };

const customer = record(1, {
  protocolMs: 0,
  iface: 'channel',
  direction: 'in',
  kind: 'channel.customer.text',
  chat: 1,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8800/s3cr3t/shop',
    body: '{"sender":{"id":"c-5"},"message":{"type":"text","text":"menu"}}',
  },
  response: ok,
});
const asked = record(3, {
  protocolMs: 0,
  iface: 'bot',
  direction: 'out',
  kind: 'bot.event.CLIENT_MESSAGE',
  chat: 1,
  attempt: 1,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:9100/tok',
    body: '{"event":"CLIENT_MESSAGE","id":"e-1","chat_id":1,"message":{"type":"TEXT","text":"menu"}}',
  },
  response: ok,
});
const answered = record(2, {
  protocolMs: 0,
  iface: 'bot',
  direction: 'in',
  kind: 'bot.event.BOT_MESSAGE',
  chat: 1,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8800/bot',
    body: '{"event":"BOT_MESSAGE","chat_id":1,"message":{"type":"TEXT","text":"How can I help?"}}',
  },
  response: ok,
});
const delivered = (seq: number, at: number, attempt: number, text: string, cause?: number) =>
  record(seq, {
    protocolMs: at,
    iface: 'channel',
    direction: 'out',
    kind: 'channel.agent.text',
    chat: 1,
    attempt,
    ...(cause === undefined ? {} : { cause }),
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9000/shop',
      body: `{"recipient":{"id":"c-5"},"message":{"type":"text","text":"${text}","id":"m-${seq}"}}`,
    },
    response: attempt === 1 ? { status: 500, body: '' } : ok,
    notes: [attempt === 1 ? 'rejected' : 'accepted'],
  });

describe('trace: who wrote a message delivered to the integrator', () => {
  const spans = linkConversation([
    customer,
    answered,
    asked,
    delivered(4, 0, 1, 'How can I help?'),
    delivered(5, 3000, 2, 'How can I help?', 4),
    delivered(6, 9000, 1, 'Ann here, let me look.'),
  ]);
  const bySeq = new Map(spans.map((s) => [s.seq, s]));

  it("names the bot's answer and its redelivery bot.text; the contract kind stays", () => {
    expect(bySeq.get(4)).toMatchObject({ name: 'bot.text', kind: 'channel.agent.text', cause: 2 });
    expect(bySeq.get(5)).toMatchObject({ name: 'bot.text', kind: 'channel.agent.text', cause: 4 });
  });

  it("keeps agent.text for a message the bot did not send (the agent's)", () => {
    expect(bySeq.get(6)).toMatchObject({ name: 'agent.text', kind: 'channel.agent.text' });
  });

  it('the report and the console timeline (reportSection) show the same names', () => {
    const html = reportSection({ run: 'r', chat: 1, spans, dropped: 0 }, []);
    expect(html).toContain('<span class="seq">#4</span> bot.text attempt 1');
    expect(html).toContain('<span class="seq">#6</span> agent.text');
    expect(html).not.toContain('#4</span> agent.text');
  });
});
