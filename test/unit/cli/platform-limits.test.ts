import { describe, expect, it } from 'vitest';
import { parseIdleTimeout, parseSize } from '../../../src/cli/commands/platform-limits.js';
import { SvcError } from '../../../src/errors.js';

describe('platform memory flags', () => {
  it.each([
    ['30m', 1_800_000],
    ['90s', 90_000],
    ['90', 90_000],
    ['1h', 3_600_000],
    ['500ms', 500],
    ['off', 0],
    ['0', 0],
  ])('--chat-idle-timeout %s is %d protocol ms', (text, ms) => {
    expect(parseIdleTimeout(text)).toBe(ms);
  });

  it.each([
    ['100MB', 104_857_600],
    ['512k', 524_288],
    ['1GiB', 1_073_741_824],
    ['65536', 65_536],
  ])('--record-max-size %s is %d bytes', (text, bytes) => {
    expect(parseSize(text, '--record-max-size')).toBe(bytes);
  });

  it('refuses what is not a duration or a size, saying what would be right', () => {
    expect(() => parseIdleTimeout('soon')).toThrowError(SvcError);
    expect(() => parseIdleTimeout('soon')).toThrowError(
      'Could not read --chat-idle-timeout "soon": a duration is a number with ms, s, m or h, or off.',
    );
    expect(() => parseSize('12 parsecs', '--record-max-size')).toThrowError(
      'Could not read --record-max-size "12 parsecs": a size is at least 1KB, a number with B, KB, MB or GB.',
    );
    expect(() => parseSize('10', '--record-max-size')).toThrowError(/at least 1KB/);
  });
});
