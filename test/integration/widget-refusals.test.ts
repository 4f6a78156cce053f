/**
 * The widget channel's refusals (/_sim/widget/...) as the core answers them, byte for byte:
 * status, the CORS headers the page needs to read them cross-origin, the body as sent, and the
 * journal record.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import type { BodyResult } from '../../src/http/body.js';
import { responseHeaders, responseText } from '../../src/platform/fetch-adapter.js';
import { createPlatform, type Platform } from '../../src/platform/index.js';

const platforms: Platform[] = [];
afterEach(async () => {
  await Promise.all(platforms.splice(0).map((p) => p.core.stop()));
});

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'content-type, last-event-id',
};

/** The wire answer of one request: status, headers, the body's text, the journal record. */
async function answerOf(method: string, target: string, body?: BodyResult) {
  const platform = createPlatform({ clock: createVirtualClock() });
  platforms.push(platform);
  const url = new URL(target, 'http://svc.local');
  const answer = await platform.core.handle({
    method,
    path: url.pathname,
    query: url.searchParams,
    headers: {},
    ...(body ? { body } : {}),
  });
  return {
    status: answer.status,
    headers: responseHeaders(answer),
    text: responseText(answer),
    record: answer.record,
  };
}

const json = (value: unknown): BodyResult => ({
  ok: true,
  raw: JSON.stringify(value),
  json: value,
  transfer: 'content-length',
  bytes: JSON.stringify(value).length,
});

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

describe('widget channel refusals (spec 4.5, 7)', () => {
  it('GET /_sim/widget/events: 404 for an unknown channel, 400 without a visitor', async () => {
    expect(await answerOf('GET', '/_sim/widget/events?visitor=v-1&channel=nope')).toEqual({
      status: 404,
      headers: { ...JSON_TYPE, ...CORS },
      text: '{"error":{"code":"not_found","message":"no widget channel has that id"}}',
      record: { iface: 'widget' },
    });
    expect(await answerOf('GET', '/_sim/widget/events')).toEqual({
      status: 400,
      headers: { ...JSON_TYPE, ...CORS },
      text: '{"error":{"code":"invalid_request","message":"give ?visitor=<visitor id>"}}',
      record: { iface: 'widget' },
    });
  });

  it("POST /_sim/widget/events: the transport's {ok:false, error} with 404 or 400", async () => {
    const event = json({ type: 'visitor_number', visitorId: 'v-1' });
    expect(await answerOf('POST', '/_sim/widget/events?channel=nope', event)).toEqual({
      status: 404,
      headers: { ...JSON_TYPE, ...CORS },
      text: '{"ok":false,"error":"no widget channel has that id"}',
      record: { iface: 'widget' },
    });
    const unread: BodyResult = {
      ok: false,
      status: 400,
      code: 'invalid_json',
      message: 'the body is not JSON',
      transfer: 'content-length',
    };
    expect(await answerOf('POST', '/_sim/widget/events', unread)).toEqual({
      status: 400,
      headers: { ...JSON_TYPE, ...CORS },
      text: '{"ok":false,"error":"the body is not JSON"}',
      record: { iface: 'widget' },
    });
    expect(await answerOf('POST', '/_sim/widget/events')).toMatchObject({
      status: 400,
      text: '{"ok":false,"error":"a JSON body is required"}',
    });
    const wrong = await answerOf('POST', '/_sim/widget/events', json({ type: 'nope' }));
    expect(wrong).toMatchObject({
      status: 400,
      headers: { ...JSON_TYPE, ...CORS },
      record: { iface: 'widget' },
    });
    expect(wrong.text).toMatch(/^\{"ok":false,"error":"[^"]+"\}$/);
  });

  it('any other /_sim/widget/ path: 404 with the CORS headers', async () => {
    expect(await answerOf('DELETE', '/_sim/widget/nope')).toEqual({
      status: 404,
      headers: { ...JSON_TYPE, ...CORS },
      text: '{"error":{"code":"not_found","message":"no widget endpoint DELETE /_sim/widget/nope"}}',
      record: { iface: 'widget' },
    });
  });
});
