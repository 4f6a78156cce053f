/**
 * Bounded concurrency for the platform's outbound requests: deliveries to the
 * integrator, bot events and hooks share one limiter per core, so a peer that hangs holds at
 * most `maxInFlight` sockets. A delivery series is admitted first: at most `maxSeries` are
 * under way, and a new one waits for its turn as the real platform queues messages (or, with
 * `waitForSeries: false`, is refused at once: the load generator's "not sent"). Attempts of
 * admitted series wait in a queue that admission keeps within `maxQueued`.
 */
import { offAbort, onAbort } from '../io/on-abort.js';
export interface OutboundLimits {
  /** requests in flight at once (default 256) */
  maxInFlight?: number;
  /** attempts waiting for a free slot (default 10,000); beyond it an attempt fails fast */
  maxQueued?: number;
  /** series under way at once (default maxInFlight + maxQueued, so attempts never overflow) */
  maxSeries?: number;
  /** a series over `maxSeries` waits (default) or is refused at once */
  waitForSeries?: boolean;
  /** series waiting for admission before the control API answers 503 (default 10,000) */
  maxWaitingSeries?: number;
}

export const DEFAULT_OUTBOUND_LIMITS = { maxInFlight: 256, maxQueued: 10_000 } as const;

export type SlotGrant =
  { ok: true; release: () => void } | { ok: false; reason: 'overloaded'; message: string };

export interface OutboundLimiter {
  /** Waits for a slot; `ok: false` at once when the queue is full. Rejects when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<SlotGrant>;
  /** Enters a delivery series; release the grant when the series ends. */
  admit(signal?: AbortSignal): Promise<SlotGrant>;
  /** series waiting for admission */
  readonly waitingSeries: number;
  /** true once `maxWaitingSeries` wait: the control API answers 503 (back-pressure) */
  readonly backlogFull: boolean;
  readonly inFlight: number;
  readonly queued: number;
  /** the most requests that were ever in flight at once (tests, bench) */
  readonly peakInFlight: number;
}

/** @example const slot = await limiter.acquire(signal); if (slot.ok) try { await post() } finally { slot.release() } */
export function createOutboundLimiter(limits: OutboundLimits = {}): OutboundLimiter {
  const maxInFlight = Math.max(1, limits.maxInFlight ?? DEFAULT_OUTBOUND_LIMITS.maxInFlight);
  const maxQueued = Math.max(0, limits.maxQueued ?? DEFAULT_OUTBOUND_LIMITS.maxQueued);
  const maxSeries = Math.max(1, limits.maxSeries ?? maxInFlight + maxQueued);
  const maxWaitingSeries = Math.max(0, limits.maxWaitingSeries ?? 10_000);
  const attempts = createGate(
    maxInFlight,
    maxQueued,
    `outbound limit reached (${maxInFlight} requests in flight, ${maxQueued} queued): the peer is not answering fast enough`,
  );
  const series = createGate(
    maxSeries,
    (limits.waitForSeries ?? true) ? Number.POSITIVE_INFINITY : 0,
    `load generator saturated (${maxSeries} payloads under way)`,
  );
  return {
    acquire: attempts.enter,
    admit: series.enter,
    get waitingSeries() {
      return series.waiting;
    },
    get backlogFull() {
      return series.waiting >= maxWaitingSeries;
    },
    get inFlight() {
      return attempts.inside;
    },
    get queued() {
      return attempts.waiting;
    },
    get peakInFlight() {
      return attempts.peak;
    },
  };
}

interface Gate {
  /** grants while fewer than `max` are inside; else waits in line, or is refused when the line is full */
  enter: (signal?: AbortSignal) => Promise<SlotGrant>;
  readonly inside: number;
  readonly waiting: number;
  /** the most that were ever inside at once */
  readonly peak: number;
}

/**
 * A counting gate with a first-come line of at most `maxWaiting`. A waiter is one small record:
 * the waiters of one signal (all of them, in practice: the core's) share a single abort
 * callback, registered while any of them waits (tens of thousands wait under load).
 */
function createGate(max: number, maxWaiting: number, refusal: string): Gate {
  const line = new Set<Waiter>();
  /** per signal: how many waiters hold it, and the callback that ends them all on abort */
  const stoppers = new Map<AbortSignal, { waiting: number; stop: () => void }>();
  let inside = 0;
  let peak = 0;
  const hold = (signal: AbortSignal): void => {
    const stopper = stoppers.get(signal);
    if (stopper) {
      stopper.waiting++;
      return;
    }
    const stop = (): void => {
      stoppers.delete(signal);
      const reason = abortReason(signal);
      for (const waiter of line) {
        if (waiter.signal !== signal) continue;
        line.delete(waiter);
        waiter.reject(reason);
      }
    };
    stoppers.set(signal, { waiting: 1, stop });
    onAbort(signal, stop);
  };
  const letGo = (signal: AbortSignal): void => {
    const stopper = stoppers.get(signal);
    if (!stopper || --stopper.waiting > 0) return;
    stoppers.delete(signal);
    offAbort(signal, stopper.stop);
  };
  const grant = (): SlotGrant => {
    inside++;
    peak = Math.max(peak, inside);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        inside--;
        const next = line.values().next();
        if (!next.done) {
          const waiter = next.value;
          line.delete(waiter);
          if (waiter.signal) letGo(waiter.signal);
          waiter.resolve(grant());
        }
      },
    };
  };
  return {
    enter(signal) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (inside < max && line.size === 0) return Promise.resolve(grant());
      if (line.size >= maxWaiting) {
        return Promise.resolve({ ok: false, reason: 'overloaded', message: refusal });
      }
      return new Promise<SlotGrant>((resolve, reject) => {
        line.add({ resolve, reject, signal });
        if (signal) hold(signal);
      });
    },
    get inside() {
      return inside;
    },
    get waiting() {
      return line.size;
    },
    get peak() {
      return peak;
    },
  };
}

interface Waiter {
  resolve: (grant: SlotGrant) => void;
  reject: (reason: Error) => void;
  signal: AbortSignal | undefined;
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted');
}
