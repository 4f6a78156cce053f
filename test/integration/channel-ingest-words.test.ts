/**
 * spec 4: every body is JSON. A customer message posted as text/plain or form-encoded (a client
 * that forgot the header) is taken, as its body is JSON, with a `content_type` warning: the
 * simulator used to take it silently, where a stricter platform may not. A refused message
 * names the fields it carried under another name.
 */
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { customerText, startPlatform } from '../helpers/platform.js';

describe('a customer message with another Content-Type (spec 4)', () => {
  it('is taken with a content_type warning; JSON types pass quietly', async () => {
    const harness = await startPlatform({
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'dev-only-secret-1234' }],
    });
    const send = async (id: string, contentType: string | undefined) => {
      const response = await fetch(harness.channelUrl, {
        method: 'POST',
        headers: contentType === undefined ? {} : { 'content-type': contentType },
        body: JSON.stringify(customerText(id, 'hi')),
      });
      return response.status;
    };
    expect(await send('c-1', 'application/json')).toBe(200);
    expect(await send('c-2', 'application/json; charset=utf-8')).toBe(200);
    expect(await send('c-3', 'application/vnd.shop+json')).toBe(200);
    expect(harness.of('violation')).toEqual([]);
    expect(await send('c-4', 'text/plain')).toBe(200);
    expect(await send('c-5', 'application/x-www-form-urlencoded')).toBe(200);
    const warned = harness.of('violation');
    expect(warned).toMatchObject([
      { outcome: 'warned', issues: [{ code: 'content_type', spec: '4', severity: 'warning' }] },
      { outcome: 'warned', issues: [{ code: 'content_type', spec: '4' }] },
    ]);
    expect(warned[0]?.issues[0]?.rule).toBe(
      'is "text/plain"; the channel takes JSON bodies (accepted, as the body is JSON)',
    );
    // taken all the same: five chats
    expect(harness.platform.core.state.chats.size).toBe(5);
  });
});

describe('a refused customer message (spec 2.1, 7.1)', () => {
  it('names the fields sent under another name beside the missing ones', async () => {
    const harness = await startPlatform({
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'dev-only-secret-1234' }],
    });
    const response = await fetch(harness.channelUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sendr: { id: 'c-1' }, message: { type: 'text', txt: 'hi' } }),
    });
    expect(response.status).toBe(400);
    const { error } = (await response.json()) as { error: { message: string } };
    expect(error.message).toBe(
      'sender: required (spec 2.1); message.text: required when type is "text" (spec 2.1); sent but not in the spec: message.txt (did you mean text?), sendr (did you mean sender?)',
    );
    // the platform's own line says them too
    const [violation] = harness.of('violation');
    expect(violation?.issues.map((i) => i.code)).toEqual([
      'required',
      'required',
      'unknown_field',
      'unknown_field',
    ]);
    expect(violation?.issues[3]?.rule).toContain('did you mean sender?');
  });
});
