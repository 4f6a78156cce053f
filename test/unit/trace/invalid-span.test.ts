/**
 * An exchange whose verdict failed (a page's callback that threw, a payload that broke the
 * contract) is drawn as failed wherever a trace is shown, as the console's journal marks it.
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { formatTimeline } from '../../../src/cli/render/trace.js';
import { reportSection } from '../../../src/trace/html.js';
import { linkConversation } from '../../../src/trace/links.js';
import { failedSpan, spanOf } from '../../../src/trace/span.js';

const threw: ExchangeRecord = {
  type: 'exchange',
  seq: 38,
  run: 'r1',
  at: '2026-11-30T22:00:00.000Z',
  protocolMs: 1200,
  iface: 'widget',
  direction: 'in',
  kind: 'widget.page.callback',
  chat: 3,
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:8800/_sim/widget/events',
    body: JSON.stringify({
      type: 'callback',
      name: 'svc_onAccept',
      eventId: 4,
      event: 'agent_accepted',
    }),
  },
  response: { status: 200 },
  verdict: { ok: false, errors: ['svc_onAccept threw: Error: boom in accept'], warnings: [] },
};

describe('an exchange whose verdict failed', () => {
  it('is a failed span carrying its first error', () => {
    const span = spanOf(threw);
    expect(span.invalid).toBe('svc_onAccept threw: Error: boom in accept');
    expect(failedSpan(span)).toBe(true);
    const { verdict: _verdict, ...valid } = threw;
    expect(failedSpan(spanOf(valid))).toBe(false);
  });

  it('is drawn red with its error in the HTML timeline and the text trace', () => {
    const conversation = {
      run: 'r1',
      chat: 3,
      spans: linkConversation([spanOf(threw)]),
      dropped: 0,
    };
    const html = reportSection(conversation, []);
    expect(html).toMatch(/<div class="x failed" id="[^"]*-38"/);
    expect(html).toContain(
      '<span class="bad">200 ✗ svc_onAccept threw: Error: boom in accept</span>',
    );
    const text = formatTimeline(conversation, new Chalk({ level: 0 })).join('\n');
    expect(text).toContain(
      '#38 page.callback svc_onAccept 200 ✗ svc_onAccept threw: Error: boom in accept',
    );
  });
});
