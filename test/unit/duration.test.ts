import { describe, expect, it } from 'vitest';
import { parseDuration, readDuration } from '../../src/duration.js';
import { SvcError } from '../../src/errors.js';

describe('durations, as every command writes them', () => {
  it.each([
    ['500ms', 500],
    ['60s', 60_000],
    ['2m', 120_000],
    ['1h', 3_600_000],
    ['1.5', 1500],
  ])('%s is %d ms (a bare number counts seconds)', (text, ms) => {
    expect(parseDuration(text, '--duration')).toBe(ms);
  });

  it('a bare number counts what the flag says: ms for --timeout', () => {
    expect(readDuration('250', 'ms')).toBe(250);
    expect(readDuration('10s', 'ms')).toBe(10_000);
    expect(readDuration('soon', 'ms')).toBeUndefined();
  });

  it('no duration is an input error whose code names no command', () => {
    const error = (() => {
      try {
        parseDuration('forever', '--wait');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(SvcError);
    expect(error).toMatchObject({ code: 'SVC_E_DURATION', category: 'input' });
    expect((error as SvcError).message).toMatchInlineSnapshot(
      `"Could not read --wait "forever": a duration is a number with ms, s, m or h."`,
    );
  });
});
