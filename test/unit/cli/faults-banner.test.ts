/**
 * `platform --fault ...` says in its banner that faults are on (src/cli/serving-flags.ts):
 * before, nothing told a newcomer why the first requests met 503s.
 */
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { faultsBannerText, withFaultsLine } from '../../../src/cli/serving-flags.js';
import { formatProxyListening } from '../../../src/cli/render/proxy.js';

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

describe('withFaultsLine', () => {
  const plain = new Chalk({ level: 0 });
  const banner = () => 'listening  http://127.0.0.1:1';

  it("ends listen's and hook-target's banner with the faults they serve", () => {
    const format = withFaultsLine(banner, { fault: { kind: 'status', status: 503 } }, 'message');
    expect(format(undefined, plain)).toBe(
      'listening  http://127.0.0.1:1\n  faults --fault status:503 (from the first request)',
    );
  });

  it('says --fail-first fails the first attempts of each message or event, not the first request', () => {
    // listen counts attempts per message.id (else body); hook-target per distinct body
    expect(withFaultsLine(banner, { failFirst: 2 }, 'message')(undefined, plain)).toBe(
      'listening  http://127.0.0.1:1\n  faults --fail-first 2 (the first 2 attempts of each message fail, from the first request)',
    );
    expect(withFaultsLine(banner, { failFirst: 1 }, 'distinct event')(undefined, plain)).toBe(
      'listening  http://127.0.0.1:1\n  faults --fail-first 1 (the first attempt of each distinct event fails, from the first request)',
    );
  });

  it('leaves the banner alone without faults', () => {
    expect(withFaultsLine(banner, undefined, 'message')).toBe(banner);
    expect(withFaultsLine(banner, {}, 'message')).toBe(banner);
  });
});

describe('formatProxyListening', () => {
  it('ends the proxy banner with the faults it answers in place of the upstream, and their leg', () => {
    const plain = new Chalk({ level: 0 });
    const banner = formatProxyListening(
      {
        type: 'listening',
        url: 'http://127.0.0.1:1',
        iface: 'hooks',
        legs: [],
        faults: { flags: '--fail-first 2', leg: 'receiver' },
      },
      plain,
    );
    expect(banner.split('\n').at(-1)).toBe(
      '  faults                     --fail-first 2 on the receiver leg (from the first request; --fault-on picks the leg)',
    );
  });
});
