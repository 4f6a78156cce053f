/**
 * One clock for every protocol timer, so tests and `--time-scale` change time in one place: redelivery 3 s, bot timeout 3 s,
 * hook timeout. `timeScale` multiplies every protocol duration: 0.01 turns the 9 s
 * redelivery series into 90 ms of wall time while reports still show protocol time.
 * The virtual clock moves only when told to (tests, `replay`).
 */
import { offAbort, onAbort } from './io/on-abort.js';
export interface Timer {
  cancel(): void;
}

export interface Clock {
  readonly kind: 'real' | 'virtual';
  /** Protocol-time multiplier: wall ms = protocol ms x timeScale. */
  readonly timeScale: number;
  /** Protocol milliseconds since the clock started. */
  now(): number;
  /** Wall-clock milliseconds since the clock started. */
  wallNow(): number;
  /**
   * Unix seconds at protocol now (the wall time the clock started, plus protocol time): the
   * `timestamp` fields of the spec, so a virtual or scaled run stamps protocol time.
   */
  epochSeconds(): number;
  /** Runs `fn` after `ms` of protocol time. */
  setTimer(ms: number, fn: () => void): Timer;
  /** Resolves after `ms` of protocol time; rejects with the signal's reason when aborted. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Marks async work (an HTTP attempt) as in flight, so a virtual clock waits for it before jumping. */
  track<T>(work: Promise<T>): Promise<T>;
}

export interface ClockOptions {
  /** default 1 (faithful); must be > 0 */
  timeScale?: number;
}

function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error
    ? reason
    : new DOMException('The operation was aborted', 'AbortError');
}

function sleepOn(clock: Pick<Clock, 'setTimer'>, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    // one listener per signal, not per sleep: every redelivery wait sleeps on the core's signal
    const onStop = (): void => {
      timer.cancel();
      reject(abortReason(signal as AbortSignal));
    };
    const timer = clock.setTimer(ms, () => {
      if (signal) offAbort(signal, onStop);
      resolve();
    });
    if (signal) onAbort(signal, onStop);
  });
}

/**
 * A real clock whose protocol time runs `1 / timeScale` times faster than the wall.
 * @example const clock = createClock({ timeScale: 0.01 }); await clock.sleep(3000); // ~30 ms
 */
export function createClock(options: ClockOptions = {}): Clock {
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0) || !Number.isFinite(timeScale)) {
    throw new RangeError(`timeScale must be a positive number, got ${timeScale}`);
  }
  const start = performance.now();
  const startEpochMs = Date.now();
  const clock: Clock = {
    kind: 'real',
    timeScale,
    now: () => (performance.now() - start) / timeScale,
    wallNow: () => performance.now() - start,
    epochSeconds: () => Math.floor((startEpochMs + (performance.now() - start) / timeScale) / 1000),
    setTimer(ms, fn) {
      // Node timers may fire up to ~1 ms before performance.now() says they are due; at a
      // small time scale that is whole protocol seconds, so re-arm for what is left.
      const due = performance.now() + Math.max(0, ms * timeScale);
      let handle: ReturnType<typeof setTimeout>;
      const arm = (wait: number): void => {
        handle = setTimeout(() => {
          const left = due - performance.now();
          if (left > 0) arm(left);
          else fn();
        }, wait);
      };
      arm(Math.max(0, ms * timeScale));
      return { cancel: () => clearTimeout(handle) };
    },
    sleep: (ms, signal) => sleepOn(clock, ms, signal),
    track: (work) => work,
  };
  return clock;
}

interface PendingTimer {
  at: number;
  seq: number;
  fn: () => void;
  cancelled: boolean;
}

export interface VirtualClock extends Clock {
  readonly kind: 'virtual';
  /** Moves protocol time forward by `ms`, firing due timers in order. */
  advance(ms: number): Promise<void>;
  /** Protocol time of the next pending timer, if any. */
  nextTimerAt(): number | undefined;
  /**
   * Resolves once no tracked work is in flight (or what is in flight made no progress for
   * a few event-loop rounds: it waits on this clock) and the IO queue had a turn.
   */
  settle(): Promise<void>;
  /**
   * Lets tracked work finish, then jumps to the next timer, until `done()` is true or no
   * timer is left (false) or `limitMs` of protocol time passed (false).
   */
  runUntil(done: () => boolean, limitMs?: number): Promise<boolean>;
}

const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** One turn of the event loop through its poll phase (where socket IO is delivered). */
const idleRound = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

/**
 * A clock that only moves when told: a 9 s redelivery series takes milliseconds.
 * @example const clock = createVirtualClock(); await clock.runUntil(() => delivered);
 */
export function createVirtualClock(
  options: {
    settleRounds?: number;
    /**
     * false: every party is in this process (the in-process transport), so tracked
     * work progresses within plain loop turns and no settle round waits a millisecond for
     * socket IO (default true)
     */
    socketIo?: boolean;
  } = {},
): VirtualClock {
  const settleRounds = options.settleRounds ?? 12;
  // the last rounds of a settle wait a millisecond for IO slower than one poll phase
  const firstIdleRound = options.socketIo === false ? settleRounds : settleRounds - 2;
  // loop turns given before looking at tracked work, and after it changed: socket IO needs a
  // few poll phases to land; in process, one turn runs every queued callback and microtask
  const turns = options.socketIo === false ? 1 : 3;
  let current = 0;
  let seq = 0;
  let inFlight = 0;
  // Counts what can unblock tracked work (timers set or fired, work started or ended); a
  // settle that found everything stalled needs no new wait while it is unchanged.
  let activity = 0;
  let stalledAt = -1;
  const wallStart = performance.now();
  const startEpochMs = Date.now();
  const timers: PendingTimer[] = [];

  const due = (): PendingTimer | undefined => {
    let best: PendingTimer | undefined;
    for (const t of timers) {
      if (t.cancelled) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.seq < best.seq)) best = t;
    }
    return best;
  };
  const remove = (t: PendingTimer): void => {
    const i = timers.indexOf(t);
    if (i >= 0) timers.splice(i, 1);
  };

  // Wakes settle() whenever tracked work ends.
  let wake: (() => void) | undefined;
  const settle = async (): Promise<void> => {
    for (let i = 0; i < turns; i++) await tick();
    // Wait for tracked work (an HTTP attempt) to finish. Loopback IO that is ready arrives
    // within a few event-loop rounds; work that makes no progress for `settleRounds` rounds
    // waits on this clock (a peer that hangs until our timeout, a body that trickles).
    while (inFlight > 0 && activity !== stalledAt) {
      let changed = false;
      const woken = new Promise<void>((resolve) => {
        wake = () => {
          changed = true;
          resolve();
        };
      });
      // Wake as soon as tracked work ends; otherwise give IO a few rounds before jumping.
      // Loopback IO between in-process peers is ready at the next poll phase, so most rounds
      // are plain loop turns; the last ones wait a millisecond for anything slower.
      for (let round = 0; round < settleRounds && !changed; round++) {
        await Promise.race([woken, round < firstIdleRound ? tick() : idleRound()]);
      }
      if (!changed) {
        stalledAt = activity;
        break;
      }
      for (let i = 0; i < turns; i++) await tick();
    }
    wake = undefined;
  };

  const clock: VirtualClock = {
    kind: 'virtual',
    timeScale: 0,
    now: () => current,
    wallNow: () => performance.now() - wallStart,
    epochSeconds: () => Math.floor((startEpochMs + current) / 1000),
    setTimer(ms, fn) {
      const t: PendingTimer = { at: current + Math.max(0, ms), seq: seq++, fn, cancelled: false };
      timers.push(t);
      activity++;
      return {
        cancel: () => {
          t.cancelled = true;
          remove(t);
        },
      };
    },
    sleep: (ms, signal) => sleepOn(clock, ms, signal),
    track(work) {
      inFlight++;
      activity++;
      return work.finally(() => {
        inFlight--;
        activity++;
        wake?.();
      });
    },
    nextTimerAt: () => due()?.at,
    settle,
    async advance(ms) {
      const target = current + Math.max(0, ms);
      for (;;) {
        const next = due();
        if (!next || next.at > target) break;
        current = next.at;
        remove(next);
        activity++;
        next.fn();
        await settle();
      }
      current = target;
    },
    async runUntil(done, limitMs = Number.POSITIVE_INFINITY) {
      const limit = current + limitMs;
      for (;;) {
        await settle();
        if (done()) return true;
        const next = due();
        if (!next || next.at > limit) return done();
        current = next.at;
        remove(next);
        activity++;
        next.fn();
      }
    },
  };
  return clock;
}

/**
 * Protocol ms that last at least `wallMs` on the wall. For a safety limit rather than a spec
 * timer (how long svc-cli waits for its own simulator's answer): at `--time-scale 0.1` a
 * 10 s limit was 1 wall second, which a starved machine took to answer a replay's first
 * customer message, and the step failed though nothing was wrong with the peer. On the
 * virtual clock and at scale 1 and above it is `wallMs` as given.
 * @example postJson({ url, body, clock, timeoutMs: atLeastWallMs(10_000, clock) })
 */
export function atLeastWallMs(wallMs: number, clock: Pick<Clock, 'kind' | 'timeScale'>): number {
  return clock.kind === 'real' && clock.timeScale < 1 ? wallMs / clock.timeScale : wallMs;
}

/**
 * What a protocol duration is on the wall when the clock is scaled, for a timing reason:
 * at `--time-scale 0.05` a 3 s limit is 150 wall ms, which a busy machine can miss.
 * Empty at scale 1 and above, and on the virtual clock.
 * @example `no reply within 3000 ms${describeWallTime(3000, clock)}`
 */
export function describeWallTime(protocolMs: number, clock: Pick<Clock, 'timeScale'>): string {
  const scale = clock.timeScale;
  // scale >= 1 leaves at least the protocol figure on the wall: nothing to warn about
  if (!(scale > 0) || scale >= 1) return '';
  const wall = Math.round(protocolMs * scale * 10) / 10;
  return ` (${wall} ms of wall time at time scale ${scale}; on a busy machine raise the time scale)`;
}
