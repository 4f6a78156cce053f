/**
 * When to write what a buffer holds: on the next event-loop turn while output is sparse,
 * and at most once per `minIntervalMs` under load. A simulator answering 10k requests a
 * second then makes ~100 write syscalls a second instead of one per turn (each also wakes
 * the reader of the pipe or file), while a line at human pace still appears at once.
 */
export interface FlushScheduler {
  /** Asks for a flush; many requests before it runs make one flush. */
  request(): void;
  /** Forgets a requested flush (the owner flushed by itself). */
  cancel(): void;
}

/** Default spacing of writes under load: short enough to read as live, long enough to batch. */
export const DEFAULT_FLUSH_INTERVAL_MS = 10;

/**
 * @example const s = createFlushScheduler(() => writeSync(fd, take())); s.request();
 */
export function createFlushScheduler(
  flush: () => void,
  options: { minIntervalMs?: number } = {},
): FlushScheduler {
  const interval = options.minIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
  let last = -Infinity;
  let immediate: NodeJS.Immediate | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = (): void => {
    immediate = undefined;
    timer = undefined;
    last = performance.now();
    flush();
  };
  return {
    request() {
      if (immediate !== undefined || timer !== undefined) return;
      const wait = last + interval - performance.now();
      if (wait <= 0) immediate = setImmediate(run);
      else {
        // unref: owners flush on exit and close themselves; a pending batch must not hold the process
        timer = setTimeout(run, Math.ceil(wait));
        timer.unref();
      }
    },
    cancel() {
      if (immediate !== undefined) clearImmediate(immediate);
      if (timer !== undefined) clearTimeout(timer);
      immediate = undefined;
      timer = undefined;
    },
  };
}
