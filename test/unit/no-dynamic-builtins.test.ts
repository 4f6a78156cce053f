/**
 * The single binary (scripts/build-binary.mjs) bundles the program and refuses a dynamic
 * import it cannot see into; a builtin imported with `import('node:...')` is one, and it broke
 * the binary's build twice after the tests had passed. Builtins cost nothing to import
 * statically (they are loaded with Node), so `src/` imports them statically.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const files = readdirSync('src', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.ts'))
  .map((file) => join('src', file));

describe('builtins in src/', () => {
  it('are imported statically, never with import("node:...")', () => {
    const dynamic = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/\bimport\(\s*['"]node:/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(dynamic).toEqual([]);
  });
});
