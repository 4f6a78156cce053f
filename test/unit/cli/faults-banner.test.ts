/**
 * `platform --fault ...` says in its banner that faults are on (src/cli/serving-flags.ts):
 * before, nothing told a newcomer why the first requests met 503s.
 */
import { describe, expect, it } from 'vitest';
import { faultsBannerText } from '../../../src/cli/serving-flags.js';

describe('faultsBannerText', () => {
  it('writes a plan in the flags that give it', () => {
    expect(
      faultsBannerText({ fault: { kind: 'status', status: 503 }, rate: 0.3, seed: 7 }),
    ).toMatchInlineSnapshot(`"--fault status:503 --fault-rate 0.3 --seed 7"`);
    expect(faultsBannerText({ failFirst: 2 })).toMatchInlineSnapshot(`"--fail-first 2"`);
    expect(
      faultsBannerText({ sequence: [{ kind: 'reset' }, { kind: 'status', status: 429 }] }),
    ).toMatchInlineSnapshot(`"sequence reset, status:429"`);
  });

  it('says nothing for no plan', () => {
    expect(faultsBannerText({})).toBeUndefined();
  });
});
