import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { createPlatformCore } from '../../../src/platform/index.js';

/** A promise and its settling functions. */
function deferred(): { promise: Promise<string>; resolve: () => void; reject: () => void } {
  let resolve = (): void => {};
  let reject = (): void => {};
  const promise = new Promise<string>((res, rej) => {
    resolve = () => res('done');
    reject = () => rej(new Error('failed'));
  });
  return { promise, resolve, reject };
}

describe('core.stop waits for tracked work (counted, not kept one by one, so memory stays flat)', () => {
  it('every caller of stop() waits until the last tracked piece of work settles', async () => {
    const core = createPlatformCore({ clock: createVirtualClock() });
    const one = deferred();
    const two = deferred();
    expect(core.track(one.promise)).toBe(one.promise);
    void core.track(two.promise);
    const stopped: string[] = [];
    const a = core.stop().then(() => stopped.push('a'));
    const b = core.stop().then(() => stopped.push('b'));
    one.resolve();
    await one.promise;
    // every microtask the first settling could start has run
    await new Promise((turn) => setImmediate(turn));
    expect(stopped).toEqual([]);
    two.reject();
    await Promise.all([a, b]);
    expect(stopped.sort()).toEqual(['a', 'b']);
  });

  it('stop() with nothing tracked, or after it all settled, ends at once', async () => {
    const core = createPlatformCore({ clock: createVirtualClock() });
    const work = deferred();
    void core.track(work.promise);
    work.resolve();
    await work.promise;
    await expect(core.stop()).resolves.toBeUndefined();
    await expect(
      createPlatformCore({ clock: createVirtualClock() }).stop(),
    ).resolves.toBeUndefined();
  });
});
