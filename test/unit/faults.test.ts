import { describe, expect, it } from 'vitest';
import { createVirtualClock, type VirtualClock } from '../../src/clock.js';
import { applySlowBody } from '../../src/faults/slow-body.js';
import type { ReplyWire } from '../../src/http/wire.js';
import {
  createFaultInjector,
  describeFault,
  faultEffect,
  faultPlanBodySchema,
  faultPlanText,
  faultStep,
  switchFaults,
  type FaultSwitch,
  type FaultDecision,
  messageKeyOf,
  parseFault,
  type Fault,
} from '../../src/faults/index.js';

describe('parseFault (--fault syntax)', () => {
  it.each([
    ['none', { kind: 'none' }],
    ['status:503', { kind: 'status', status: 503 }],
    ['reset', { kind: 'reset' }],
    ['hang', { kind: 'hang' }],
    ['bad-json', { kind: 'bad-json' }],
    ['error:busy:try: later', { kind: 'error', code: 'busy', message: 'try: later' }],
    ['slow-body', { kind: 'slow-body', durationMs: 5000 }],
    ['slow-body:200', { kind: 'slow-body', durationMs: 200 }],
  ])('%s', (text, fault) => {
    expect(parseFault(text)).toEqual({ ok: true, fault });
    // describeFault gives the flag syntax back (slow-body spells out its default)
    if (text !== 'slow-body') expect(describeFault(fault as Fault)).toBe(text);
  });

  it.each(['status:42', 'status:', 'error:', 'slow-body:-1', 'explode'])('rejects %s', (text) => {
    expect(parseFault(text).ok).toBe(false);
  });
});

describe('createFaultInjector', () => {
  it('failFirst counts attempts per message key', () => {
    const inj = createFaultInjector({ failFirst: 2 });
    const kinds = ['a', 'b', 'a', 'a', 'b', 'b'].map((k) => inj.decide(k).fault.kind);
    expect(kinds).toEqual(['status', 'status', 'status', 'none', 'status', 'none']);
  });

  it('sequence goes by arrival order, then the other rules', () => {
    const inj = createFaultInjector({ sequence: [{ kind: 'reset' }, { kind: 'hang' }] });
    expect(['x', 'y', 'z'].map((k) => inj.decide(k).fault.kind)).toEqual(['reset', 'hang', 'none']);
  });

  it('a seeded rate is reproducible and roughly the rate', () => {
    const run = (seed: number) => {
      const inj = createFaultInjector({ fault: { kind: 'reset' }, rate: 0.3, seed });
      return Array.from({ length: 200 }, (_, i) => inj.decide(String(i)).fault.kind);
    };
    expect(run(7)).toEqual(run(7));
    expect(run(7)).not.toEqual(run(8));
    const share = run(7).filter((k) => k === 'reset').length / 200;
    expect(share).toBeGreaterThan(0.2);
    expect(share).toBeLessThan(0.4);
  });

  it('messageKeyOf: message.id, else a body hash', () => {
    expect(messageKeyOf({ message: { id: 'm-1' } }, 'raw')).toBe('id:m-1');
    expect(messageKeyOf({ message: {} }, 'a')).toMatch(/^sha1:/);
    expect(messageKeyOf({}, 'a')).not.toBe(messageKeyOf({}, 'b'));
  });
});

describe('a plan switched while serving (PUT /_sim/faults)', () => {
  it('reads back what it was given: faultPlanText is the body PUT takes', () => {
    const body = {
      delayMs: 20,
      failFirst: 1,
      failWith: 'status:502',
      fault: 'error:busy:try later',
      rate: 0.25,
      seed: 7,
      sequence: ['none', 'reset', 'hang', 'bad-json', 'slow-body:300'],
    };
    const plan = faultPlanBodySchema.parse({ version: 1, ...body });
    expect(plan.fault).toEqual({ kind: 'error', code: 'busy', message: 'try later' });
    expect(faultPlanText(plan)).toEqual(body);
    expect(faultPlanBodySchema.parse({})).toEqual({});
  });

  it('starts attempt counts again and answers the plan before; {} is no plan', () => {
    const faults: FaultSwitch = { injector: undefined };
    expect(switchFaults(faults, { failFirst: 1 })).toBeUndefined();
    expect(faults.injector?.decide('m-1').fault.kind).toBe('status');
    expect(faults.injector?.decide('m-1').fault.kind).toBe('none');
    expect(switchFaults(faults, { failFirst: 1 })).toEqual({ failFirst: 1 });
    expect(faults.injector?.decide('m-1').fault.kind).toBe('status');
    expect(switchFaults(faults, {})).toEqual({ failFirst: 1 });
    expect(faults.injector).toBeUndefined();
  });
});

describe('slow-body', () => {
  // a stand-in wire that notes the protocol time of every write
  const fakeResponse = (clock: VirtualClock) => {
    const writes: Array<{ at: number; text: string }> = [];
    let endedAt: number | undefined;
    const wire: ReplyWire = {
      send: () => undefined,
      start: () => undefined,
      write: (text: string) => void writes.push({ at: clock.now(), text }),
      end: () => void (endedAt = clock.now()),
      reset: () => undefined,
      hang: () => undefined,
      onClose: () => () => undefined,
    };
    return { wire, writes, endedAt: () => endedAt };
  };

  it.each([
    ['{"result":"ok"}', 15],
    ['{"result":"ok","id":1}', 11], // 22 bytes: 11 pieces of 2
    [JSON.stringify({ t: 'x'.repeat(92) }), 20], // 100 bytes: 20 pieces of 5
  ])('spreads %s over the whole duration in %i pieces', async (text, pieces) => {
    const clock = createVirtualClock();
    const fake = fakeResponse(clock);
    const applying = applySlowBody(
      {
        wire: fake.wire,
        clock,
        normal: { status: 200, body: JSON.parse(text) as unknown },
      },
      3500,
    );
    await clock.runUntil(() => fake.endedAt() !== undefined);
    await applying;
    expect(fake.writes.map((w) => w.text).join('')).toBe(JSON.stringify(JSON.parse(text)));
    expect(fake.writes).toHaveLength(pieces);
    expect(fake.endedAt()).toBeCloseTo(3500, 6);
  });
});

describe('faultEffect (the one reading of a fault)', () => {
  it.each([
    ['none', { kind: 'answer' }],
    [
      'status:503',
      {
        kind: 'reply',
        status: 503,
        body: '{"error":{"code":"injected","message":"svc-cli injected HTTP 503"}}',
      },
    ],
    [
      'error:busy:later',
      { kind: 'reply', status: 200, body: '{"error":{"code":"busy","message":"later"}}' },
    ],
    ['bad-json', { kind: 'reply', status: 200, body: '{"result": ok' }],
    ['reset', { kind: 'drop', how: 'reset' }],
    ['hang', { kind: 'drop', how: 'hang' }],
    ['slow-body:200', { kind: 'slow', durationMs: 200 }],
  ])('%s', (text, effect) => {
    const parsed = parseFault(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(faultEffect(parsed.fault)).toEqual(effect);
  });

  it('the step waits the delay, then answers in place of the rest or runs it', async () => {
    const clock = createVirtualClock();
    const seen: string[] = [];
    const step = faultStep<{ decision?: FaultDecision; key: string }>({
      decide: (ctx) =>
        createFaultInjector({ delayMs: 50, sequence: [{ kind: 'reset' }] }).decide(ctx.key),
      wait: async (_ctx, decision) => {
        await clock.sleep(decision.delayMs);
        seen.push(`waited ${decision.delayMs}`);
        return true;
      },
      gone: () => void seen.push('gone'),
      inject: (_ctx, effect) => {
        seen.push(`injected ${effect.kind}`);
        return Promise.resolve();
      },
    });
    const ctx: { decision?: FaultDecision; key: string } = { key: 'k' };
    const done = step(ctx, () => void seen.push('rest'));
    await clock.advance(50);
    await done;
    expect(seen).toEqual(['waited 50', 'injected drop']);
    expect(ctx.decision?.fault).toEqual({ kind: 'reset' });
  });
});
