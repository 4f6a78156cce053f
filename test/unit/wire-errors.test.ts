import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIRE_ERRORS, errorBody } from '../../src/wire-errors.js';

/** Every .ts file under src. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the wire error catalogue', () => {
  it('every catalogued code is answered somewhere, with a 4xx or 5xx status', () => {
    const text = sources('src')
      .filter((f) => !f.endsWith('wire-errors.ts'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    const unused = Object.keys(WIRE_ERRORS).filter((code) => !text.includes(`'${code}'`));
    expect(unused).toEqual([]);
    for (const [code, info] of Object.entries(WIRE_ERRORS)) {
      expect(`${code} ${info.status}`).toMatch(/ [45]\d\d$/);
      expect(info.meaning.length).toBeGreaterThan(10);
    }
  });

  it('the contract codes cite spec 7; the body has the spec 7.2 shape', () => {
    for (const code of ['invalid_client', 'unauthorized_client', 'invalid_request'] as const) {
      expect(WIRE_ERRORS[code].section).toBe('7.2');
    }
    expect(errorBody('not_found', 'no channel')).toEqual({
      error: { code: 'not_found', message: 'no channel' },
    });
    // @ts-expect-error a free string is not a wire error code
    errorBody('nope', 'x');
  });

  it('no reply body in src/ is written by hand: errorBody builds every one', () => {
    const byHand = sources('src')
      .filter((f) => !f.endsWith('wire-errors.ts'))
      .filter((f) => /error: \{ code[:,]/.test(readFileSync(f, 'utf8')));
    expect(byHand).toEqual([]);
  });
});
