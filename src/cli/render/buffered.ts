import type { Writable } from 'node:stream';
import { createFlushScheduler } from '../../io/flush-scheduler.js';

export interface BufferedWriter {
  write(text: string): boolean;
  /** Writes what is buffered; resolves once the stream took it. */
  flush(): Promise<void>;
  isTTY?: boolean;
}

/**
 * Coalesces many small writes (one line per payload, 100k payloads; one event per request
 * of a simulator under load) into one write per event-loop turn, and at most one every
 * 10 ms under load: per-line writes cost a syscall each. Lines still appear as soon as the
 * producer waits for input, so streaming stays live.
 */
export function createBufferedWriter(stream: Writable & { isTTY?: boolean }): BufferedWriter {
  let pending: string[] = [];
  const scheduler = createFlushScheduler(() => void drain());
  const drain = (): Promise<void> => {
    scheduler.cancel();
    if (pending.length === 0) return Promise.resolve();
    const text = pending.join('');
    pending = [];
    return new Promise((resolve) => {
      if (stream.write(text)) resolve();
      else stream.once('drain', () => resolve());
    });
  };
  const writer: BufferedWriter = {
    write(text) {
      pending.push(text);
      scheduler.request();
      return true;
    },
    flush: drain,
  };
  if (stream.isTTY !== undefined) writer.isTTY = stream.isTTY;
  return writer;
}
