import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { recordText } from '../../../src/journal/journal.js';
import type { ExchangeInput } from '../../../src/journal/index.js';

/** What the journal wrote before: the record object, then JSON.stringify. */
const asBefore = (seq: number, run: string, at: string, input: ExchangeInput): string =>
  JSON.stringify({ type: 'exchange', seq, run, at, ...input });

// strings a record carries: any unicode (escapes, quotes, emoji, lone surrogates)
const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string(),
  fc.constantFrom('', '"', '\\', '\n', '\u0001', '😀', '\ud800', '{"result":"ok"}'),
);
const number = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.constantFrom(0, -0, Number.NaN, Infinity, -Infinity, 155.35011300000002),
);
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.option(arb, { nil: undefined });
const headers = fc.dictionary(fc.string(), text, { maxKeys: 6 });
const input = fc.record(
  {
    protocolMs: number,
    iface: fc.constantFrom('channel', 'bot', 'hook', 'widget', 'control'),
    direction: fc.constantFrom('in', 'out'),
    kind: maybe(text),
    attempt: maybe(fc.integer()),
    chat: maybe(fc.integer()),
    request: fc.record(
      { method: text, url: text, headers: maybe(headers), body: maybe(text) },
      { requiredKeys: ['method', 'url'] },
    ),
    response: fc.record(
      { status: fc.integer(), headers: maybe(headers), body: maybe(text) },
      { requiredKeys: ['status'] },
    ),
    durationMs: number,
    wallMs: number,
    verdict: fc.record({ ok: fc.boolean(), errors: fc.array(text), warnings: fc.array(text) }),
    fault: text,
    notes: fc.array(text),
  },
  { requiredKeys: ['protocolMs', 'iface', 'direction', 'request'] },
) as fc.Arbitrary<ExchangeInput>;

describe('recordText', () => {
  it('is JSON.stringify of the record, byte for byte, for any exchange', () => {
    fc.assert(
      fc.property(fc.nat(), text, text, input, (seq, run, at, exchange) => {
        expect(recordText(seq, run, at, exchange)).toBe(asBefore(seq, run, at, exchange));
      }),
      { numRuns: 2000 },
    );
  });

  it('keeps fields in the order the recorder gave them, undefined ones left out', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...'abcdefgh'), { minLength: 1 }), (keys) => {
        const exchange = Object.fromEntries(
          keys.map((k, i) => [k, i % 3 === 0 ? undefined : i]),
        ) as unknown as ExchangeInput;
        expect(recordText(7, 'r', 'now', exchange)).toBe(asBefore(7, 'r', 'now', exchange));
      }),
    );
  });

  it("takes the long way for an exchange with a key of the journal's own, or toJSON", () => {
    const base = { protocolMs: 1, iface: 'channel', direction: 'in' } as const;
    const request = { method: 'POST', url: '/x' };
    const cases: unknown[] = [
      { ...base, at: '2020-01-01T00:00:00.000Z', request },
      { at: undefined, ...base, request },
      { ...base, request, type: 'other', seq: 'x', run: 5 },
      { ...base, request, toJSON: () => ({ replaced: true }) },
      {},
    ];
    for (const exchange of cases)
      expect(recordText(3, 'abc', 'then', exchange as ExchangeInput)).toBe(
        asBefore(3, 'abc', 'then', exchange as ExchangeInput),
      );
  });
});
