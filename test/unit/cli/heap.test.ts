import { describe, expect, it, vi } from 'vitest';
import type * as Heap from '../../../src/cli/heap.js';

/** A fresh copy of the module: what it did is kept per process, as the CLI runs once. */
async function fresh(): Promise<typeof Heap> {
  vi.resetModules();
  return import('../../../src/cli/heap.js');
}

describe('boundHeapGrowth (a serving command caps the old generation at 2x live)', () => {
  it('keeps a --heap-growing-percent given to node, and does not set it later', async () => {
    const { boundHeapGrowth } = await fresh();
    expect(boundHeapGrowth(['--heap-growing-percent=30'])).toBe('given');
    expect(boundHeapGrowth([])).toBe('given');
  });

  it('sets it when node was given none, once', async () => {
    const { boundHeapGrowth, HEAP_GROWING_PERCENT } = await fresh();
    expect(HEAP_GROWING_PERCENT).toBe(100);
    expect(boundHeapGrowth(['--max-semi-space-size=4'])).toBe('set');
    expect(boundHeapGrowth(['--heap-growing-percent=30'])).toBe('set');
  });
});
