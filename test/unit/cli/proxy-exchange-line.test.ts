/** The proxy's line for one exchange: what it adds for a 200 that is no reply and a redelivery off its schedule. */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatProxyExchange } from '../../../src/cli/render/proxy.js';
import type { ProxyExchangeEvent } from '../../../src/proxy/index.js';
import { checkAnswer } from '../../../src/proxy/check.js';
import { legsOf } from '../../../src/proxy/legs.js';

const plain = new Chalk({ level: 0 });
/** An agent message the integrator answered 200 through the proxy, accepted and valid. */
const exchange = (over: Partial<ProxyExchangeEvent>): ProxyExchangeEvent => ({
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
  accepted: true,
  requestIssues: [],
  answerIssues: [],
  verdict: { ok: true, errors: 0, warnings: 0 },
  forwarded: true,
  ...over,
});
/** The integrator answered 200 without `result`: not a reply the platform takes. */
const answered = (over: Partial<ProxyExchangeEvent>): ProxyExchangeEvent =>
  exchange({
    accepted: false,
    attempt: { attempt: 1, of: 3, message: 'm-1', gapMs: 0, expectedGapMs: 0 },
    answerIssues: [
      { path: 'result', rule: 'required', spec: '2.2', severity: 'error' },
    ] as ProxyExchangeEvent['answerIssues'],
    verdict: { ok: false, errors: 1, warnings: 0 },
    ...over,
  });
const redelivery = (attempt: ProxyExchangeEvent['attempt']): ProxyExchangeEvent =>
  exchange({
    ...(attempt ? { attempt } : {}),
    verdict: { ok: true, errors: 0, warnings: 1 },
  });

describe("a proxied integrator's 200 that is no reply", () => {
  it('says what the platform takes, as a non-200 answer does', () => {
    expect(formatProxyExchange(answered({}), plain)).toContain(
      'integrator: HTTP 200, but not a reply the platform takes: only {"result":"ok"} or {"error":{"code","message"}} ends the series, else it tries again (spec 2.2, 4.2, 8)',
    );
  });

  it('says nothing more for a valid reply that came too late', () => {
    const line = formatProxyExchange(answered({ slow: true, answerIssues: [] }), plain);
    expect(line).not.toContain('not a reply the platform takes');
  });
});

describe('a proxied redelivery far sooner than the schedule', () => {
  it('points at a platform started with another --time-scale than the proxy', () => {
    const line = formatProxyExchange(
      redelivery({
        attempt: 2,
        of: 3,
        message: 'm-1',
        gapMs: 294,
        expectedGapMs: 3000,
        departs: true,
      }),
      plain,
    );
    expect(line).toContain(
      "at +294 ms, expected +3.0 s (off the schedule of the spec: 10× sooner, as a platform started with a --time-scale 10× below the proxy's resends; give the proxy the platform's --time-scale)",
    );
  });

  it('says no more for a late redelivery, or one off a learned profile', () => {
    const late = formatProxyExchange(
      redelivery({
        attempt: 2,
        of: 3,
        message: 'm-1',
        gapMs: 4000,
        expectedGapMs: 3000,
        departs: true,
      }),
      plain,
    );
    expect(late).toContain('expected +3.0 s (off the schedule of the spec)');
    const profiled = formatProxyExchange(
      redelivery({
        attempt: 2,
        of: 3,
        message: 'm-1',
        gapMs: 1000,
        expectedGapMs: 5000,
        against: 'real',
        departs: true,
      }),
      plain,
    );
    expect(profiled).toContain('expected +5.0 s (off the schedule of profile real)');
  });
});

describe('a platform 404 through proxy channel (spec 4.1: no such channel)', () => {
  const platformLeg = legsOf('channel').find((leg) => leg.name === 'platform')!;
  const refused = (over: Partial<ProxyExchangeEvent>): ProxyExchangeEvent =>
    exchange({
      leg: 'platform',
      caller: 'integrator',
      answerer: 'platform',
      path: '/channel',
      upstream: 'http://127.0.0.1:8800',
      kind: 'channel.customer.text',
      status: 404,
      accepted: false,
      verdict: { ok: false, errors: 0, warnings: 0 },
      ...over,
    });

  it('says why, and that --platform-url takes the channel URL', () => {
    expect(formatProxyExchange(refused({}), plain)).toContain(
      '    platform: HTTP 404 at http://127.0.0.1:8800: no channel at this URL: its public id is unknown or its random string is wrong (spec 4.1); --platform-url takes the channel URL, {base_url}/<random_string>/<channel_public_id>',
    );
  });

  it('holds the body of a status 404 to nothing, and still a 500 to 0 or 1', () => {
    expect(checkAnswer(platformLeg, 'channel.status', 404, 'no channel').errors).toEqual([]);
    expect(checkAnswer(platformLeg, 'channel.status', 200, '1').errors).toEqual([]);
    expect(checkAnswer(platformLeg, 'channel.status', 500, 'oops').errors).not.toEqual([]);
  });
});

describe('proxy --quiet', () => {
  it('keeps the summary, and its --help says so (the other servers print none)', async () => {
    const { proxyOptions } = await import('../../../src/cli/commands/proxy-options.js');
    const { isEssential } = await import('../../../src/cli/render/output.js');
    const quiet = proxyOptions.options.find((o) => o.key === 'quiet');
    expect(quiet?.description).toContain('the summary when it stops');
    expect(quiet?.description).not.toContain('no summary');
    expect(isEssential({ type: 'summary' })).toBe(true);
  });
});

describe('an upstream the proxy could not reach', () => {
  it('is named on the line, as the answer body names it', () => {
    const { status: _answered, ...unanswered } = exchange({
      accepted: false,
      failure: { reason: 'refused', message: 'the upstream refused the connection' },
      verdict: { ok: false, errors: 0, warnings: 0 },
    });
    const line = formatProxyExchange(unanswered, plain);
    expect(line).toContain('    the upstream refused the connection (http://127.0.0.1:9000/shop)');
  });
});

describe("a series' first attempt", () => {
  const first = { attempt: 1, of: 2, gapMs: 0, expectedGapMs: 0 };
  it('says nothing when it was answered: no retry follows', () => {
    expect(formatProxyExchange(exchange({ attempt: first }), plain)).not.toContain('attempt');
  });

  it('says "attempt 1/2" when the platform will try again', () => {
    expect(formatProxyExchange(exchange({ attempt: first, status: 500 }), plain)).toContain(
      'attempt 1/2',
    );
    expect(
      formatProxyExchange(exchange({ attempt: first, slow: true, durationMs: 3100 }), plain),
    ).toContain('attempt 1/2');
  });
});
