/**
 * Bounded concurrency for the platform's outbound requests (issue 8): deliveries to the
 * integrator, bot events and hooks share one limiter per core, so a peer that hangs holds at
 * most `maxInFlight` sockets; later attempts wait in a bounded queue, and beyond it a
 * delivery fails at once with a reason instead of piling up work.
 */
export interface OutboundLimits {
  /** requests in flight at once (default 256) */
  maxInFlight?: number;
  /** attempts waiting for a free slot (default 10,000); beyond it the delivery fails fast */
  maxQueued?: number;
}

export const DEFAULT_OUTBOUND_LIMITS = { maxInFlight: 256, maxQueued: 10_000 } as const;

export type SlotGrant =
  { ok: true; release: () => void } | { ok: false; reason: 'overloaded'; message: string };

export interface OutboundLimiter {
  /** Waits for a slot; `ok: false` at once when the queue is full. Rejects when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<SlotGrant>;
  readonly inFlight: number;
  readonly queued: number;
  /** the most requests that were ever in flight at once (tests, bench) */
  readonly peakInFlight: number;
}

/** @example const slot = await limiter.acquire(signal); if (slot.ok) try { await post() } finally { slot.release() } */
export function createOutboundLimiter(limits: OutboundLimits = {}): OutboundLimiter {
  const maxInFlight = Math.max(1, limits.maxInFlight ?? DEFAULT_OUTBOUND_LIMITS.maxInFlight);
  const maxQueued = Math.max(0, limits.maxQueued ?? DEFAULT_OUTBOUND_LIMITS.maxQueued);
  const waiting = new Set<() => void>();
  let inFlight = 0;
  let peak = 0;

  const grant = (): SlotGrant => {
    inFlight++;
    peak = Math.max(peak, inFlight);
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        inFlight--;
        const next = waiting.values().next();
        if (!next.done) {
          waiting.delete(next.value);
          next.value();
        }
      },
    };
  };

  return {
    acquire(signal) {
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (inFlight < maxInFlight && waiting.size === 0) return Promise.resolve(grant());
      if (waiting.size >= maxQueued) {
        return Promise.resolve({
          ok: false,
          reason: 'overloaded',
          message: `outbound limit reached (${maxInFlight} requests in flight, ${maxQueued} queued): the peer is not answering fast enough`,
        });
      }
      return new Promise<SlotGrant>((resolve, reject) => {
        const onAbort = (): void => {
          waiting.delete(wake);
          reject(abortReason(signal as AbortSignal));
        };
        const wake = (): void => {
          signal?.removeEventListener('abort', onAbort);
          resolve(grant());
        };
        waiting.add(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
    get inFlight() {
      return inFlight;
    },
    get queued() {
      return waiting.size;
    },
    get peakInFlight() {
      return peak;
    },
  };
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error('aborted');
}
