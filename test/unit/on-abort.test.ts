import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClock, createVirtualClock } from '../../src/clock.js';
import { keepAbortListener, offAbort, onAbort } from '../../src/io/on-abort.js';
import { createOutboundLimiter } from '../../src/platform/outbound-limiter.js';

describe('onAbort', () => {
  afterEach(() => vi.restoreAllMocks());

  it('calls every remaining callback once, in the order added, with one listener on the signal', () => {
    const controller = new AbortController();
    const calls: number[] = [];
    const callbacks = Array.from({ length: 5 }, (_, i) => () => void calls.push(i));
    for (const fn of callbacks) onAbort(controller.signal, fn);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    offAbort(controller.signal, callbacks[1]!);
    offAbort(controller.signal, callbacks[3]!);
    controller.abort();
    controller.abort();
    expect(calls).toEqual([0, 2, 4]);
  });

  it('keeps one registration of a function added twice, as addEventListener does', () => {
    const controller = new AbortController();
    const fn = vi.fn();
    onAbort(controller.signal, fn);
    onAbort(controller.signal, fn);
    controller.abort();
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('forgetting a callback that already ran, or on another signal, does nothing', () => {
    const controller = new AbortController();
    const fn = vi.fn();
    onAbort(controller.signal, fn);
    offAbort(new AbortController().signal, fn);
    controller.abort();
    offAbort(controller.signal, fn);
    expect(fn).toHaveBeenCalledTimes(1);
  });

  it('runs the other callbacks when some throw, and reports each error as a listener would', () => {
    const controller = new AbortController();
    const reported: Array<() => void> = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => reported.push(task));
    const after = vi.fn();
    onAbort(controller.signal, () => {
      throw new Error('first failed');
    });
    onAbort(controller.signal, () => {
      throw new Error('second failed');
    });
    onAbort(controller.signal, after);
    controller.abort();
    expect(after).toHaveBeenCalledTimes(1);
    expect(reported).toHaveLength(2);
    expect(() => reported[0]!()).toThrow('first failed');
    expect(() => reported[1]!()).toThrow('second failed');
  });

  it('does not run a callback another one forgot during the abort', () => {
    const controller = new AbortController();
    const later = vi.fn();
    onAbort(controller.signal, () => offAbort(controller.signal, later));
    onAbort(controller.signal, later);
    controller.abort();
    expect(later).not.toHaveBeenCalled();
  });

  it('keeps nothing for a signal that has already aborted', () => {
    const controller = new AbortController();
    controller.abort();
    const fn = vi.fn();
    onAbort(controller.signal, fn);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    expect(fn).not.toHaveBeenCalled();
  });

  it('takes its listener off the signal when the last callback is forgotten', () => {
    // a signal of AbortSignal.any() stays alive while it has a listener (msw's delays)
    const controller = new AbortController();
    const a = (): void => undefined;
    const b = (): void => undefined;
    onAbort(controller.signal, a);
    onAbort(controller.signal, b);
    offAbort(controller.signal, a);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(1);
    offAbort(controller.signal, b);
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
    const c = vi.fn();
    onAbort(controller.signal, c); // and adds it again for the next waiter
    controller.abort();
    expect(c).toHaveBeenCalledTimes(1);
  });

  it('keeps the listener of a long-lived signal between waiters, and still calls each once', () => {
    const controller = new AbortController();
    keepAbortListener(controller.signal);
    const listeners = (): number => getEventListeners(controller.signal, 'abort').length;
    const gone = vi.fn();
    for (let i = 0; i < 5; i++) {
      onAbort(controller.signal, gone);
      offAbort(controller.signal, gone);
      expect(listeners()).toBe(1); // the same one, not removed and added again
    }
    const waiting = vi.fn();
    onAbort(controller.signal, waiting);
    controller.abort();
    expect(waiting).toHaveBeenCalledTimes(1);
    expect(gone).not.toHaveBeenCalled();
    expect(listeners()).toBe(0); // a `once` listener: gone after the abort
  });
});

// under load tens of thousands of deliveries wait on the core's one stop signal;
// Node's EventTarget scans its whole list on every add, so each waiter must not add one.
describe('waiters on one long-lived signal', () => {
  it('10,000 series queued at the limiter hold one abort listener and all reject on a stop', async () => {
    const stop = new AbortController();
    const limiter = createOutboundLimiter({ maxInFlight: 1, maxQueued: 0, maxSeries: 1 });
    const first = await limiter.admit(stop.signal);
    const waiting = Array.from({ length: 10_000 }, () => limiter.admit(stop.signal));
    expect(limiter.waitingSeries).toBe(10_000);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    stop.abort(new Error('stopped'));
    const settled = await Promise.allSettled(waiting);
    expect(settled.every((s) => s.status === 'rejected')).toBe(true);
    expect(limiter.waitingSeries).toBe(0);
    expect(first.ok).toBe(true);
  });

  it('a granted series forgets its callback: the last grant leaves no listener behind', async () => {
    const stop = new AbortController();
    const limiter = createOutboundLimiter({ maxInFlight: 1, maxQueued: 0, maxSeries: 1 });
    let slot = await limiter.admit(stop.signal);
    const waiting = Array.from({ length: 3 }, () => limiter.admit(stop.signal));
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    for (const next of waiting) {
      if (slot.ok) slot.release();
      slot = await next;
    }
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('many sleeps on one signal hold one listener, and forget it when they wake', async () => {
    const clock = createVirtualClock();
    const stop = new AbortController();
    const woke: number[] = [];
    void Array.from({ length: 1000 }, (_, i) =>
      clock.sleep(i < 500 ? 10 : 1000, stop.signal).then(() => woke.push(i)),
    );
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    await clock.advance(10);
    expect(woke).toHaveLength(500);
    await clock.advance(990);
    expect(woke).toHaveLength(1000);
    // every sleep forgot its callback when its timer fired
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('a stop rejects the sleeps still asleep', async () => {
    const clock = createVirtualClock();
    const stop = new AbortController();
    const woke: number[] = [];
    const sleeps = Array.from({ length: 1000 }, (_, i) =>
      clock.sleep(i < 500 ? 10 : 1000, stop.signal).then(() => woke.push(i)),
    );
    await clock.advance(10);
    stop.abort(new Error('stopped'));
    const settled = await Promise.allSettled(sleeps);
    expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(500);
  });

  it('a real clock sleep with a signal resolves when due and forgets its callback', async () => {
    const clock = createClock({ timeScale: 0.001 });
    const stop = new AbortController();
    const sleeping = clock.sleep(10, stop.signal);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(1);
    await sleeping;
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });
});
