/** `svc-cli trace`'s timeline at a terminal's width (src/cli/render/trace.ts). */
import { stripVTControlCharacters } from 'node:util';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import {
  conversationHeading,
  formatTimeline,
  formatViolation,
  spanEvent,
  WIDE_FROM,
} from '../../../src/cli/render/trace.js';
import type { TracedConversation } from '../../../src/trace/read.js';
import type { Violation } from '../../../src/trace/rules.js';
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
    const piped = formatTimeline(conversation, chalk);
    expect(piped).toHaveLength(2 + 3);
    expect(piped[4]).toMatch(
      /\+3\.000 s\s+\+3\.000 s\s+○◀─+●.*#3 agent\.text attempt 2 "Yes, me\." 500 rejected ← #2 \(recorded\)$/,
    );
    // a wide terminal: beside the lanes, what does not fit on the line below, under it
    const wide = formatTimeline(conversation, chalk, WIDE_FROM);
    for (const line of wide) expect(width(line)).toBeLessThanOrEqual(WIDE_FROM);
    expect(wide.slice(-2)).toEqual([
      expect.stringMatching(/\+3\.000 s\s+\+3\.000 s\s+○◀─+●.* {2}#3 agent\.text attempt 2 /),
      expect.stringMatching(/^ {85}\S.*← #2 \(recorded\)$/),
    ]);
  });

  it('fits 80 columns: narrower lanes, each exchange on the line below its lanes', () => {
    const lines = formatTimeline(conversation, chalk, 80);
    expect(lines).toHaveLength(2 + 2 * 3);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(80);
    expect(lines[1]).toMatch(/offset\s+gap\s+integrator platform\s+bot\s+hooks\s+widget$/);
    expect(lines[6]).toMatch(/^\s+\+3\.000 s\s+\+3\.000 s\s+○◀─+●\s+┆/);
    expect(lines[7]).toBe('    #3 agent.text attempt 2 "Yes, me." 500 rejected ← #2 (recorded)');
  });
  it('fits a 60-column terminal: narrower lanes still, a title that would touch one row down', () => {
    const lines = formatTimeline(conversation, chalk, 60);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(60);
    expect(lines.slice(1, 3)).toEqual([
      '     offset        gap  integrator      bot   hooks widget',
      '                              platform',
    ]);
    expect(lines[7]).toBe('   +3.000 s   +3.000 s     ○◀─────●      ┆      ┆      ┆');
    expect(lines[8]).toBe('    #3 agent.text attempt 2 "Yes, me." 500 rejected ← #2');
    expect(lines[9]).toBe('      (recorded)');
  });
});

describe('formatTimeline in a terminal narrower than its lines', () => {
  const long: TracedConversation = {
    ...conversation,
    spans: [
      ...conversation.spans,
      span(4, 6000, {
        attempt: 3,
        text: 'Checking now, one moment please while I look up your order.',
        status: 500,
        accepted: false,
        cause: 3,
        causeBy: 'record',
      }),
      span(5, 6000, {
        attempt: 1,
        text: 'Sorry to hear that.',
        status: 200,
        errorReply: 'recipient_blocked: The customer blocked the app',
        cause: 1,
        causeBy: 'inferred',
      }),
    ],
  };

  it('fits 80 columns: the quoted text cut with an ellipsis first, then broken at spaces', () => {
    const lines = formatTimeline(long, chalk, 80);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(80);
    expect(lines.slice(-5)).toEqual([
      expect.stringMatching(/^\s+\+6\.000 s\s+\+3\.000 s\s+○◀─+●/),
      '    #4 agent.text attempt 3 "Checking now, one …" 500 rejected ← #3 (recorded)',
      expect.stringMatching(/^\s+\+6\.000 s\s+○◀─+●/),
      '    #5 agent.text attempt 1 "Sorry to he…" 200 error reply (recipient_blocked:',
      '      The customer blocked the app) ← #1',
    ]);
  });

  it('fits a terminal a little wider than the wide layout: the rest under the exchange', () => {
    const lines = formatTimeline(long, chalk, 140);
    for (const line of lines) expect(width(line)).toBeLessThanOrEqual(140);
    const at = lines.findIndex((l) => l.includes('#5 agent.text'));
    expect(lines[at]).toMatch(
      /○◀─+●.* {2}#5 agent\.text attempt 1 "Sorry to he…" 200 error reply$/,
    );
    expect(lines[at + 1]).toBe(
      `${' '.repeat(85)}(recipient_blocked: The customer blocked the app) ← #1`,
    );
    // no room for more of the text: cut to its shortest, the rest goes below
    const cut = lines.findIndex((l) => l.includes('#4 agent.text'));
    expect(lines.slice(cut, cut + 2)).toEqual([
      expect.stringMatching(/#4 agent\.text attempt 3 "Checking no…" 500 rejected ←$/),
      `${' '.repeat(85)}#3 (recorded)`,
    ]);
  });

  it('keeps the whole text (to 40 characters) where there is room, and in a pipe', () => {
    for (const lines of [formatTimeline(long, chalk, 250), formatTimeline(long, chalk)])
      expect(lines.find((l) => l.includes('#4 agent.text'))).toContain(
        '"Checking now, one moment please while I…"',
      );
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

describe('spanEvent (trace --json)', () => {
  it('gives protocol ms to whole µs, not a float sum', () => {
    const s = span(2, 1000.1, { endMs: 1016.074 });
    const event = spanEvent(
      { ...conversation, spans: [span(1, 0.3, {}), s] },
      s,
      't',
      's',
      undefined,
    );
    expect(event).toMatchObject({ offsetMs: 999.8, startMs: 1000.1, durationMs: 15.974 });
  });
});

describe('a violation under the timeline', () => {
  const violation: Violation = {
    rule: 'redelivery-id',
    spec: '8',
    run: 'r1',
    chat: 1,
    message:
      '#4 agent.text attempt 2 at +3.000 s carries id c037bca4-0a6f-4d5e-9c1b-2f1e5a7d9b10-retry-2; the attempt before, #3 agent.text at +0.000 s, carried c037bca4-0a6f-4d5e-9c1b-2f1e5a7d9b10',
    exchanges: [3, 4],
  };

  it('fits 80 columns broken at spaces, as the exchanges are, under its rule name', () => {
    const lines = formatViolation(violation, new Chalk({ level: 1 }), 80);
    const plain = lines.map((l) => stripVTControlCharacters(l));
    for (const line of plain) expect(width(line)).toBeLessThanOrEqual(80);
    // every line red on its own, so no colour runs past a break
    const red = new Chalk({ level: 1 }).red;
    for (const [i, line] of lines.entries()) expect(line).toBe(red(plain[i] ?? ''));
    expect(plain).toEqual([
      '  ✗ redelivery-id (spec 8): #4 agent.text attempt 2 at +3.000 s carries id',
      '    c037bca4-0a6f-4d5e-9c1b-2f1e5a7d9b10-retry-2; the attempt before, #3',
      '    agent.text at +0.000 s, carried c037bca4-0a6f-4d5e-9c1b-2f1e5a7d9b10 [#3 and',
      '    #4]',
    ]);
  });

  it('stays one line in a pipe, for grep', () => {
    expect(formatViolation(violation, chalk)).toEqual([
      `  ✗ redelivery-id (spec 8): ${violation.message} [#3 and #4]`,
    ]);
  });
});
