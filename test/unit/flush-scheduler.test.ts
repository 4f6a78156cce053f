import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFlushScheduler } from '../../src/io/flush-scheduler.js';

describe('createFlushScheduler', () => {
  beforeEach(() => {
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'setImmediate', 'clearImmediate', 'performance'],
    });
  });
  afterEach(() => vi.useRealTimers());

  it('flushes on the next turn while writes are sparse', () => {
    const flush = vi.fn();
    const scheduler = createFlushScheduler(flush, { minIntervalMs: 10 });
    scheduler.request();
    scheduler.request();
    expect(flush).not.toHaveBeenCalled();
    vi.advanceTimersToNextTimer();
    expect(flush).toHaveBeenCalledTimes(1); // many requests, one flush
    vi.advanceTimersByTime(50);
    scheduler.request();
    vi.advanceTimersToNextTimer();
    expect(flush).toHaveBeenCalledTimes(2);
  });

  it('writes at most once per interval under load, and never drops a request', () => {
    const flush = vi.fn();
    const scheduler = createFlushScheduler(flush, { minIntervalMs: 10 });
    for (let ms = 0; ms < 100; ms++) {
      scheduler.request(); // a request every millisecond
      vi.advanceTimersByTime(1);
    }
    vi.advanceTimersByTime(20);
    // 100 ms of continuous requests: about one flush per 10 ms, the last request included
    expect(flush.mock.calls.length).toBeGreaterThanOrEqual(9);
    expect(flush.mock.calls.length).toBeLessThanOrEqual(11);
    const calls = flush.mock.calls.length;
    scheduler.request();
    vi.advanceTimersByTime(20);
    expect(flush).toHaveBeenCalledTimes(calls + 1);
  });

  it('cancel forgets a pending flush (the owner flushed itself)', () => {
    const flush = vi.fn();
    const scheduler = createFlushScheduler(flush);
    scheduler.request();
    scheduler.cancel();
    vi.advanceTimersByTime(100);
    expect(flush).not.toHaveBeenCalled();
  });
});
