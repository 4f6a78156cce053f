import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createExchangeRedactor,
  createRedactor,
  withKnownSecrets,
} from '../../../src/journal/redact.js';
import type { ExchangeInput } from '../../../src/journal/index.js';

const SECRET = 'r4nd0mStr1ng';
const redactor = () => withKnownSecrets(createRedactor([SECRET]));

// a small pool, so that the same headers (and the same values in new objects) come again
const headerValue = fc.constantFrom(
  'keep-alive',
  'application/json',
  '97',
  `/${SECRET}/x`,
  'Bearer abc',
  'access_token=abc&x=1',
  'a secret',
);
const headers = fc.dictionary(
  fc.constantFrom('host', 'connection', 'content-length', 'authorization', 'cookie', 'x-token'),
  headerValue,
  { maxKeys: 4 },
);
const exchange = fc.record({
  request: fc.record({
    method: fc.constant('POST'),
    url: fc.constantFrom('http://h/a', `http://h/${SECRET}/c`),
    headers,
  }),
  response: fc.record({ status: fc.constant(200), headers, body: fc.constant('{"result":"ok"}') }),
});

describe('createExchangeRedactor', () => {
  it('answers headers equal to the last ones as it would afresh, copies as it did', () => {
    fc.assert(
      fc.property(fc.array(exchange, { minLength: 1, maxLength: 20 }), (sequence) => {
        const remembering = createExchangeRedactor(redactor());
        for (const raw of sequence) {
          const given = structuredClone(raw) as unknown as ExchangeInput;
          const before = structuredClone(given);
          const got = remembering(given);
          // a fresh redactor has nothing to remember: the reference answer
          expect(got).toEqual(createExchangeRedactor(redactor())(structuredClone(given)));
          expect(given).toEqual(before); // the caller's exchange is never changed
          const changed = JSON.stringify(got) !== JSON.stringify(given);
          expect(got === given).toBe(!changed); // copied only when something changed
        }
      }),
      { numRuns: 300 },
    );
  });

  it('masks credentials headers, token fields and secrets in paths', () => {
    const redact = createExchangeRedactor(redactor());
    const input: ExchangeInput = {
      protocolMs: 0,
      iface: 'channel',
      direction: 'in',
      request: {
        method: 'POST',
        url: `http://h/${SECRET}/chan`,
        headers: { authorization: 'Bearer abc', host: 'h' },
        body: `{"access_token":"abc","id":"${SECRET}","u":"/${SECRET}/x"}`,
      },
    };
    for (let i = 0; i < 2; i++) {
      // the second time from memory
      const out = redact({
        ...input,
        request: { ...input.request, headers: { ...input.request.headers } },
      });
      expect(out.request).toEqual({
        method: 'POST',
        url: 'http://h/***/chan',
        headers: { authorization: 'Bearer ***', host: 'h' },
        body: `{"access_token":"***","id":"${SECRET}","u":"/***/x"}`,
      });
    }
  });

  it('refuses a URL or body that is not a string, however often it comes', () => {
    const redact = createExchangeRedactor(redactor());
    const given = (url: unknown, body?: unknown) =>
      ({
        protocolMs: 0,
        iface: 'channel',
        direction: 'in',
        request: { method: 'POST', url },
        response: { status: 200, body },
      }) as unknown as ExchangeInput;
    for (let i = 0; i < 2; i++) {
      expect(() => redact(given(undefined))).toThrow(TypeError);
      expect(() => redact(given('http://h/a', 5))).toThrow(TypeError);
    }
  });
});
