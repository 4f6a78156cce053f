/** What send-* and status say of a URL that cannot be a channel URL (src/cli/channel-url.ts). */
import { describe, expect, it } from 'vitest';
import { checkChannelUrl } from '../../../src/cli/channel-url.js';

const messageOf = (url: string): string | undefined => {
  try {
    checkChannelUrl(url);
  } catch (error) {
    return (error as Error).message;
  }
  return undefined;
};

describe('checkChannelUrl', () => {
  it("takes a channel URL, with or without a path before it, and a proxy's", () => {
    expect(messageOf('http://127.0.0.1:8800/s3cr3t/shop')).toBeUndefined();
    expect(messageOf('http://127.0.0.1:8801/channel')).toBeUndefined();
    expect(messageOf('https://chat.example.com/base/s3cr3t/shop/')).toBeUndefined();
  });

  it("names the banner's status URL and a query, the secret masked", () => {
    expect(messageOf('http://127.0.0.1:8800/s3cr3t/shop/status')).toBe(
      "Could not use the channel URL http://127.0.0.1:8800/***/shop/status: it is the channel's status URL.",
    );
    expect(messageOf('http://127.0.0.1:8800/s3cr3t/shop?x=1')).toContain(
      'http://127.0.0.1:8800/***/shop?x=1: a channel URL has no query string',
    );
    for (const url of ['http://h/s3cr3t/shop/status', 'http://h/s3cr3t/shop?x=1'])
      expect(messageOf(url)).not.toContain('s3cr3t');
  });
  it("names the simulator's base URL, which names no channel", () => {
    for (const url of ['http://127.0.0.1:8500/', 'http://127.0.0.1:8500'])
      expect(messageOf(url)).toBe(
        'Could not use the channel URL http://127.0.0.1:8500/: it names no channel; expected {base_url}/<random_string>/<channel_public_id> (spec 4.1).',
      );
  });
});
