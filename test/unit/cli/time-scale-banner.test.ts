import { describe, expect, it } from 'vitest';
import { describeTimeScale } from '../../../src/cli/commands/platform-run.js';

describe("platform's time-scale banner", () => {
  it('says how much faster or slower than the wall the timers run, either side of 1', () => {
    expect(describeTimeScale(0.1)).toBe('protocol timers run 10x faster than the wall');
    expect(describeTimeScale(0.3)).toBe('protocol timers run 3.33x faster than the wall');
    expect(describeTimeScale(2)).toBe('protocol timers run 2x slower than the wall');
    expect(describeTimeScale(1.5)).toBe('protocol timers run 1.5x slower than the wall');
  });
});
