import type { Writable } from 'node:stream';
import { createFlushScheduler } from '../../io/flush-scheduler.js';
import { joinInChunks } from '../../io/join-in-chunks.js';

export interface BufferedWriter {
  write(text: string): boolean;
  /** Writes what is buffered; resolves once the stream took it. */
  flush(): Promise<void>;
  /**
   * While the stream holds more than it wants (a pipe whose reader is slower than us): a
   * promise of its next 'drain'; undefined when it takes more. A producer that can wait (a
   * validate stream) awaits it, so its output does not pile up in memory.
   */
  backpressure(): Promise<void> | undefined;
  isTTY?: boolean;
}

/**
 * Coalesces many small writes (one line per payload, 100k payloads; one event per request
 * of a simulator under load) into one write per event-loop turn (per 48 Ki characters of
 * it: join-in-chunks.ts), and at most one every 10 ms under load: per-line writes cost a
 * syscall each. Lines still appear as soon as the producer waits for input, so streaming
 * stays live. While the stream is full, the writes go on (nothing is lost) and every flush
 * waits for the same one 'drain'.
 */
export function createBufferedWriter(stream: Writable & { isTTY?: boolean }): BufferedWriter {
  let pending: string[] = [];
  /** the stream's next 'drain', while it is full: one listener however many flushes wait */
  let full: Promise<void> | undefined;
  const scheduler = createFlushScheduler(() => void drain());
  const drain = (): Promise<void> => {
    scheduler.cancel();
    if (pending.length > 0) {
      const lines = pending;
      pending = [];
      let took = true;
      joinInChunks(lines, (text) => {
        // a stream whose reader went away (`| head -1`) takes nothing more and never drains:
        // what it is given is dropped, and the run goes on to its end and its exit code
        took = stream.write(text) || stream.destroyed;
      });
      if (!took && full === undefined) {
        full = new Promise((resolve) => {
          const done = (): void => {
            stream.off('drain', done);
            stream.off('close', done);
            full = undefined;
            resolve();
          };
          stream.once('drain', done);
          stream.once('close', done);
        });
      }
    }
    return full ?? Promise.resolve();
  };
  const writer: BufferedWriter = {
    write(text) {
      pending.push(text);
      scheduler.request();
      return true;
    },
    flush: drain,
    backpressure: () => full,
  };
  if (stream.isTTY !== undefined) writer.isTTY = stream.isTTY;
  return writer;
}
