/**
 * A request body that is not JSON (src/http/body.ts): the 400 says why, and a form-encoded
 * body (what `requests.post(url, data=...)` sends) says how to send JSON instead.
 */
import { describe, expect, it } from 'vitest';
import { decodeJsonBody, parseJsonBody } from '../../../src/http/body.js';

const messageOf = (raw: string): string => {
  const result = parseJsonBody(raw, 'content-length', raw.length);
  return result.ok ? '' : result.message;
};

describe('parseJsonBody', () => {
  it('names a form-encoded body and the way to send JSON', () => {
    expect(messageOf('event=BOT_MESSAGE&id=a1&chat_id=3')).toMatch(
      /^the body is not valid JSON: .*; it is form-encoded \(key=value&...\): send the object as JSON with Content-Type: application\/json \(Python requests: json=..., not data=...\)$/,
    );
    expect(messageOf('message[text]=hi')).toContain('it is form-encoded');
  });

  it('keeps the parser message alone for other text', () => {
    expect(messageOf('{"event": "BOT_MESSAGE",')).not.toContain('form-encoded');
    expect(messageOf('hello world')).not.toContain('form-encoded');
    expect(parseJsonBody('{"a":1}', 'content-length', 7)).toMatchObject({
      ok: true,
      json: { a: 1 },
    });
  });
});

describe('decodeJsonBody', () => {
  const messageOfBytes = (bytes: Buffer): string => {
    const result = decodeJsonBody([bytes], bytes.length, 'content-length');
    return result.ok ? '' : result.message;
  };

  it('names the first byte that is not UTF-8, the text before it and the likely charset', () => {
    // what a Java bot posting through a string entity without a charset sends for "café"
    const latin1 = Buffer.from(
      '{"event":"BOT_MESSAGE","message":{"type":"TEXT","text":"caf\u00e9"}}',
      'latin1',
    );
    expect(messageOfBytes(latin1)).toBe(
      'the body is not valid UTF-8: byte 0xE9 at offset 59, after `...type":"TEXT","text":"caf` (JSON is UTF-8, RFC 8259 8.1); such a byte is most often text in ISO-8859-1 or Windows-1252: encode the body as UTF-8 (a Java StringEntity without a charset sends ISO-8859-1)',
    );
  });

  it('passes well-formed UTF-8 and finds a truncated or overlong sequence', () => {
    expect(decodeJsonBody([Buffer.from('{"t":"café ✓ 😀"}')], 21, 'none')).toMatchObject({
      ok: true,
      json: { t: 'café ✓ 😀' },
    });
    expect(messageOfBytes(Buffer.from([0x7b, 0x22, 0xe2, 0x9c]))).toMatch(
      /^the body is not valid UTF-8: byte 0xE2 at offset 2, after `\{"` /,
    );
    expect(messageOfBytes(Buffer.from([0x22, 0xc0, 0xaf, 0x22]))).toContain(
      'byte 0xC0 at offset 1',
    );
    expect(messageOfBytes(Buffer.from([0x22, 0xed, 0xa0, 0x80, 0x22]))).toContain(
      'byte 0xED at offset 1',
    );
  });
});
