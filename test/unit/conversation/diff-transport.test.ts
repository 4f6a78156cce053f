import { describe, expect, it } from 'vitest';
import { diffObservations } from '../../../src/conversation/record/diff.js';
import { createObserver } from '../../../src/conversation/record/observe.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

const exchange = (
  seq: number,
  direction: 'in' | 'out',
  headers: Record<string, string> | undefined,
): ExchangeRecord => ({
  type: 'exchange',
  seq,
  run: 'r',
  at: '2026-01-01T00:00:00.000Z',
  protocolMs: seq * 10,
  iface: 'channel',
  direction,
  kind: direction === 'in' ? 'channel.customer.text' : 'channel.agent.text',
  request: { method: 'POST', url: '/x', body: '{}' },
  response: { status: 200, ...(headers ? { headers } : {}), body: '{"result":"ok"}' },
});

const observe = (records: ExchangeRecord[]) => {
  const observer = createObserver(['x.ndjson']);
  for (const record of records) observer.add(record);
  return observer.finish();
};

const json = { 'content-type': 'application/json' };

describe("record diff: the answers' transport headers", () => {
  it('a proxy recording against the in-process replay of its fixture: no difference', () => {
    // through the proxy the answers came over sockets; the replay's have no transport headers
    const proxied = observe([
      exchange(1, 'in', { ...json, connection: 'keep-alive', 'keep-alive': 'timeout=5' }),
      exchange(2, 'out', { ...json, connection: 'keep-alive', 'keep-alive': 'timeout=65' }),
      exchange(3, 'out', { ...json, connection: 'keep-alive', 'keep-alive': 'timeout=65' }),
    ]);
    const replayed = observe([
      exchange(1, 'in', undefined),
      exchange(2, 'out', { ...json, 'content-length': '15' }),
      exchange(3, 'out', { ...json, 'content-length': '15' }),
    ]);
    expect(diffObservations(proxied, replayed)).toEqual({
      differences: [],
      counts: { behaviour: 0, shape: 0, cosmetic: 0 },
      unobservable: [],
    });
  });

  it("the platform's own Keep-Alive differing: cosmetic, never a behaviour difference", () => {
    const a = observe([exchange(1, 'in', { ...json, 'keep-alive': 'timeout=65' })]);
    const b = observe([exchange(1, 'in', { ...json, 'keep-alive': 'timeout=5' })]);
    const result = diffObservations(a, b);
    expect(result.counts).toEqual({ behaviour: 0, shape: 0, cosmetic: 1 });
    expect(result.differences.map((d) => [d.severity, d.kind, d.aspect, d.detail])).toEqual([
      [
        'cosmetic',
        'channel.customer.text',
        'keep-alive',
        'answer Keep-Alive: a timeout=65 x1; b timeout=5 x1',
      ],
    ]);
  });
});

describe('record diff: Content-Type', () => {
  const request = (seq: number, type: string): ExchangeRecord => {
    const record = exchange(seq, 'in', json);
    return { ...record, request: { ...record.request, headers: { 'content-type': type } } };
  };
  const details = (a: string, b: string): string[] =>
    diffObservations(observe([request(1, a)]), observe([request(1, b)])).differences.map(
      (d) => `${d.severity} ${d.detail}`,
    );

  it('takes a charset=utf-8 parameter of JSON for nothing: JSON is UTF-8', () => {
    expect(details('application/json', 'application/json; charset=utf-8')).toEqual([]);
    expect(details('application/json', 'Application/JSON;charset="UTF-8"')).toEqual([]);
    expect(details('application/problem+json', 'application/problem+json; charset=utf8')).toEqual(
      [],
    );
  });

  it('still tells another media type, or another charset, apart', () => {
    expect(details('application/json', 'text/plain; charset=utf-8')).toEqual([
      'shape request Content-Type: a application/json x1; b text/plain;charset=utf-8 x1',
    ]);
    expect(
      details('application/json; charset=utf-8', 'application/json; charset=iso-8859-1'),
    ).toEqual([
      'shape request Content-Type: a application/json x1; b application/json;charset=iso-8859-1 x1',
    ]);
  });
});
