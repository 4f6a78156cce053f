/** parseChannelUrl (src/conversation/conform/platform.ts): a channel URL's parts (spec 4.1). */
import { describe, expect, it } from 'vitest';
import { parseChannelUrl } from '../../../src/conversation/conform/platform.js';

describe('parseChannelUrl', () => {
  it('takes the last two segments, the rest of the path stays in the base', () => {
    expect(parseChannelUrl('http://127.0.0.1:8080/r4nd/shop')).toEqual({
      base: 'http://127.0.0.1:8080',
      randomString: 'r4nd',
      publicId: 'shop',
    });
    expect(parseChannelUrl('https://svc.example/api//v1/r4nd/shop/')).toEqual({
      base: 'https://svc.example/api/v1',
      randomString: 'r4nd',
      publicId: 'shop',
    });
  });

  it('refuses a URL without both segments', () => {
    for (const url of ['http://127.0.0.1:8080/', 'http://127.0.0.1:8080/shop'])
      expect(() => parseChannelUrl(url), url).toThrow(/random_string/);
  });
});
