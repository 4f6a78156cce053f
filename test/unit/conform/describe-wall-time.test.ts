import { describe, expect, it } from 'vitest';
import { createClock, createVirtualClock, describeWallTime } from '../../../src/clock.js';

describe('a timing reason on a scaled clock says what the limit is on the wall', () => {
  it('names the wall milliseconds and the scale at --time-scale 0.05', () => {
    expect(describeWallTime(3000, createClock({ timeScale: 0.05 }))).toBe(
      ' (150 ms of wall time at time scale 0.05; on a busy machine raise the time scale)',
    );
  });

  it('adds nothing at scale 1 or above, or on the virtual clock', () => {
    expect(describeWallTime(3000, createClock())).toBe('');
    expect(describeWallTime(3000, createClock({ timeScale: 2 }))).toBe('');
    expect(describeWallTime(3000, createVirtualClock())).toBe('');
  });
});
