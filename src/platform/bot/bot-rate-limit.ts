import type { Clock } from '../../clock.js';

/** A request limit per token: at most `max` requests per `windowMs` of protocol time. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * spec 7.2, 8: 429 exists for an exceeded request limit, whose value is not shown.
 * Assumed default (README, --help): 100 requests per second per token.
 */
export const DEFAULT_BOT_RATE_LIMIT: RateLimit = { max: 100, windowMs: 1000 };

export interface RateLimiter {
  /** Counts a request; returns how long to wait (ms) when over the limit, else 0. */
  take(key: string): number;
}

/**
 * A fixed-window counter per key on the one clock (so `--time-scale` and virtual clocks apply).
 * @example const limiter = createRateLimiter(clock, { max: 2, windowMs: 1000 }); limiter.take('t') // 0
 */
export function createRateLimiter(clock: Clock, limit: RateLimit): RateLimiter {
  const windows = new Map<string, { start: number; count: number }>();
  return {
    take(key) {
      const now = clock.now();
      let window = windows.get(key);
      if (!window || now - window.start >= limit.windowMs) {
        window = { start: now, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      if (window.count <= limit.max) return 0;
      return Math.max(1, window.start + limit.windowMs - now);
    },
  };
}

/**
 * Parses `<n>/<window>`: `20/1s`, `100/500ms`, `600/1m`, `5` (per second).
 * @example parseRateLimit('20/1s') // { max: 20, windowMs: 1000 }
 */
export function parseRateLimit(text: string): RateLimit | undefined {
  const match = /^\s*(\d+)\s*(?:\/\s*(\d+(?:\.\d+)?)?\s*(ms|s|m)?\s*)?$/.exec(text);
  if (!match) return undefined;
  const max = Number(match[1]);
  const amount = match[2] === undefined ? 1 : Number(match[2]);
  const unit = match[3] ?? 's';
  const windowMs = amount * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  if (!(max > 0) || !(windowMs > 0)) return undefined;
  return { max, windowMs };
}
