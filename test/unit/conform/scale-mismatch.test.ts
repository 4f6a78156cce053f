import { describe, expect, it } from 'vitest';
import { describeScaleMismatch } from '../../../src/conversation/conform/platform-redelivery.js';

describe("conform platform's redelivery schedule needs both clocks on one scale", () => {
  it('runs when the scales agree, or differ by less than the tolerance over the 6 s series', () => {
    expect(describeScaleMismatch(0.2, 0.2, 1000)).toBeUndefined();
    expect(describeScaleMismatch(0, 0, 1000)).toBeUndefined();
    // 6000 ms x (0.21 / 0.2 - 1) = 300 ms of skew, within 1000
    expect(describeScaleMismatch(0.21, 0.2, 1000)).toBeUndefined();
    // a platform that does not say (not the svc simulator, or an older one)
    expect(describeScaleMismatch(undefined, 0.2, 1000)).toBeUndefined();
  });

  it('says why it skips otherwise, the virtual clock included', () => {
    expect(describeScaleMismatch(1, 0.05, 1000)).toBe(
      'the platform runs at time scale 1 and this conform at 0.05, so its 3 s would read as 60.00 s here; give both the same --time-scale',
    );
    expect(describeScaleMismatch(0.21, 0.2, 200)).toMatch(/would read as 3\.15 s here/);
    expect(describeScaleMismatch(0, 0.1, 1000)).toBe(
      'the platform runs on a virtual clock and this conform on a real one at time scale 0.1; give both the same --time-scale',
    );
    expect(describeScaleMismatch(0.1, 0, 1000)).toMatch(/this conform on a virtual clock/);
  });
});
