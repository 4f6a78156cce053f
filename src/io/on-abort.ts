/**
 * Many waiters on one long-lived AbortSignal (the core's stop signal: every queued delivery,
 * every redelivery wait). Node's EventTarget scans its whole listener list on each
 * addEventListener (it refuses duplicates), so 28,000 waiters cost 28,000 scans of up to
 * 28,000 entries: 1.9 s of CPU for 30,000 adds here (issue 18, the load bench's queue).
 * `onAbort` registers one listener per signal and keeps the callbacks in a Set: adding and
 * removing one is O(1).
 */

const waiters = new WeakMap<AbortSignal, Set<() => void>>();

/**
 * Calls `fn` once when `signal` aborts (not at all when it already has: check `aborted`
 * first). Callbacks run in the order they were added; adding the same function twice keeps
 * one, as addEventListener does. Forget it with `offAbort` (no closure per waiter: under load
 * tens of thousands wait, issue 18).
 * @example onAbort(core.signal, onStop); ... offAbort(core.signal, onStop);
 */
export function onAbort(signal: AbortSignal, fn: () => void): void {
  let set = waiters.get(signal);
  if (set === undefined) {
    const created = new Set<() => void>();
    set = created;
    waiters.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        waiters.delete(signal);
        let failure: { error: unknown } | undefined;
        for (const callback of created) {
          try {
            callback();
          } catch (error) {
            failure ??= { error }; // the others still run; reported as a listener's would be
          }
        }
        created.clear();
        if (failure) {
          const { error } = failure;
          queueMicrotask(() => {
            throw error;
          });
        }
      },
      { once: true },
    );
  }
  set.add(fn);
}

/** Forgets a callback `onAbort` added; nothing when it ran already or was never added. */
export function offAbort(signal: AbortSignal, fn: () => void): void {
  waiters.get(signal)?.delete(fn);
}
