import { describe, expect, it } from 'vitest';
import { replayFrom } from '../../../src/platform/control-api.js';

describe('replayFrom: the kept events a new GET /_sim/events starts with', () => {
  it("resumes after a reconnecting EventSource's Last-Event-ID, whatever ?history says", () => {
    expect(replayFrom('41', null)).toBe(41);
    expect(replayFrom('0', '1')).toBe(0);
  });

  it('sends every kept event with ?history=1, none otherwise', () => {
    expect(replayFrom(undefined, '1')).toBe(0);
    expect(replayFrom(undefined, null)).toBeUndefined();
    expect(replayFrom(undefined, '0')).toBeUndefined();
  });

  it('ignores a Last-Event-ID that is not a number', () => {
    expect(replayFrom('abc', null)).toBeUndefined();
    expect(replayFrom('-3', '1')).toBe(0);
  });
});
