import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

const recorder = path.join(repoRoot, 'test/helpers/record-imports.mjs');

async function recordImports(args: string[]): Promise<string[]> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'svc-imports-')), 'imports.txt');
  const run = await runCli(args, {
    nodeArgs: ['--import', recorder],
    env: { SVC_RECORD_IMPORTS: file },
  });
  expect(run.code).toBe(0);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('start-up loads no schema code (conventions.md 13)', () => {
  it.each([
    ['--help'],
    ['--version'],
    ['validate', '--help'],
    ['schema', '--help'],
    ['chat', '--help'],
    ['completion', 'bash'],
  ])('svc-cli %s', async (...args) => {
    const urls = await recordImports(args);
    // --version alone answers from bin/svc-cli.js without the program
    expect(urls.some((u) => u.includes('/dist/cli/main.js'))).toBe(args[0] !== '--version');
    // media-types.js is the contract's one zod-free list (issue 14), plain data for --help
    const heavy = urls.filter(
      (u) =>
        /\/node_modules\/(zod|undici|msw|tinyglobby)\/|\/dist\/contract\//.test(u) &&
        !u.endsWith('/dist/contract/media-types.js'),
    );
    expect(heavy).toEqual([]);
  });

  it('the recorder does see zod when a command needs it', async () => {
    const urls = await recordImports(['schema', '--list']);
    expect(urls.some((u) => u.includes('/node_modules/zod/'))).toBe(true);
  });
});
