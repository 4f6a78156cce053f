/**
 * Many waiters on one long-lived AbortSignal (the core's stop signal: every queued delivery,
 * every redelivery wait). Node's EventTarget scans its whole listener list on each
 * addEventListener (it refuses duplicates), so 28,000 waiters cost 28,000 scans of up to
 * 28,000 entries: 1.9 s of CPU for 30,000 adds here (the load bench's queue).
 * `onAbort` registers one listener per signal and keeps the callbacks in a Set: adding and
 * removing one is O(1).
 */

interface Waiters {
  callbacks: Set<() => void>;
  listener: () => void;
}

const waiters = new WeakMap<AbortSignal, Waiters>();

/** Signals whose one listener stays when their last waiter goes (keepAbortListener). */
const kept = new WeakSet<AbortSignal>();

/**
 * Keeps `signal`'s one listener (and its Set) when its last waiter goes, for a signal that
 * lives as long as its owner (the core's stop signal). Each exchange of a round trip waits on
 * it and is done within a millisecond, so the Set would otherwise empty and be rebuilt, and
 * the listener removed and added again, several times per round trip at a human pace: ~20 us
 * of CPU and a few hundred bytes of garbage each (timing under load). Not for
 * a signal of `AbortSignal.any()`: a listener keeps that one alive.
 * @example keepAbortListener(controller.signal);
 */
export function keepAbortListener(signal: AbortSignal): void {
  kept.add(signal);
}

/**
 * Calls `fn` once when `signal` aborts; nothing when it already has (check `aborted` first),
 * as a `once` listener added then would never run. Callbacks run in the order they were
 * added; adding the same function twice keeps one, and one forgotten during the abort does not
 * run, as with addEventListener. Forget it with `offAbort` (no closure per waiter: under load
 * tens of thousands wait).
 * @example onAbort(core.signal, onStop); ... offAbort(core.signal, onStop);
 */
export function onAbort(signal: AbortSignal, fn: () => void): void {
  if (signal.aborted) return;
  let entry = waiters.get(signal);
  if (entry === undefined) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      // the live Set: a callback forgotten by an earlier one is skipped
      for (const callback of callbacks) {
        callbacks.delete(callback);
        try {
          callback();
        } catch (error) {
          // the others still run; each error is reported as a listener's would be
          queueMicrotask(() => {
            throw error;
          });
        }
      }
      waiters.delete(signal);
    };
    entry = { callbacks, listener };
    waiters.set(signal, entry);
    signal.addEventListener('abort', listener, { once: true });
  }
  entry.callbacks.add(fn);
}

/**
 * Forgets a callback `onAbort` added; nothing when it ran already or was never added. The
 * last one gone takes the signal's listener with it: a signal of `AbortSignal.any()` stays
 * alive while it has a listener.
 */
export function offAbort(signal: AbortSignal, fn: () => void): void {
  const entry = waiters.get(signal);
  if (entry === undefined || !entry.callbacks.delete(fn) || entry.callbacks.size > 0) return;
  if (kept.has(signal)) return;
  waiters.delete(signal);
  signal.removeEventListener('abort', entry.listener);
}
