/** `svc-cli trace`'s timeline at a terminal's width (src/cli/render/trace.ts). */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { conversationHeading, formatTimeline, WIDE_FROM } from '../../../src/cli/render/trace.js';
import type { TracedConversation } from '../../../src/trace/read.js';
import type { TraceSpan } from '../../../src/trace/span.js';

const span = (seq: number, at: number, more: Partial<TraceSpan>): TraceSpan => ({
  run: 'r1',
  seq,
  chat: 1,
  lane: 'integrator',
  iface: 'channel',
  direction: 'out',
  name: 'agent.text',
  startMs: at,
  endMs: at + 1,
  wallStartMs: at,
  path: '/shop',
  ...more,
});

const conversation: TracedConversation = {
  run: 'r1',
  chat: 1,
  dropped: 0,
  spans: [
    span(1, 0, { direction: 'in', name: 'customer.text', text: 'Anyone there?', status: 200 }),
    span(2, 0, {
      attempt: 1,
      text: 'Yes, me.',
      status: 500,
      accepted: false,
      cause: 1,
      causeBy: 'inferred',
    }),
    span(3, 3000, {
      attempt: 2,
      text: 'Yes, me.',
      status: 500,
      accepted: false,
      cause: 2,
      causeBy: 'record',
    }),
  ],
};
const chalk = new Chalk({ level: 0 });
const width = (line: string): number => [...line].length;

describe('formatTimeline', () => {
  it('puts each exchange beside its lanes on a wide terminal or none (a pipe)', () => {
    for (const lines of [
      formatTimeline(conversation, chalk),
      formatTimeline(conversation, chalk, WIDE_FROM),
    ]) {
      expect(lines).toHaveLength(2 + 3);
      expect(lines[4]).toMatch(
        /\+3\.000 s\s+\+3\.000 s\s+○◀─+●.*#3 agent\.text attempt 2 "Yes, me\." 500 rejected ← #2 \(recorded\)$/,
      );
    }
  });

  it('fits 80 columns: narrower lanes, each exchange on the line below its lanes', () => {
    const lines = formatTimeline(conversation, chalk, 80);
    expect(lines).toHaveLength(2 + 2 * 3);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/offset\s+gap\s+integrator platform\s+bot\s+hooks\s+widget$/);
    expect(lines[6]).toMatch(/^\s+\+3\.000 s\s+\+3\.000 s\s+○◀─+●\s+┆/);
    expect(lines[7]).toBe('    #3 agent.text attempt 2 "Yes, me." 500 rejected ← #2 (recorded)');
  });
});

describe('conversationHeading', () => {
  it('counts the exchanges with the noun in the singular for one', () => {
    expect(conversationHeading({ ...conversation, spans: conversation.spans.slice(0, 1) })).toBe(
      'chat 1 · run r1 · 1 exchange over 0.001 s',
    );
    expect(conversationHeading(conversation)).toBe('chat 1 · run r1 · 3 exchanges over 3.001 s');
  });
});
