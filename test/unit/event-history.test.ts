import { describe, expect, it } from 'vitest';
import { createEventHistory } from '../../src/platform/event-history.js';
import type { PlatformEvent } from '../../src/platform/events.js';

/** A history fed by hand: `emit(n)` announces n `agents` events. */
function fed(keep: number) {
  let listener: ((event: PlatformEvent) => void) | undefined;
  const history = createEventHistory((l) => {
    listener = l;
    return () => (listener = undefined);
  }, keep);
  const emit = (n: number) => {
    for (let i = 0; i < n; i++) listener!({ type: 'agents', online: true, protocolMs: i });
  };
  return { history, emit };
}

describe('event history (platform --web: the console after a reload)', () => {
  it('numbers the events from 1 and keeps the newest `keep`', () => {
    const { history, emit } = fed(3);
    emit(10);
    expect(history.after(0).map((e) => e.seq)).toEqual([8, 9, 10]);
    expect(history.after(8).map((e) => e.seq)).toEqual([9, 10]);
    expect(history.after(10)).toEqual([]);
    expect(JSON.parse(history.after(9)[0]!.text)).toEqual({
      type: 'agents',
      online: true,
      protocolMs: 9,
    });
  });

  it('sends everything kept for a number it never gave (the platform restarted)', () => {
    const { history, emit } = fed(5);
    emit(2);
    expect(history.after(500).map((e) => e.seq)).toEqual([1, 2]);
    expect(history.after(Number.NaN).map((e) => e.seq)).toEqual([1, 2]);
  });

  it('hands new events to followers with their number, until they stop', () => {
    const { history, emit } = fed(2);
    const seen: number[] = [];
    const stop = history.follow((e) => seen.push(e.seq));
    emit(2);
    stop();
    emit(1);
    expect(seen).toEqual([1, 2]);
    expect(history.after(0).map((e) => e.seq)).toEqual([2, 3]);
  });

  it('gives only the newest `keep` however many events passed', () => {
    const { history, emit } = fed(4);
    emit(1000);
    expect(history.after(0).map((e) => e.seq)).toEqual([997, 998, 999, 1000]);
  });
});
