import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyText, constantBody } from '../../../src/platform/constant-body.js';

describe('bodyText', () => {
  it('sends what JSON.stringify made, a string as it is, nothing as empty', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const expected = typeof value === 'string' ? value : JSON.stringify(value);
        expect(bodyText(value)).toBe(expected);
      }),
    );
    expect(bodyText(undefined)).toBe('');
  });

  it("sends a constant body's text, made once, and the body cannot change", () => {
    const ok = constantBody({ result: 'ok', n: 1, flag: true, none: null });
    expect(bodyText(ok)).toBe('{"result":"ok","n":1,"flag":true,"none":null}');
    expect(Object.isFrozen(ok)).toBe(true);
    expect(() => {
      (ok as { result: string }).result = 'changed';
    }).toThrow(TypeError);
    expect(bodyText(ok)).toBe(JSON.stringify(ok));
    // an equal body that is not the constant is serialised as any other
    expect(bodyText({ result: 'ok' })).toBe('{"result":"ok"}');
  });
});
