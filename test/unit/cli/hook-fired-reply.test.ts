import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatHookFired, type HookFiredEvent } from '../../../src/cli/render/hook-events.js';

const plain = new Chalk({ level: 0 });

/** call_event at a PHP receiver whose library throws on it: php -S answers 500, no body */
const fired = (reply: unknown, status = 500): HookFiredEvent => ({
  type: 'hook-fired',
  event: 'call_event',
  url: 'http://127.0.0.1:9/hooks',
  request: { event_name: 'call_event' },
  requestVerdict: { ok: true, errors: [], warnings: [] },
  status,
  reply,
  latencyMs: 9,
  wallMs: 9,
  verdict: {
    ok: false,
    errors: [
      {
        path: '',
        code: 'http_status',
        rule: `HTTP ${status}; expected 200 with a JSON reply`,
        spec: '4.4',
        severity: 'error',
      },
    ],
    warnings: [],
  },
});

describe('hook-fire: the reply line', () => {
  it('says an empty reply is empty, not a blank after "reply"', () => {
    const lines = formatHookFired(fired(''), plain).split('\n');
    expect(lines[2]).toBe('    reply    (empty body)');
  });

  it('quotes a reply that has a body as it came', () => {
    const lines = formatHookFired(fired('{"error":"boom"}'), plain).split('\n');
    expect(lines[2]).toBe('    reply    {"error":"boom"}');
  });
});

describe('hook-fire: the request beside a 5xx', () => {
  it('prints the request the receiver answered 500 to, before its reply', () => {
    expect(formatHookFired(fired(''), plain)).toMatchInlineSnapshot(`
      "call_event                → 500  9ms     ✗ reply breaks the contract
          request  {"event_name":"call_event"}
          reply    (empty body)
          ✗ (root): HTTP 500; expected 200 with a JSON reply (spec 4.4)"
    `);
  });

  it('keeps the request out of a 4xx line without --verbose', () => {
    const text = formatHookFired(fired('', 404), plain);
    expect(text).not.toContain('request');
  });
});
