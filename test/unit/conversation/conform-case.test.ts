import { describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { runCases } from '../../../src/conversation/conform/case.js';

describe('conform case timing', () => {
  it('gives each check its own protocol time, not the time since its case began', async () => {
    const clock = createVirtualClock();
    const [result] = await runCases(
      [
        {
          name: 'two checks',
          spec: ['8'],
          async run(ctx) {
            await ctx.check('slow first', async () => {
              await clock.advance(5000);
            });
            await ctx.check('quick second', async () => {
              await clock.advance(37);
            });
            ctx.skip('not run', 'no control API');
          },
        },
      ],
      { suite: 'integrator', clock },
    );
    expect(result!.steps.map((s) => [s.name, s.protocolMs])).toEqual([
      ['slow first', 5000],
      // "[5.037s]" on a check of a 3 s limit read as over it
      ['quick second', 37],
      ['not run', 0],
    ]);
    expect(result!.protocolMs).toBe(5037); // the case's heading keeps its total
  });
});

describe('conform cases cut short by a signal', () => {
  it('starts no case after the abort and leaves the one under way unfinished', async () => {
    const clock = createVirtualClock();
    const controller = new AbortController();
    const started: string[] = [];
    const seen: string[] = [];
    const results = await runCases(
      [
        {
          name: 'finishes',
          spec: ['4.1'],
          async run(ctx) {
            started.push('finishes');
            await ctx.check('quick', () => undefined);
          },
        },
        {
          name: 'under way',
          spec: ['8'],
          run: async (ctx) => {
            started.push('under way');
            await ctx.check('waits for ever', async () => {
              controller.abort();
              await new Promise(() => undefined);
            });
          },
        },
        {
          name: 'never started',
          spec: ['8'],
          run: () => Promise.resolve(void started.push('never started')),
        },
      ],
      { suite: 'platform', clock, signal: controller.signal, onCase: (r) => seen.push(r.name) },
    );
    expect(results.map((r) => r.name)).toEqual(['finishes']);
    expect(seen).toEqual(['finishes']);
    expect(started).toEqual(['finishes', 'under way']);
  });

  it('runs nothing when the signal has already aborted', async () => {
    const results = await runCases(
      [{ name: 'a', spec: [], run: () => Promise.reject(new Error('ran')) }],
      { suite: 'hooks', clock: createVirtualClock(), signal: AbortSignal.abort() },
    );
    expect(results).toEqual([]);
  });
});
