/**
 * An invalid optional field does not block a customer message. The
 * simulator delivers it without the bad field and reports the error with its path; only a
 * missing or empty required field means "not sent" (spec 2.1, 7.1).
 */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { formatPlatformEvent } from '../../src/cli/render/platform-events.js';
import { parsePath } from '../../src/platform/channel/customer-triage.js';
import { customerText, post, startPlatform } from '../helpers/platform.js';

const plain = new Chalk({ level: 0 });

async function platform(strict = true) {
  return startPlatform({ clock: createVirtualClock(), channels: [{ id: 'shop' }], strict });
}

describe('customer messages with contract errors', () => {
  it('delivers sender.photo " " without the photo and reports the error with its path', async () => {
    const { channelUrl, of, platform: p } = await platform();
    const answer = await post(
      channelUrl,
      customerText('c-1', 'Hello', { name: 'Ann', photo: ' ', email: null }),
    );
    expect(answer.status).toBe(200);
    expect(of('customer-message').map((m) => [m.customerId, m.text])).toEqual([['c-1', 'Hello']]);
    const customer = p.core.state.customers.get('shop/c-1')!;
    expect(customer.name).toBe('Ann');
    expect(customer.photo).toBeUndefined();
    expect(customer.email).toBeUndefined();
    const violation = of('violation')[0]!;
    expect(violation).toMatchObject({
      outcome: 'delivered',
      dropped: ['sender.photo', 'sender.email'],
      issues: [{ path: 'sender.photo', code: 'not_http_url', severity: 'error' }],
    });
    // The line starts with the time of day; the rest is pinned.
    const line = formatPlatformEvent({ ...violation, protocolMs: 0 }, plain)!;
    expect(line.replace(/^\d\d:\d\d:\d\d\.\d{3}/, 'hh:mm:ss.mmm')).toMatchInlineSnapshot(`
      "hh:mm:ss.mmm    0.000s  ✗ channel channel.customer.text delivered without sender.photo, sender.email
                   • sender.photo: must be an http(s) URL (spec 2.1)"
    `);
  });

  it('delivers a media message without an invalid optional thumb', async () => {
    const { channelUrl, of } = await platform();
    const photo = {
      sender: { id: 'c-2' },
      message: {
        type: 'photo',
        file: 'https://files.example.com/p.jpg',
        file_name: 'p.jpg',
        file_size: 2048,
        thumb: 'not a link',
      },
    };
    expect((await post(channelUrl, photo)).status).toBe(200);
    expect(of('customer-message')).toHaveLength(1);
    expect(of('violation')[0]).toMatchObject({ outcome: 'delivered', dropped: ['message.thumb'] });
  });

  it('delivers a value it can read (numeric-string file_size) and reports it as an error', async () => {
    const { channelUrl, of } = await platform();
    const photo = {
      sender: { id: 'c-3' },
      message: {
        type: 'photo',
        file: 'https://files.example.com/p.jpg',
        file_name: 'p.jpg',
        file_size: '48213',
      },
    };
    expect((await post(channelUrl, photo)).status).toBe(200);
    expect(of('customer-message')).toHaveLength(1);
    expect(of('violation')[0]).toMatchObject({
      outcome: 'delivered',
      issues: [{ path: 'message.file_size', code: 'type_drift', severity: 'error' }],
    });
  });

  it('does not send a message whose required field is missing or invalid', async () => {
    const { channelUrl, of } = await platform();
    const noFile = {
      sender: { id: 'c-4' },
      message: { type: 'photo', file: 'ftp://x', file_name: 'p.jpg', file_size: 1 },
    };
    const answer = await post(channelUrl, noFile);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body)).toContain('message.file');
    expect((await post(channelUrl, customerText('', 'x', { photo: ' ' }))).status).toBe(400);
    expect(of('customer-message')).toHaveLength(0);
    expect(of('violation').map((v) => v.outcome)).toEqual(['rejected', 'rejected']);
  });

  it('lenient: a blocked message is answered 200 and still not sent', async () => {
    const { channelUrl, of } = await platform(false);
    expect((await post(channelUrl, customerText('', 'x'))).status).toBe(200);
    expect(of('customer-message')).toHaveLength(0);
    expect(of('violation')[0]).toMatchObject({ outcome: 'not-delivered' });
  });

  it('reads the paths it removes', () => {
    expect(parsePath('sender.photo')).toEqual(['sender', 'photo']);
    expect(parsePath('message.buttons[2].text')).toEqual(['message', 'buttons', 2, 'text']);
    expect(parsePath('a["x y"]')).toEqual(['a', 'x y']);
  });
});
