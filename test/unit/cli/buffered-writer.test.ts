import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createBufferedWriter } from '../../../src/cli/render/buffered.js';

/** A stream like a pipe whose reader has stopped: it takes nothing until `release()`. */
function stalledStream(): { stream: Writable; received: string[]; release: () => void } {
  const received: string[] = [];
  const held: (() => void)[] = [];
  let flowing = false;
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk.toString());
      if (flowing) callback();
      else held.push(callback);
    },
  });
  const release = (): void => {
    flowing = true;
    for (const callback of held.splice(0)) callback();
  };
  return { stream, received, release };
}

describe('buffered stdout writer: a full pipe', () => {
  it('waits for one drain however many flushes come, and loses nothing', async () => {
    const { stream, received, release } = stalledStream();
    const writer = createBufferedWriter(stream);
    expect(writer.backpressure()).toBeUndefined();
    const flushes: Promise<void>[] = [];
    for (let i = 0; i < 25; i++) {
      writer.write(`line ${i} of a stream whose reader stopped\n`);
      flushes.push(writer.flush());
    }
    // Node warns past 10 listeners ("possible EventEmitter memory leak"): one is enough
    expect(stream.listenerCount('drain')).toBe(1);
    const full = writer.backpressure();
    expect(full).toBeInstanceOf(Promise);
    let drained = false;
    void full!.then(() => (drained = true));
    await new Promise((turn) => setImmediate(turn));
    expect(drained).toBe(false);
    release();
    await Promise.all(flushes);
    expect(drained).toBe(true);
    expect(writer.backpressure()).toBeUndefined();
    expect(stream.listenerCount('drain')).toBe(0);
    expect(received.join('')).toBe(
      Array.from({ length: 25 }, (_, i) => `line ${i} of a stream whose reader stopped\n`).join(''),
    );
  });

  it('writes a batch larger than a chunk in pieces, whole lines in order', async () => {
    const { stream, received, release } = stalledStream();
    release();
    const writer = createBufferedWriter(stream);
    const lines = Array.from({ length: 400 }, (_, i) => `${String(i).padStart(299, '.')}\n`);
    for (const line of lines) writer.write(line);
    await writer.flush();
    expect(received.length).toBeGreaterThan(1); // 120,000 characters: more than one piece
    for (const piece of received) expect(piece.endsWith('\n')).toBe(true);
    expect(received.join('')).toBe(lines.join(''));
  });

  it('resolves a flush at once while the stream takes more', async () => {
    const { stream, release } = stalledStream();
    release();
    const writer = createBufferedWriter(stream);
    writer.write('short\n');
    await writer.flush();
    expect(writer.backpressure()).toBeUndefined();
  });
});
