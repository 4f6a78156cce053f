import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIssue, validate } from '../../../src/contract/index.js';
import { changesFrom } from '../../../src/conversation/conform/fuzz/run.js';
import {
  agentMessageArbitraries,
  hookArbitraries,
  sweepCases,
} from '../../../src/conversation/conform/fuzz/payloads.js';

const all = [...hookArbitraries(), ...agentMessageArbitraries()];

describe('fuzz payloads from the contract', () => {
  it('covers every hook event and every agent message kind', () => {
    expect(all.map((p) => p.kind)).toEqual([
      'hook.call_event',
      'hook.chat_accepted',
      'hook.chat_assigned',
      'hook.chat_finished',
      'hook.chat_updated',
      'hook.offline_message',
      'channel.agent.text',
      'channel.agent.typing',
      'channel.agent.video',
      'channel.agent.audio',
      'channel.agent.voice',
      'channel.agent.photo',
      'channel.agent.sticker',
      'channel.agent.document',
      'channel.agent.location',
    ]);
  });

  it('changes about two places a case by default, and as many as --fuzz-changes asks', () => {
    const mean = (list: typeof all) => {
      let changed = 0;
      let cases = 0;
      for (const p of list)
        for (const m of fc.sample(p.arbitrary, { numRuns: 300, seed: 3 })) {
          changed += m.filter((x) => x !== undefined).length;
          cases++;
        }
      return changed / cases;
    };
    const byDefault = mean(all);
    expect(byDefault).toBeGreaterThanOrEqual(1.5);
    expect(byDefault).toBeLessThanOrEqual(2.5);
    expect(mean([...hookArbitraries(5), ...agentMessageArbitraries(5)])).toBeGreaterThan(4);
    // the plain sample is not a rarity: a one-event bug is met in every seed's run
    const plain = fc
      .sample(hookArbitraries()[5]!.arbitrary, { numRuns: 300, seed: 9 })
      .filter((m) => m.every((x) => x === undefined)).length;
    expect(plain).toBeGreaterThan(15);
  });

  it("the sweep starts with each kind's plain sample, then meets every edge", () => {
    const sweep = sweepCases(all);
    expect(sweep.slice(0, all.length).map((c) => c.p.kind)).toEqual(all.map((p) => p.kind));
    expect(sweep.slice(0, all.length).every((c) => c.m.every((x) => x === undefined))).toBe(true);
    for (const p of all) {
      const met = new Set(sweep.filter((c) => c.p === p).flatMap((c) => p.edgesOf(c.m)));
      expect(met.size, p.kind).toBe(p.edges.length);
      for (const c of sweep.filter((x) => x.p === p))
        expect(validate(p.kind, p.build(c.m)).ok, p.kind).toBe(true);
    }
    // each kind of string edge (lengths, astral, combining, markup, any) is an edge of its own
    expect(sweep.length).toBeLessThan(400);
  });

  it('generates only payloads validate accepts: fuzzing tests the peer, not the schema', () => {
    const broken: string[] = [];
    let count = 0;
    for (const p of all) {
      for (const m of fc.sample(p.arbitrary, { numRuns: 700, seed: 42 })) {
        const value = p.build(m);
        count++;
        const result = validate(p.kind, value);
        if (!result.ok) broken.push(`${p.kind}: ${result.errors.map(formatIssue).join('; ')}`);
      }
    }
    expect(count).toBeGreaterThanOrEqual(10_000);
    expect(broken.slice(0, 5)).toEqual([]);
  });

  it('reaches the edges: astral and combining text, 1000 code points, null, absent, both offline spellings, unknown fields', () => {
    const seen = new Set<string>();
    for (const p of all) {
      for (const m of fc.sample(p.arbitrary, { numRuns: 400, seed: 7 })) {
        const value = p.build(m);
        const changes = changesFrom(p.base, value).join('\n');
        const text = JSON.stringify(value);
        if (/[\u{10000}-\u{10FFFF}]/u.test(text)) seen.add('astral');
        if (/\u0301|\u0308/.test(text)) seen.add('combining');
        if (/"y{1000}"/.test(text)) seen.add('1000');
        if (/"x{999}"/.test(text)) seen.add('999');
        if (/ = ""/.test(changes)) seen.add('empty');
        if (/ = null/.test(changes)) seen.add('null');
        if (/ absent/.test(changes)) seen.add('absent');
        if (text.includes('"offline_messages"')) seen.add('offline_messages');
        if (text.includes('x_svc_fuzz_unknown')) seen.add('unknown field');
        if (changes === '') seen.add('unchanged');
      }
    }
    for (const edge of [
      'astral',
      'combining',
      '1000',
      '999',
      'empty',
      'null',
      'absent',
      'offline_messages',
      'unknown field',
    ])
      expect(seen, edge).toContain(edge);
  });

  it('names what a case changed in the sample', () => {
    expect(
      changesFrom({ a: { b: 'x', c: 1 }, d: 2 }, { a: { b: '😀', e: null }, d: 2, f: true }),
    ).toEqual(['a.b = "😀"', 'a.c absent', 'a.e = null', 'f = true']);
  });

  it('shows the end of a long value too: the character that breaks a receiver is often last', () => {
    const [line] = changesFrom({ name: 'x' }, { name: `${'é'.repeat(999)}😀` });
    expect(line).toBe(`name = "${'é'.repeat(39)}…${'é'.repeat(14)}😀" (1000 characters)`);
  });
});
