/**
 * Batched output (a command's event and result lines) joined into strings of at most
 * JOIN_CHUNK_CHARS each, not into one string per batch (the journal encodes its lines into a
 * buffer instead: src/journal/line-batch.ts). A string longer than ~128 KiB
 * is a large object in V8: each gets pages of its own, mapped, faulted in and unmapped. A
 * simulator ingesting ~20k messages/s batches ~200 journal lines of ~700 bytes every 10 ms
 * (140 KB): joined whole, with its write, that cost 3.4-4.0 µs per line; in chunks of at
 * most 48 Ki characters, 0.38-0.42 µs (docs/RELIABILITY.md).
 */

/**
 * Characters per joined chunk: under the large-object size even for UTF-16 text (2 bytes a
 * character). Per line of such a batch, 32 Ki took 0.46 µs, 48 Ki 0.38-0.42, 64 Ki 0.33-0.41.
 */
export const JOIN_CHUNK_CHARS = 48 * 1024;

/**
 * Hands `write` the texts joined, in order, a chunk at a time, with how many texts the chunk
 * holds; a text longer than a chunk is a chunk of its own.
 * @example joinInChunks(lines, (text) => writeSync(fd, text));
 */
export function joinInChunks(
  texts: readonly string[],
  write: (text: string, count: number) => void,
  maxChars = JOIN_CHUNK_CHARS,
): void {
  let from = 0;
  let size = 0;
  for (let i = 0; i < texts.length; i++) {
    const length = (texts[i] as string).length;
    if (size > 0 && size + length > maxChars) {
      write(texts.slice(from, i).join(''), i - from);
      from = i;
      size = 0;
    }
    size += length;
  }
  if (from < texts.length)
    write(from === 0 ? texts.join('') : texts.slice(from).join(''), texts.length - from);
}
