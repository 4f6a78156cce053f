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
