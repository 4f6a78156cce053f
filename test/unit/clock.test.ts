import { describe, expect, it } from 'vitest';
import { atLeastWallMs, createClock, createVirtualClock } from '../../src/clock.js';

describe('virtual clock', () => {
  it('fires timers in protocol-time order only when advanced', async () => {
    const clock = createVirtualClock();
    const fired: string[] = [];
    clock.setTimer(6000, () => fired.push('6s'));
    clock.setTimer(3000, () => fired.push('3s'));
    await clock.advance(2999);
    expect(fired).toEqual([]);
    await clock.advance(1);
    expect(fired).toEqual(['3s']);
    expect(clock.now()).toBe(3000);
    await clock.advance(10_000);
    expect(fired).toEqual(['3s', '6s']);
    expect(clock.now()).toBe(13_000);
  });

  it('cancels timers and rejects sleeps on abort', async () => {
    const clock = createVirtualClock();
    const fired: string[] = [];
    clock.setTimer(10, () => fired.push('x')).cancel();
    const controller = new AbortController();
    const sleeping = clock.sleep(3000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(sleeping).rejects.toThrow('stop');
    await clock.advance(5000);
    expect(fired).toEqual([]);
    expect(clock.nextTimerAt()).toBeUndefined();
  });

  it('runUntil jumps from timer to timer until the condition holds', async () => {
    const clock = createVirtualClock();
    let attempts = 0;
    const attempt = (): void => {
      attempts++;
      if (attempts < 3) clock.setTimer(3000, attempt);
    };
    attempt();
    expect(await clock.runUntil(() => attempts === 3)).toBe(true);
    expect(clock.now()).toBe(6000);
    expect(await clock.runUntil(() => attempts === 4)).toBe(false);
  });
});

describe('real clock', () => {
  it('rejects a non-positive time scale', () => {
    expect(() => createClock({ timeScale: 0 })).toThrow(RangeError);
    expect(() => createClock({ timeScale: -1 })).toThrow(RangeError);
  });

  it('scales protocol time: a 3 s sleep at scale 0.001 is about 3 ms of wall time', async () => {
    const clock = createClock({ timeScale: 0.001 });
    await clock.sleep(3000);
    expect(clock.now()).toBeGreaterThanOrEqual(2900);
  });
});

describe('atLeastWallMs: a safety limit that a small time scale does not shorten', () => {
  it('gives the protocol ms that last the wall ms asked for on a scaled clock', () => {
    expect(atLeastWallMs(10_000, createClock({ timeScale: 0.1 }))).toBeCloseTo(100_000);
    expect(atLeastWallMs(10_000, createClock({ timeScale: 0.5 }))).toBe(20_000);
  });

  it('is the figure as given at scale 1 and above, and on the virtual clock', () => {
    expect(atLeastWallMs(10_000, createClock())).toBe(10_000);
    expect(atLeastWallMs(10_000, createClock({ timeScale: 5 }))).toBe(10_000);
    expect(atLeastWallMs(10_000, createVirtualClock())).toBe(10_000);
  });
});
