import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatProxyExchange } from '../../../src/cli/render/proxy.js';
import type { ProxyExchangeEvent } from '../../../src/proxy/index.js';

const plain = new Chalk({ level: 0 });
const answered = (over: Partial<ProxyExchangeEvent>): ProxyExchangeEvent => ({
  type: 'exchange',
  at: '2026-01-01T00:00:00.000Z',
  protocolMs: 0,
  leg: 'integrator',
  caller: 'platform',
  answerer: 'integrator',
  method: 'POST',
  path: '/integrator/shop',
  upstream: 'http://127.0.0.1:9000/shop',
  kind: 'channel.agent.text',
  status: 200,
  durationMs: 5,
  slow: false,
  accepted: false,
  attempt: { attempt: 1, of: 3, message: 'm-1', gapMs: 0, expectedGapMs: 0 },
  requestIssues: [],
  answerIssues: [
    { path: 'result', rule: 'required', spec: '2.2', severity: 'error' },
  ] as ProxyExchangeEvent['answerIssues'],
  verdict: { ok: false, errors: 1, warnings: 0 },
  forwarded: true,
  ...over,
});

describe("a proxied integrator's 200 that is no reply", () => {
  it('says what the platform takes, as a non-200 answer does', () => {
    expect(formatProxyExchange(answered({}), plain)).toContain(
      'integrator: HTTP 200, but not a reply the platform takes: only {"result":"ok"} or {"error":{"code","message"}} ends the series, else it tries again (spec 2.2, 8)',
    );
  });

  it('says nothing more for a valid reply that came too late', () => {
    const line = formatProxyExchange(answered({ slow: true, answerIssues: [] }), plain);
    expect(line).not.toContain('not a reply the platform takes');
  });
});
