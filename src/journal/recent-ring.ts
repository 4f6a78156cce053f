/**
 * The recent records of a journal without a file store: each record's JSON text in
 * one ring of bytes outside the JS heap, with its seq.
 *
 * Kept as strings on the heap, a record outlived two young-generation collections before the
 * newest `keep` pushed it out: at 200 bot conversations of 1 msg/s (4 records a round trip),
 * the kept records were more than half of what each scavenge promoted (700 KB -> 300 KB with
 * none kept), and the old generation they filled was collected by a full mark-compact every
 * few seconds, a pause of 5-18 ms in the round trip's tail. Written into a buffer, a record's
 * text dies young and the ring costs the collectors nothing.
 */
import type { ExchangeRecord } from './record.js';

/**
 * The ring starts this large (at its first record) and doubles while the newest do not fit:
 * small, as a replay makes a journal per conversation and most hold a few dozen records.
 */
const FIRST_BYTES = 16 * 1024;
/** Room for this many records' places at first; doubled as needed, up to `keep`. */
const FIRST_SLOTS = 64;
/**
 * It grows no further: 64 MiB holds the last 1,000 records of up to 64 KiB each. Beyond it the
 * oldest records give way, so `read` may return fewer than `keep` (1,000 records of 1 MiB
 * bodies kept as strings were a gigabyte).
 */
export const MAX_RECENT_BYTES = 64 * 1024 * 1024;

export interface RecentLines {
  /** how many records `read` could return at most */
  readonly size: number;
  add(seq: number, text: string): void;
  /** the newest `keep` records (those after `since` only), oldest first */
  read(keep: number, since: number): ExchangeRecord[];
}

/**
 * A ring of the newest `keep` records' JSON text (`keep` >= 1; Infinity: as many as fit),
 * within `maxBytes`. Nothing is allocated before the first record, and the places grow with
 * the records kept, so a large `keep` costs only what is used.
 * @example const recent = createRecentLines(1000); recent.add(1, '{"seq":1}'); recent.read(1000, 0);
 */
export function createRecentLines(keep: number, maxBytes = MAX_RECENT_BYTES): RecentLines {
  const limit = Number.isFinite(keep) ? Math.max(1, Math.floor(keep)) : Number.MAX_SAFE_INTEGER;
  let capacity = 0;
  let bytes = Buffer.alloc(0);
  // The i-th record added sits in place i % places: its seq, where its text starts (a position
  // in the stream of bytes ever written, so `head - capacity` tells what was overwritten) and
  // its length.
  let places = 0;
  let seqs = new Float64Array(0);
  let starts = new Float64Array(0);
  let lengths = new Uint32Array(0);
  let added = 0;
  /** the oldest record that may still be whole: older ones were overwritten */
  let first = 0;
  /** bytes ever written (a record never wraps: the ring's tail is skipped instead) */
  let head = 0;

  const intact = (i: number): boolean => starts[i % places]! >= head - capacity;
  const textAt = (i: number): string => {
    const at = starts[i % places]! % capacity;
    return bytes.toString('utf8', at, at + lengths[i % places]!);
  };
  /** The kept window: the newest `limit` records, from the first still whole. */
  const windowStart = (): number => Math.max(first, added - limit);
  /** Writes `text` (`length` bytes) at the head; its start in the stream. */
  const write = (text: string, length: number): number => {
    let at = head % capacity;
    if (at + length > capacity) {
      head += capacity - at;
      at = 0;
    }
    bytes.write(text, at, length, 'utf8');
    const start = head;
    head += length;
    return start;
  };
  /** Room for one more place (up to `limit`), the kept records keeping their order. */
  const morePlaces = (): void => {
    const next = Math.min(Math.max(FIRST_SLOTS, places * 2), limit);
    const [s, st, l] = [new Float64Array(next), new Float64Array(next), new Uint32Array(next)];
    for (let i = windowStart(); i < added; i++) {
      s[i % next] = seqs[i % places]!;
      st[i % next] = starts[i % places]!;
      l[i % next] = lengths[i % places]!;
    }
    [seqs, starts, lengths, places] = [s, st, l, next];
  };
  /** A ring twice as large (or more, up to maxBytes), holding the records kept so far. */
  const moreBytes = (needed: number): void => {
    const kept: Array<[number, string]> = [];
    for (let i = windowStart(); i < added; i++) if (intact(i)) kept.push([i, textAt(i)]);
    let next = Math.max(capacity, Math.min(FIRST_BYTES, maxBytes));
    while (next < needed && next < maxBytes) next = Math.min(next * 2, maxBytes);
    capacity = next;
    bytes = Buffer.allocUnsafeSlow(capacity);
    head = 0;
    first = kept[0]?.[0] ?? added;
    for (const [i, text] of kept) starts[i % places] = write(text, lengths[i % places]!);
  };

  return {
    get size() {
      return added - windowStart();
    },
    add(seq, text) {
      const length = Buffer.byteLength(text);
      // the newest limit - 1 records stay: the bytes they, this one and a skipped tail need
      let from = Math.max(first, added - limit + 1);
      while (from < added && !intact(from)) from++;
      if (capacity < maxBytes) {
        const needed = (from < added ? head - starts[from % places]! : 0) + 2 * length;
        if (needed > capacity || capacity === 0) moreBytes(needed);
      }
      if (added - windowStart() >= places && places < limit) morePlaces();
      const place = added % places;
      seqs[place] = seq;
      lengths[place] = length;
      // larger than the whole ring: not kept (read skips it as overwritten)
      starts[place] = length > capacity ? -Infinity : write(text, length);
      added++;
      while (first < added && !intact(first)) first++;
    },
    read(wanted, since) {
      const records: ExchangeRecord[] = [];
      for (let i = Math.max(windowStart(), added - wanted); i < added; i++) {
        if (seqs[i % places]! <= since || !intact(i)) continue;
        records.push(JSON.parse(textAt(i)) as ExchangeRecord);
      }
      return records;
    },
  };
}
