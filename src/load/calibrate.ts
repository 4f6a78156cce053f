/**
 * How fast this machine can generate a role's load (honest limits): a short closed
 * loop against an in-process endpoint that answers at once. The endpoint shares the process,
 * so the figure is a floor, not a ceiling; `load` warns when the asked rate is above it.
 */
import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClock } from '../clock.js';
import { createOutboundLimiter } from '../platform/outbound-limiter.js';
import { createLoadTarget, type LoadTargetOptions } from './targets.js';

export interface CalibrationResult {
  /** series per second the generator completed against a no-op endpoint */
  capacityPerSecond: number;
}

/**
 * @example const { capacityPerSecond } = await calibrate({ ...targetOptions, durationMs: 500 });
 */
export async function calibrate(
  options: Omit<LoadTargetOptions, 'url' | 'clock'> & {
    durationMs?: number;
    /** run first, not counted (default 250 ms) */
    warmUpMs?: number;
    workers?: number;
  },
): Promise<CalibrationResult> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"result":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const target = createLoadTarget({
      ...options,
      url: `http://127.0.0.1:${port}`,
      clock: createClock(),
    });
    const workers = options.workers ?? 32;
    const limiter = createOutboundLimiter({
      maxInFlight: workers,
      maxQueued: workers,
      maxSeries: workers,
    });
    const stop = new AbortController();
    setMaxListeners(0, stop.signal); // one listener per series in flight
    let index = 0;
    const loop = async (ms: number): Promise<number> => {
      const until = performance.now() + ms;
      let done = 0;
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (performance.now() < until) {
            await target.fire(index++, false, limiter, stop.signal);
            done++;
          }
        }),
      );
      return done;
    };
    // not counted: the connections opening and the code's first runs (unoptimised). Counted
    // from a cold start, the same machine read 154 to 1255 series a second, and a run at
    // 500/s it then held was warned about.
    await loop(options.warmUpMs ?? 250);
    const started = performance.now();
    const done = await loop(options.durationMs ?? 500);
    return { capacityPerSecond: Math.round(done / ((performance.now() - started) / 1000)) };
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
