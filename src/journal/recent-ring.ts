/**
 * The recent records of a journal without a file store (issue 18): each record's JSON text in
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

/** The ring starts this large and doubles while the newest `keep` records do not fit. */
const FIRST_BYTES = 256 * 1024;
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
 * A ring of the newest `keep` records' JSON text (`keep` > 0), within `maxBytes`.
 * @example const recent = createRecentLines(1000); recent.add(1, '{"seq":1}'); recent.read(1000, 0);
 */
export function createRecentLines(keep: number, maxBytes = MAX_RECENT_BYTES): RecentLines {
  let capacity = Math.min(FIRST_BYTES, maxBytes);
  let bytes = Buffer.allocUnsafeSlow(capacity);
  // slot i % keep holds the i-th record added: its seq, where its text starts (a position in
  // the stream of bytes ever written, so `head - capacity` tells what was overwritten), length
  const seqs = new Float64Array(keep);
  const starts = new Float64Array(keep);
  const lengths = new Uint32Array(keep);
  let added = 0;
  /** bytes ever written (a record never wraps: the ring's tail is skipped instead) */
  let head = 0;

  const intact = (slot: number): boolean => starts[slot]! >= head - capacity;
  const textAt = (slot: number): string => {
    const at = starts[slot]! % capacity;
    return bytes.toString('utf8', at, at + lengths[slot]!);
  };
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
  /** A ring twice as large (or more, up to maxBytes), holding the records kept so far. */
  const grow = (needed: number): void => {
    const kept: number[] = [];
    for (let i = Math.max(0, added - keep + 1); i < added; i++) {
      if (intact(i % keep)) kept.push(i % keep);
      else starts[i % keep] = -Infinity; // stays unreadable once head starts again at 0
    }
    const texts = kept.map(textAt);
    while (capacity < needed && capacity < maxBytes) capacity = Math.min(capacity * 2, maxBytes);
    bytes = Buffer.allocUnsafeSlow(capacity);
    head = 0;
    kept.forEach((slot, n) => (starts[slot] = write(texts[n]!, lengths[slot]!)));
  };

  return {
    get size() {
      return Math.min(added, keep);
    },
    add(seq, text) {
      const length = Buffer.byteLength(text);
      const slot = added % keep;
      // the bytes this record and the other newest keep - 1 need, the ring's skipped tail aside
      if (capacity < maxBytes) {
        const oldest = added - keep + 1;
        const from = oldest > 0 ? starts[oldest % keep]! : 0;
        if (head + length + length - from > capacity) grow(head + 2 * length - from);
      }
      seqs[slot] = seq;
      lengths[slot] = length;
      if (length > capacity) {
        // larger than the whole ring: not kept (read skips it as overwritten)
        starts[slot] = -Infinity;
      } else starts[slot] = write(text, length);
      added++;
    },
    read(wanted, since) {
      const records: ExchangeRecord[] = [];
      for (let i = Math.max(0, added - Math.min(wanted, keep)); i < added; i++) {
        const slot = i % keep;
        if (seqs[slot]! <= since || !intact(slot)) continue;
        records.push(JSON.parse(textAt(slot)) as ExchangeRecord);
      }
      return records;
    },
  };
}
