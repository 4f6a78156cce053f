import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/error-codes.js';
import { SvcError, exitCodeFor, type ErrorCode } from '../../src/errors.js';

/** Every .ts file under src. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('the error catalogue', () => {
  it('every code the source names is in the catalogue, and every catalogued code is used', () => {
    const used = new Set<string>();
    for (const file of sources('src')) {
      if (file.endsWith('error-codes.ts')) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/'(SVC_E_[A-Z_]+)'/g)) used.add(m[1]!);
    }
    expect([...used].filter((c) => !(c in ERRORS))).toEqual([]);
    expect(Object.keys(ERRORS).filter((c) => !used.has(c))).toEqual([]);
  });

  it('a control API status belongs to an input error; each category has its exit code', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      if ('status' in entry) expect(`${code}: ${entry.category}`).toBe(`${code}: input`);
    }
    expect(
      ['input', 'contract', 'network', 'internal'].map((c) => exitCodeFor(c as never)),
    ).toEqual([2, 1, 3, 4]);
  });

  it('an SvcError takes its category from the catalogue; its JSON shape is unchanged', () => {
    for (const [code, entry] of Object.entries(ERRORS)) {
      expect(new SvcError(code as ErrorCode, 'm').category).toBe(entry.category);
    }
    const error = new SvcError('SVC_E_NO_CHAT', 'Could not find chat 7.', 'GET /_sim/state');
    expect(error.toJSON()).toEqual({
      type: 'error',
      code: 'SVC_E_NO_CHAT',
      category: 'input',
      message: 'Could not find chat 7.',
      hint: 'GET /_sim/state',
    });
    expect(exitCodeFor(new SvcError('SVC_E_TIMEOUT', 'x').category)).toBe(3);
    expect(exitCodeFor(new SvcError('SVC_E_DISK', 'x').category)).toBe(5);
  });
});
