import { describe, expect, it } from 'vitest';
import { createRecentLines } from '../../src/journal/recent-ring.js';

const line = (seq: number, pad = 0, text = 'x'): string =>
  JSON.stringify({ seq, text: text.repeat(pad) });
const seqsOf = (records: readonly { seq: number }[]): number[] => records.map((r) => r.seq);

describe('recent ring (the journal without a file store, issue 18)', () => {
  it('returns the newest `keep` records, oldest first, after `since` only', () => {
    const ring = createRecentLines(4);
    for (let seq = 1; seq <= 10; seq++) ring.add(seq, line(seq));
    expect(ring.size).toBe(4);
    expect(seqsOf(ring.read(4, 0))).toEqual([7, 8, 9, 10]);
    expect(seqsOf(ring.read(2, 0))).toEqual([9, 10]);
    expect(seqsOf(ring.read(4, 8))).toEqual([9, 10]);
    expect(ring.read(4, 10)).toEqual([]);
  });

  it('grows past its first 256 KiB to keep the newest records whole', () => {
    const ring = createRecentLines(10);
    // 10 records of 100 KB: 1 MB, four times the first ring, written around it twice over
    for (let seq = 1; seq <= 25; seq++) ring.add(seq, line(seq, 100_000, String(seq % 10)));
    const records = ring.read(10, 0) as unknown as { seq: number; text: string }[];
    expect(seqsOf(records)).toEqual([16, 17, 18, 19, 20, 21, 22, 23, 24, 25]);
    for (const r of records) expect(r.text).toBe(String(r.seq % 10).repeat(100_000));
  });

  it('keeps multi-byte text intact where the ring wraps', () => {
    const ring = createRecentLines(3, 1000);
    const texts: string[] = [];
    for (let seq = 1; seq <= 40; seq++) {
      texts[seq] = `${'é'.repeat(seq % 7)}🙂 ${seq}`;
      ring.add(seq, JSON.stringify({ seq, text: texts[seq] }));
    }
    const records = ring.read(3, 0) as unknown as { seq: number; text: string }[];
    expect(seqsOf(records)).toEqual([38, 39, 40]);
    for (const r of records) expect(r.text).toBe(texts[r.seq]);
  });

  it('at its byte limit, gives way oldest first: fewer than `keep`, never a torn record', () => {
    const ring = createRecentLines(100, 1000);
    for (let seq = 1; seq <= 100; seq++) ring.add(seq, line(seq, 80));
    const records = ring.read(100, 0);
    // 101 bytes each in 1,000 bytes, none across the ring's end: the newest eight or nine,
    // in order, each parsed whole
    expect(records.length).toBeGreaterThanOrEqual(8);
    expect(records.length).toBeLessThanOrEqual(9);
    expect(seqsOf(records).at(-1)).toBe(100);
    expect(seqsOf(records)).toEqual(
      Array.from({ length: records.length }, (_, i) => 101 - records.length + i),
    );
  });

  it('does not keep a record larger than the whole ring, and keeps those after it', () => {
    const ring = createRecentLines(5, 1000);
    ring.add(1, line(1));
    ring.add(2, line(2, 2000));
    ring.add(3, line(3));
    expect(seqsOf(ring.read(5, 0))).toEqual([1, 3]);
  });
});
