import { unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * test/helpers/free-port.ts is shared by test files that run in separate processes and
 * threads, each with its own copy of the module: a port one copy handed out must not be handed
 * out by another (two copies that draw the same random numbers stand for two that collide).
 */
describe('freePort across copies of the module', () => {
  const given: number[] = [];
  afterEach(() => {
    vi.restoreAllMocks();
    for (const port of given.splice(0))
      try {
        unlinkSync(join(tmpdir(), 'svc-cli-test-ports', String(port)));
      } catch {
        // already gone
      }
  });

  it('never gives the same port twice, even when both copies draw the same numbers', async () => {
    const base = Math.random();
    let drawn = 0;
    vi.spyOn(Math, 'random').mockImplementation(() => (base + drawn++ * 0.0137) % 1);
    vi.resetModules();
    const first = await import('../helpers/free-port.js');
    vi.resetModules();
    const second = await import('../helpers/free-port.js');
    expect(first).not.toBe(second);
    for (let i = 0; i < 3; i++) given.push(await first.freePort());
    drawn = 0; // the second copy draws what the first drew
    for (let i = 0; i < 3; i++) given.push(await second.freePort());
    expect(new Set(given).size).toBe(6);
  });
});
