import { describe, expect, it } from 'vitest';
import {
  describeMismatches,
  findRefs,
  isMatch,
  matchPartial,
  readPath,
  resolveRefs,
} from '../../../src/conversation/match.js';

describe('matchPartial', () => {
  it.each([
    ['subset of an object', { a: 1 }, { a: 1, b: 2 }, []],
    ['nested', { m: { t: 'x' } }, { m: { t: 'x', id: 1 } }, []],
    ['arrays element-wise', [{ p: 'a' }], [{ p: 'a', q: 1 }], []],
    ['$any', { id: '$any' }, { id: 5 }, []],
    ['$string', { id: '$string' }, { id: 'x' }, []],
    ['$number', { n: '$number' }, { n: 1 }, []],
    ['$absent', { gone: '$absent' }, {}, []],
    ['$regex', { t: { $regex: '^he' } }, { t: 'hello' }, []],
  ])('matches %s', (_name, expected, actual, mismatches) => {
    expect(matchPartial(expected, actual)).toEqual(mismatches);
  });

  it.each([
    ['a different value', { a: 1 }, { a: 2 }, 'a: expected 1, got 2'],
    ['a missing key', { m: { t: 'x' } }, { m: {} }, 'm.t: expected "x", got nothing'],
    ['an array of another length', { l: [1] }, { l: [1, 2] }, 'l: expected [1], got [1,2]'],
    ['$any on nothing', { id: '$any' }, {}, 'id: expected "$any", got nothing'],
    ['$absent on something', { x: '$absent' }, { x: 0 }, 'x: expected "$absent", got 0'],
    [
      'a regex that does not match',
      { t: { $regex: '^x' } },
      { t: 'y' },
      't: expected {"$regex":"^x"}, got "y"',
    ],
    ['an object for a scalar', { a: { b: 1 } }, { a: 3 }, 'a: expected {"b":1}, got 3'],
  ])('reports %s with its path', (_name, expected, actual, line) => {
    expect(describeMismatches(matchPartial(expected, actual))).toEqual([line]);
    expect(isMatch(expected, actual)).toBe(false);
  });

  it('says a real-time figure to the millisecond, with the ± it was matched within', () => {
    expect(
      describeMismatches(matchPartial({ elapsedMs: 6000 }, { elapsedMs: 6412.337189 }, '', 250)),
    ).toEqual(['elapsedMs: expected 6000 ±250 ms, got 6412']);
  });

  it('isMatch agrees with matchPartial, tolerance on keys ending in Ms included', () => {
    const cases: Array<[unknown, unknown, number]> = [
      [{ elapsedMs: 3000 }, { elapsedMs: 3004 }, 5],
      [{ elapsedMs: 3000 }, { elapsedMs: 3006 }, 5],
      [{ elapsedMs: 3000 }, { elapsedMs: 3004 }, 0],
      [{ list: [3000] }, { list: [3004] }, 5],
      [{ a: { offsetMs: 10, t: '$string' } }, { a: { offsetMs: 12, t: 'x' } }, 5],
      [{ t: { $regex: '^x' } }, { t: 'xy' }, 0],
      [[1, { a: '$any' }], [1, { a: null }], 0],
      [{ a: '$absent' }, { b: 1 }, 0],
      [{ a: '$number' }, { a: '1' }, 0],
    ];
    for (const [expected, actual, tolerance] of cases)
      expect(isMatch(expected, actual, '', tolerance)).toBe(
        matchPartial(expected, actual, '', tolerance).length === 0,
      );
  });
});

describe('references', () => {
  const scope = { hello: { chatId: 7, body: { items: [{ id: 'x' }] } } };
  it('keeps the type of a whole reference and interpolates inside strings', () => {
    expect(
      resolveRefs({ chat_id: '${hello.chatId}', text: 'chat ${hello.chatId}!' }, scope),
    ).toEqual({ chat_id: 7, text: 'chat 7!' });
    expect(readPath(scope, 'hello.body.items[0].id')).toBe('x');
    expect(resolveRefs('${nothing.here}', scope)).toBeUndefined();
  });

  it('returns a value without references as it is, and copies only what changes', () => {
    const plain = { message: { text: 'Hi', list: [1, { a: 'b' }] } };
    expect(resolveRefs(plain, scope)).toBe(plain);
    const mixed = { keep: { a: 1 }, ref: ['${hello.chatId}'] };
    const resolved = resolveRefs(mixed, scope) as typeof mixed;
    expect(resolved).toEqual({ keep: { a: 1 }, ref: [7] });
    expect(resolved.keep).toBe(mixed.keep);
    expect(mixed.ref).toEqual(['${hello.chatId}']);
  });
});

describe('findRefs', () => {
  it('lists each ${step.path} reference with where it sits and the step it names', () => {
    expect(
      findRefs({ path: '/_sim/chats/${a.chatId}/x', where: { 'b.c': ['${b[0].id} and ${c.d}'] } }),
    ).toEqual([
      { path: 'path', ref: 'a.chatId', step: 'a' },
      { path: 'where.b.c[0]', ref: 'b[0].id', step: 'b' },
      { path: 'where.b.c[0]', ref: 'c.d', step: 'c' },
    ]);
    expect(findRefs({ text: 'no references', n: 1 })).toEqual([]);
  });
});

describe('a key the payload does not have', () => {
  it('names the key it has that is spelt closest, one or two edits away', () => {
    const actual = { type: 'delivery-done', result: 'delivered', attempts: 1 };
    expect(describeMismatches(matchPartial({ reslt: 'delivered' }, actual))).toEqual([
      'reslt: expected "delivered", got nothing (did you mean result?)',
    ]);
    expect(
      describeMismatches(matchPartial({ message: { txt: 'Hi' } }, { message: { text: 'Hi' } })),
    ).toEqual(['message.txt: expected "Hi", got nothing (did you mean text?)']);
  });

  it('suggests nothing far off, for a short key, or a key the expectation also names', () => {
    const actual = { type: 'x', result: 'ok' };
    expect(describeMismatches(matchPartial({ outcome: 'ok' }, actual))).toEqual([
      'outcome: expected "ok", got nothing',
    ]);
    expect(describeMismatches(matchPartial({ id: 1 }, { ids: [1] }))).toEqual([
      'id: expected 1, got nothing',
    ]);
    expect(describeMismatches(matchPartial({ resul: 'ok', result: 'no' }, actual))).toEqual([
      'resul: expected "ok", got nothing',
      'result: expected "no", got "ok"',
    ]);
  });
});
