/** A conversation named by what it did (mutate's report of a suite's recording). */
import { describe, expect, it } from 'vitest';
import { conversationGist } from '../../../src/trace/html.js';
import type { TracedConversation } from '../../../src/trace/read.js';
import type { TraceSpan } from '../../../src/trace/span.js';

const span = (seq: number, name: string, text?: string): TraceSpan => ({
  run: 'r1',
  seq,
  chat: 1,
  lane: 'integrator',
  iface: 'channel',
  direction: 'out',
  name,
  startMs: seq,
  endMs: seq + 1,
  wallStartMs: seq,
  path: '/shop',
  ...(text === undefined ? {} : { text }),
});
const conversation = (...spans: TraceSpan[]): TracedConversation => ({
  run: 'r1',
  chat: 1,
  dropped: 0,
  spans,
});

describe('conversationGist', () => {
  it('tells apart the chat 1 of each run by its exchanges and its last text', () => {
    const hello = span(1, 'customer.text', 'hello');
    expect(conversationGist(conversation(hello))).toBe('customer.text “hello”');
    expect(
      conversationGist(
        conversation(
          hello,
          span(2, 'agent.text', 'lost'),
          span(3, 'agent.text', 'lost'),
          span(4, 'agent.text', 'lost'),
        ),
      ),
    ).toBe('customer.text, agent.text ×3 “lost”');
    expect(
      conversationGist(conversation(hello, span(2, 'agent.text', 'Hi, how can I help?'))),
    ).toBe('customer.text, agent.text “Hi, how can I help?”');
  });

  it('cuts a long text and a long list', () => {
    const names = ['a', 'b', 'c', 'd', 'e'].map((n, i) => span(i + 1, n));
    expect(conversationGist(conversation(...names, span(6, 'f', 'x'.repeat(40))))).toBe(
      `a, b, c, d, … “${'x'.repeat(29)}…”`,
    );
  });
});
