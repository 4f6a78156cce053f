/**
 * A request body that is not JSON (src/http/body.ts): the 400 says why, and a form-encoded
 * body (what `requests.post(url, data=...)` sends) says how to send JSON instead.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../../src/http/body.js';

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
