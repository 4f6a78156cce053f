/** The runs of an appended recording, and `record to-fixture --run` picking one. */
import { describe, expect, it } from 'vitest';
import { describeRun, runsOf, selectRun } from '../../../src/conversation/record/runs.js';
import type { ExchangeRecord } from '../../../src/journal/index.js';
import type { SvcError } from '../../../src/errors.js';

const record = (run: string | undefined, seq: number, at: string): ExchangeRecord => ({
  type: 'exchange',
  seq,
  ...(run === undefined ? {} : { run }),
  at,
  protocolMs: seq,
  iface: 'channel',
  direction: 'in',
  request: { method: 'POST', url: 'http://127.0.0.1/x/shop' },
});

const records = [
  record('aaa100', 1, '2026-11-29T09:00:01.000Z'),
  record('aaa100', 2, '2026-11-29T09:00:02.000Z'),
  record('aab200', 1, '2026-11-29T09:10:00.000Z'),
  record('bbb300', 1, '2026-11-29T09:20:00.000Z'),
];

describe('runsOf', () => {
  it('lists the runs in the order they ran, with their first time and size', () => {
    expect(runsOf(records)).toEqual([
      { id: 'aaa100', at: '2026-11-29T09:00:01.000Z', exchanges: 2 },
      { id: 'aab200', at: '2026-11-29T09:10:00.000Z', exchanges: 1 },
      { id: 'bbb300', at: '2026-11-29T09:20:00.000Z', exchanges: 1 },
    ]);
    expect(describeRun(runsOf(records)[0]!)).toBe('aaa100 (from 09:00:01, 2 exchanges)');
    expect(runsOf([record(undefined, 1, '2026-11-29T09:00:01.000Z')])[0]!.id).toBe('');
  });
});

describe('selectRun', () => {
  it('takes the run an id or a prefix only it starts with names', () => {
    expect(selectRun(records, 'aaa100', 's.ndjson').map((r) => r.seq)).toEqual([1, 2]);
    expect(selectRun(records, 'b', 's.ndjson')).toEqual([records[3]]);
  });

  it('refuses a prefix of several runs, and a run the file does not hold, listing the runs', () => {
    const refusal = (wanted: string): SvcError => {
      try {
        selectRun(records, wanted, 's.ndjson');
      } catch (error) {
        return error as SvcError;
      }
      throw new Error('no refusal');
    };
    const ambiguous = refusal('aa');
    expect(ambiguous.code).toBe('SVC_E_OPTIONS');
    expect(ambiguous.message).toContain('it starts 2 run ids in s.ndjson');
    const missing = refusal('zz');
    expect(missing.message).toContain('s.ndjson holds no such run');
    expect(missing.message).toContain('bbb300 (from 09:20:00, 1 exchange)');
  });
});
