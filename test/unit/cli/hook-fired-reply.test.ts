import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatHookFired, type HookFiredEvent } from '../../../src/cli/render/hook-events.js';

const plain = new Chalk({ level: 0 });

/** call_event at a PHP receiver whose library throws on it: php -S answers 500, no body */
const fired = (reply: unknown): HookFiredEvent => ({
  type: 'hook-fired',
  event: 'call_event',
  url: 'http://127.0.0.1:9/hooks',
  request: { event_name: 'call_event' },
  requestVerdict: { ok: true, errors: [], warnings: [] },
  status: 500,
  reply,
  latencyMs: 9,
  wallMs: 9,
  verdict: {
    ok: false,
    errors: [
      {
        path: '',
        code: 'http_status',
        rule: 'HTTP 500; expected 200 with a JSON reply',
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
    expect(lines[1]).toBe('    reply    (empty body)');
  });

  it('quotes a reply that has a body as it came', () => {
    const lines = formatHookFired(fired('{"error":"boom"}'), plain).split('\n');
    expect(lines[1]).toBe('    reply    {"error":"boom"}');
  });
});
