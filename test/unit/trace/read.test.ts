import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { linkConversation } from '../../../src/trace/links.js';
import { readTrace, type TracedConversation } from '../../../src/trace/read.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

let seq = 0;
function record(
  chat: number | undefined,
  body: unknown,
  extra: Partial<ExchangeRecord> = {},
): string {
  seq++;
  const r: ExchangeRecord = {
    type: 'exchange',
    seq,
    run: 'r1',
    at: new Date(1_700_000_000_000 + seq).toISOString(),
    protocolMs: seq,
    iface: 'channel',
    direction: 'in',
    kind: 'channel.customer.text',
    ...(chat === undefined ? {} : { chat }),
    request: { method: 'POST', url: 'http://p.test/ch', body: JSON.stringify(body) },
    response: { status: 200, body: '{"result":"ok"}' },
    ...extra,
  };
  return JSON.stringify(r);
}

function write(lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-trace-read-'));
  dirs.push(dir);
  const file = join(dir, 'j.ndjson');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

const text = (id: string, t: string) => ({ sender: { id }, message: { type: 'text', text: t } });

describe('readTrace', () => {
  it('hands a finished chat out before the input ends, and the rest at the end', async () => {
    seq = 0;
    const lines = [record(2, text('b', 'first of chat 2'))];
    lines.push(record(1, text('a', 'hello')));
    lines.push(
      record(
        1,
        { event_name: 'chat_finished', chat_id: 1, chat: { messages: [] } },
        {
          iface: 'hook',
          direction: 'out',
          kind: 'hook.chat_finished',
          attempt: 1,
        },
      ),
    );
    for (let i = 0; i < 600; i++) lines.push(record(2, text('b', `more ${i}`)));
    lines.push('not json', '{"type":"other"}');
    const order: TracedConversation[] = [];
    const summary = await readTrace({
      file: write(lines),
      onConversation: (c) => void order.push(c),
      limits: { settleRecords: 2 },
    });
    expect(order.map((c) => [c.chat, c.spans.length])).toEqual([
      [1, 2],
      [2, 601],
    ]);
    expect(summary).toEqual({
      records: 603,
      conversations: 2,
      outside: 0,
      skipped: 2,
      firstSkipped: 604,
      // the chat ids in the order the file first names them, for a --chat that matched none
      chats: [2, 1],
    });
  });

  it('keeps at most maxSpans per conversation and counts the rest', async () => {
    seq = 0;
    const lines = Array.from({ length: 10 }, (_, i) => record(1, text('a', `m${i}`)));
    const got: TracedConversation[] = [];
    await readTrace({
      file: write(lines),
      onConversation: (c) => void got.push(c),
      limits: { maxSpans: 4 },
    });
    expect(got.map((c) => [c.spans.length, c.dropped])).toEqual([[4, 6]]);
  });

  it('puts a record without a chat in its customer chat, and only one chat with --chat', async () => {
    seq = 0;
    const lines = [
      record(1, text('a', 'hi')),
      record(2, text('b', 'hi')),
      // an agent message recorded by another recorder: no chat, the recipient names it
      record(
        undefined,
        { recipient: { id: 'b' }, message: { type: 'text', text: 'yes', id: 'm1' } },
        {
          direction: 'out',
          kind: 'channel.agent.text',
          attempt: 1,
        },
      ),
    ];
    const got: TracedConversation[] = [];
    await readTrace({ file: write(lines), chat: 2, onConversation: (c) => void got.push(c) });
    expect(got.map((c) => [c.chat, c.spans.map((s) => s.name)])).toEqual([
      [2, ['customer.text', 'agent.text']],
    ]);
    expect(got[0]!.spans[1]!.cause).toBe(2);
  });

  it('keeps a client_id apart from a sender.id of the same digits: each names its own chat', async () => {
    seq = 0;
    const bot = { iface: 'bot', direction: 'out', kind: 'bot.event.CLIENT_MESSAGE' } as const;
    const lines = [
      // the platform's client "7" in chat 2; then the integrator's customer "7" in chat 1
      record(2, { event: 'CLIENT_MESSAGE', id: 'e1', client_id: '7', chat_id: '2' }, bot),
      record(1, text('7', 'hi')),
      // a proxy recording's BOT_MESSAGE names neither chat nor sender: its client's chat
      record(
        undefined,
        { event: 'BOT_MESSAGE', id: 'b1', client_id: '7' },
        { ...bot, direction: 'in', kind: 'bot.event.BOT_MESSAGE' },
      ),
    ];
    const got: TracedConversation[] = [];
    await readTrace({ file: write(lines), onConversation: (c) => void got.push(c) });
    expect(
      got
        .map((c) => [c.chat, c.spans.map((s) => s.name)])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [1, ['customer.text']],
      [2, ['CLIENT_MESSAGE', 'BOT_MESSAGE']],
    ]);
  });
});

/** A record line without its `kind`. */
const withoutKind = (line: string): string => {
  const { kind: _, ...rest } = JSON.parse(line) as Record<string, unknown>;
  return JSON.stringify(rest);
};

describe("the agent's control request", () => {
  it('joins the chat of the customer it names, and is the cause of the message it sent', async () => {
    seq = 0;
    const lines = [
      record(1, text('c1', 'hi')),
      // delivered while the control request waited for the verdict: journaled first
      record(
        1,
        {
          sender: { name: 'Alice' },
          recipient: { id: 'c1' },
          message: { type: 'text', text: 'Hello' },
        },
        { direction: 'out', kind: 'channel.agent.text', attempt: 1, protocolMs: 12 },
      ),
      // a control request's record has no kind
      withoutKind(
        record(
          undefined,
          { customerId: 'c1', text: 'Hello' },
          {
            iface: 'control',
            protocolMs: 10,
            request: {
              method: 'POST',
              url: 'http://p.test/_sim/agent/message',
              body: JSON.stringify({ customerId: 'c1', text: 'Hello' }),
            },
          },
        ),
      ),
    ];
    const got: TracedConversation[] = [];
    const summary = await readTrace({
      file: write(lines),
      onConversation: (c) => void got.push(c),
    });
    expect(summary.outside).toBe(0);
    const spans = linkConversation(got[0]!.spans);
    const agent = spans.find((s) => s.seq === 2);
    expect(agent).toMatchObject({ cause: 3, causeBy: 'inferred' });
    // drawn in the order they started: the request, then the delivery it waited for
    expect(spans.map((s) => s.seq)).toEqual([1, 3, 2]);
  });
  it("opens a chat for each customer of a proxy's recording, which has no chat ids", async () => {
    // a proxy between real parties never learns the platform's chat ids: its records carry
    // the customer only, and each customer's messages are one conversation
    seq = 0;
    const agent = (id: string, t: string) => ({
      recipient: { id },
      message: { type: 'text', text: t },
    });
    const notes = ['proxy', 'leg:platform'];
    const lines = [
      record(undefined, text('c-1', 'Where is my order?'), { notes }),
      record(undefined, text('c-2', 'Hello'), { notes }),
      record(undefined, agent('c-1', 'It ships today'), {
        direction: 'out',
        kind: 'channel.agent.text',
        notes: ['proxy', 'leg:integrator'],
      }),
      // the simulator's own refused first message has no chat: it stays outside
      record(undefined, text('c-3', ''), { run: 'r2', response: { status: 400 } }),
    ];
    const got: TracedConversation[] = [];
    const summary = await readTrace({
      file: write(lines),
      onConversation: (c) => void got.push(c),
    });
    expect(summary.outside).toBe(1);
    expect(got.map((c) => [c.chat, c.spans.map((s) => s.seq)])).toEqual([
      [1, [1, 3]],
      [2, [2]],
    ]);
  });
  it("opens a chat for each customer of listen's recording, the messages drawn as sent", async () => {
    // listen records the agent messages it received (direction in) with no chat id: the
    // platform's chat is unknown there, so each recipient's messages are one conversation
    seq = 0;
    const agent = (id: string, t: string, mid: string) => ({
      recipient: { id },
      message: { type: 'text', text: t, id: mid },
    });
    const received = (attempt: number): Partial<ExchangeRecord> => ({
      kind: 'channel.agent.text',
      attempt,
      notes: ['transfer: content-length'],
    });
    const lines = [
      record(undefined, agent('c-1', 'It ships today', 'm1'), {
        ...received(1),
        response: { status: 500 },
      }),
      record(undefined, agent('c-2', 'Hello', 'm2'), received(1)),
      record(undefined, agent('c-1', 'It ships today', 'm1'), received(2)),
      // a POST the listener refused before reading it names no customer: outside any chat
      record(undefined, {}, { response: { status: 404 } }),
    ];
    const got: TracedConversation[] = [];
    const summary = await readTrace({
      file: write(lines),
      onConversation: (c) => void got.push(c),
    });
    expect(summary.outside).toBe(1);
    expect(got.map((c) => [c.chat, c.spans.map((s) => s.seq)])).toEqual([
      [1, [1, 3]],
      [2, [2]],
    ]);
    const [first, retry] = got[0]?.spans ?? [];
    // drawn from the platform to the integrator, the second attempt linked to the first
    expect(first?.direction).toBe('out');
    expect(retry).toMatchObject({ direction: 'out', cause: 1 });
  });
  it('hands out the conversations left at the end in the order the file began them', async () => {
    // two runs in one file (replay --record runs conversations side by side): each numbers
    // its records from 1, so a seq says nothing of where a conversation began in the file
    seq = 40;
    const lines = [record(1, text('a', 'run 1 first'))];
    seq = 0;
    lines.push(record(1, text('b', 'run 2 first'), { run: 'r2' }));
    seq = 41;
    lines.push(record(2, text('c', 'run 1, chat 2')));
    const order: string[] = [];
    await readTrace({
      file: write(lines),
      onConversation: (c) => void order.push(`${c.run}/${c.chat}`),
    });
    expect(order).toEqual(['r1/1', 'r2/1', 'r1/2']);
  });
});
