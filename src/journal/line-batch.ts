/**
 * The NDJSON lines of a journal's batch, encoded as UTF-8 into one reusable buffer as each
 * record is serialised, then written in chunks that end on a line. Before, each line was a
 * string (`text + '\n'`), the batch was joined into strings of 48 Ki characters and each was
 * encoded again by the write; encoded once into a buffer that lives on, a line costs one copy
 * and no string or garbage of its own.
 */
import { writeSync } from 'node:fs';

/** Bytes the buffer starts with; it grows for a larger batch and shrinks back after it. */
const FIRST_BYTES = 64 * 1024;

/** A write of a batch ends at the first line end past this many bytes (as joinInChunks did). */
export const WRITE_CHUNK_BYTES = 64 * 1024;

export interface LineBatch {
  /** lines added since the last write or clear */
  readonly lines: number;
  /** Adds `text` and a newline. */
  add(text: string): void;
  /**
   * Writes the lines to `fd` in chunks ending on a line, in order, and empties the batch;
   * `wrote` hears each chunk written whole (its bytes and lines). A failed write throws, and
   * the batch is emptied all the same.
   */
  writeTo(fd: number, wrote: (bytes: number, lines: number) => void): void;
  /** Forgets the lines (the file was stopped). */
  clear(): void;
}

/**
 * @example const batch = createLineBatch(); batch.add('{"seq":1}'); batch.writeTo(fd, () => {});
 */
export function createLineBatch(): LineBatch {
  let bytes = Buffer.allocUnsafeSlow(0);
  let used = 0;
  let lines = 0;
  /** where each chunk ends (bytes) and how many lines it holds */
  let chunkEnds: number[] = [];
  let chunkLines: number[] = [];
  let chunkStart = 0;
  let linesInChunk = 0;

  const room = (needed: number): void => {
    if (used + needed <= bytes.length) return;
    const next = Buffer.allocUnsafeSlow(Math.max(FIRST_BYTES, bytes.length * 2, used + needed));
    bytes.copy(next, 0, 0, used);
    bytes = next;
  };
  const clear = (): void => {
    used = 0;
    lines = 0;
    chunkEnds = [];
    chunkLines = [];
    chunkStart = 0;
    linesInChunk = 0;
    // a batch of large records grew it: give the memory back
    if (bytes.length > 4 * FIRST_BYTES) bytes = Buffer.allocUnsafeSlow(FIRST_BYTES);
  };

  return {
    get lines() {
      return lines;
    },
    add(text) {
      // at most 3 bytes per UTF-16 unit (a pair of surrogates is 4 bytes for 2 units)
      room(text.length * 3 + 1);
      used += bytes.write(text, used);
      bytes[used++] = 0x0a;
      lines++;
      linesInChunk++;
      if (used - chunkStart >= WRITE_CHUNK_BYTES) {
        chunkEnds.push(used);
        chunkLines.push(linesInChunk);
        chunkStart = used;
        linesInChunk = 0;
      }
    },
    writeTo(fd, wrote) {
      if (linesInChunk > 0) {
        chunkEnds.push(used);
        chunkLines.push(linesInChunk);
      }
      const ends = chunkEnds;
      const counts = chunkLines;
      const buffer = bytes;
      try {
        let from = 0;
        for (let i = 0; i < ends.length; i++) {
          const end = ends[i] as number;
          // writeSync may write part of it (a disk that fills up mid-write): the rest is
          // written until done or until a write throws
          for (let at = from; at < end;) at += writeSync(fd, buffer, at, end - at);
          wrote(end - from, counts[i] as number);
          from = end;
        }
      } finally {
        clear();
      }
    },
    clear,
  };
}
