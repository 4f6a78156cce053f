import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/error-codes.js';
import { exitCodeFor } from '../../src/errors.js';

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
});
