import { describe, expect, it } from 'vitest';
import { createRecentLines } from '../../src/journal/recent-ring.js';

const line = (seq: number, pad = 0, text = 'x'): string =>
  JSON.stringify({ seq, text: text.repeat(pad) });
const seqsOf = (records: readonly { seq: number }[]): number[] => records.map((r) => r.seq);

describe('recent ring (the journal without a file store)', () => {
  it('returns the newest `keep` records, oldest first, after `since` only', () => {
    const ring = createRecentLines(4);
    for (let seq = 1; seq <= 10; seq++) ring.add(seq, line(seq));
    expect(ring.size).toBe(4);
    expect(seqsOf(ring.read(4, 0))).toEqual([7, 8, 9, 10]);
    expect(seqsOf(ring.read(2, 0))).toEqual([9, 10]);
    expect(seqsOf(ring.read(4, 8))).toEqual([9, 10]);
    expect(ring.read(4, 10)).toEqual([]);
  });

  it('grows past its first 16 KiB to keep the newest records whole', () => {
    const ring = createRecentLines(10);
    // 10 records of 100 KB: 1 MB, 64 times the first ring, written around it twice over
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

  it('keep 1: the newest record alone; a large keep or Infinity: every record that fits', () => {
    const one = createRecentLines(1);
    for (let seq = 1; seq <= 5; seq++) one.add(seq, line(seq, 10));
    expect(seqsOf(one.read(1, 0))).toEqual([5]);
    // places grow with the records (64, 128, 256 ...), not with keep
    const many = createRecentLines(1_000_000);
    for (let seq = 1; seq <= 300; seq++) many.add(seq, line(seq));
    expect(seqsOf(many.read(1_000_000, 0))).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const all = createRecentLines(Infinity, 1000);
    for (let seq = 1; seq <= 100; seq++) all.add(seq, line(seq, 80));
    const fit = seqsOf(all.read(Infinity, 0));
    expect(fit.at(-1)).toBe(100);
    expect(fit.length).toBeGreaterThanOrEqual(8);
    expect(fit.length).toBeLessThanOrEqual(9);
  });

  it('keeps a record exactly as large as the ring', () => {
    const ring = createRecentLines(3, 1000);
    ring.add(1, line(1));
    const exact = line(2, 1000 - line(2).length);
    expect(Buffer.byteLength(exact)).toBe(1000);
    ring.add(2, exact);
    expect(seqsOf(ring.read(3, 0))).toEqual([2]);
    ring.add(3, line(3));
    expect(seqsOf(ring.read(3, 0))).toEqual([3]);
  });

  it('does not keep a record larger than the whole ring, and keeps those after it', () => {
    const ring = createRecentLines(5, 1000);
    ring.add(1, line(1));
    ring.add(2, line(2, 2000));
    ring.add(3, line(3));
    expect(seqsOf(ring.read(5, 0))).toEqual([1, 3]);
  });

  it('random records (seeded): always the newest, in order, whole, never more than keep', () => {
    let state = 42;
    const random = (n: number): number => {
      state = (state * 1103515245 + 12345) % 2 ** 31;
      return state % n;
    };
    for (let run = 0; run < 200; run++) {
      const keep = 1 + random(8);
      const maxBytes = 200 + random(1800);
      const ring = createRecentLines(keep, maxBytes);
      const texts: string[] = [];
      for (let seq = 1; seq <= 60; seq++) {
        const text = JSON.stringify({ seq, text: 'aé🙂'.repeat(random(60)) });
        texts[seq] = text;
        ring.add(seq, text);
        const records = ring.read(keep, 0);
        const seqs = seqsOf(records);
        expect(records.length).toBeLessThanOrEqual(keep);
        // the newest is there unless it alone is larger than the ring
        if (Buffer.byteLength(text) <= maxBytes) expect(seqs.at(-1)).toBe(seq);
        for (let i = 1; i < seqs.length; i++) expect(seqs[i]!).toBeGreaterThan(seqs[i - 1]!);
        for (const r of records) expect(JSON.stringify(r)).toBe(texts[r.seq]);
        // nothing gives way while the newest keep fit in half the ring (a skipped tail aside)
        const newest = texts.slice(Math.max(1, seq - keep + 1), seq + 1);
        const bytes = newest.reduce((sum, t) => sum + Buffer.byteLength(t), 0);
        if (2 * bytes <= maxBytes) expect(records.length).toBe(newest.length);
      }
    }
  });
});
