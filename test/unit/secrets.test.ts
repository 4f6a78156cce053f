import fc from 'fast-check';
/** Secrets and hostile input: journal redaction, constant-time compares, --set paths. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { secretEquals } from '../../src/http/secret.js';
import { createJournal, createRedactor } from '../../src/journal/index.js';
import { parseSetFlag, setPath } from '../../src/roles/hooks/set-path.js';

const exchange = {
  protocolMs: 0,
  iface: 'bot' as const,
  direction: 'in' as const,
  request: {
    method: 'POST',
    url: '/oauth/token',
    headers: { authorization: 'Bearer abc.def', cookie: 'sid=1' },
    body: 'grant_type=client_credentials&client_id=c&client_secret=s3cr3t',
  },
  response: { status: 200, body: '{"access_token":"tok-123","token_type":"Bearer"}' },
};

describe('journal redaction', () => {
  it('masks Authorization, Cookie, access_token and client_secret by default', () => {
    const journal = createJournal();
    journal.record(exchange);
    const text = JSON.stringify(journal.entries());
    for (const secret of ['abc.def', 'sid=1', 's3cr3t', 'tok-123'])
      expect(text).not.toContain(secret);
    expect(text).toContain('Bearer ***');
  });
  it("masks a copy: the caller's request, headers and response keep what was sent", () => {
    const journal = createJournal();
    const input = structuredClone(exchange);
    journal.record(input);
    expect(journal.entries()[0]!.request.headers!.authorization).toBe('Bearer ***');
    expect(input).toEqual(exchange);
  });
  it('masks a token in URLs and paths, not a body value that equals it by chance', () => {
    const journal = createJournal({ redact: createRedactor(['acme-bot']) });
    journal.record({
      ...exchange,
      request: {
        method: 'POST',
        url: '/webhooks/acme/acme-bot',
        body: '{"id":"acme-bot","client_id":"c","note":"see http://x/webhooks/acme/acme-bot"}',
      },
      response: { status: 200, body: '{"url":"/webhooks/acme/acme-bot","name":"acme-bot"}' },
    });
    const [entry] = journal.entries();
    expect(entry?.request.url).toBe('/webhooks/acme/***');
    expect(entry?.request.body).toBe(
      '{"id":"acme-bot","client_id":"c","note":"see http://x/webhooks/acme/***"}',
    );
    expect(entry?.response?.body).toBe('{"url":"/webhooks/acme/***","name":"acme-bot"}');
  });
  it('masks the same string the same way each time, in a body and elsewhere alike', () => {
    const redact = createRedactor(['t0k3n-x', 'other-secret']);
    const asked: [string, 'body' | undefined, string][] = [
      ['/bot/t0k3n-x', undefined, '/bot/***'],
      ['/bot/t0k3n-x', undefined, '/bot/***'],
      ['t0k3n-x said', 'body', 't0k3n-x said'],
      ['t0k3n-x said', undefined, '*** said'],
      ['t0k3n-x said', 'body', 't0k3n-x said'],
      ['/bot/t0k3n-x', 'body', '/bot/***'],
      ['/x/other-secret', undefined, '/x/***'],
      ['/bot/t0k3n-x', undefined, '/bot/***'],
      ['no secret', undefined, 'no secret'],
    ];
    for (const [text, where, masked] of asked) expect(redact(text, where)).toBe(masked);
  });
  it('keeps them with showSecrets (--show-secrets)', () => {
    const journal = createJournal({ showSecrets: true });
    journal.record(exchange);
    const text = JSON.stringify(journal.entries());
    for (const secret of ['abc.def', 's3cr3t', 'tok-123']) expect(text).toContain(secret);
  });
});

describe('secretEquals', () => {
  it('compares by value, any length', () => {
    expect(secretEquals('abc', 'abc')).toBe(true);
    expect(secretEquals('abc', 'abd')).toBe(false);
    expect(secretEquals('abc', 'abcd')).toBe(false);
    expect(secretEquals('', '')).toBe(true);
    expect(secretEquals('', 'a')).toBe(false);
    expect(secretEquals('a', '')).toBe(false);
    expect(secretEquals('abcd', 'abc')).toBe(false);
    expect(secretEquals('Zürich-é', 'Zürich-é')).toBe(true);
    expect(secretEquals('Zürich-e', 'Zürich-é')).toBe(false);
    expect(secretEquals('\u0000', '')).toBe(false);
    expect(secretEquals('\u0000\u0000', '\u0000')).toBe(false);
  });
  it('answers as a comparison of the UTF-8 bytes, call after call (its buffers are reused)', () => {
    // a small pool: the same secrets come again, with strings of their length and others
    const text = fc.oneof(
      fc.constantFrom('', 'a', 'abc', 'abd', 'é', 'ab', '\ud800', '\ufffd', '😀', 'Zürich'),
      fc.string({ unit: 'binary', maxLength: 6 }),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(text, text), { maxLength: 60 }), (pairs) => {
        for (const [given, expected] of pairs)
          expect(secretEquals(given, expected)).toBe(
            Buffer.from(given).equals(Buffer.from(expected)),
          );
      }),
      { numRuns: 300 },
    );
  });
  it('is the only way src compares secrets (no timingSafeEqual elsewhere)', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (full.endsWith('.ts')) files.push(full);
      }
    };
    walk(path.resolve(import.meta.dirname, '../../src'));
    const users = files.filter((f) => readFileSync(f, 'utf8').includes('timingSafeEqual'));
    expect(users.map((f) => path.basename(f))).toEqual(['secret.ts']);
  });
});

describe('prototype pollution', () => {
  it('refuses __proto__, constructor and prototype in --set paths', () => {
    for (const key of ['__proto__.x=1', 'a.constructor.prototype.x=1', 'a[0].__proto__=1'])
      expect(() => parseSetFlag(key)).toThrow(
        expect.objectContaining({ code: 'SVC_E_SET_FORBIDDEN_KEY' }),
      );
    expect(() => setPath({}, ['__proto__', 'polluted'], 1)).toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('JSON input with a __proto__ key stays an own property', () => {
    const body = JSON.parse('{"__proto__":{"polluted":1},"a":1}') as Record<string, unknown>;
    const copy = setPath({ ...body }, ['b'], 2);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
  });
});
