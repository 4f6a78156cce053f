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
    // --version alone answers from bin/svc-cli.js without the program; the rest runs it from
    // its start-up bundle (scripts/bundle-commands.mjs, compiled by boot.cjs), not from the ES
    // modules
    expect(urls.some((u) => u.endsWith('/dist/cli/boot.cjs'))).toBe(args[0] !== '--version');
    expect(urls.filter((u) => u.endsWith('/dist/cli/main.js'))).toEqual([]);
    // media-types.js is the contract's one zod-free list (issue 14), plain data for --help
    const heavy = urls.filter(
      (u) =>
        /\/node_modules\/(zod|undici|msw|tinyglobby)\/|\/dist\/contract\//.test(u) &&
        !u.endsWith('/dist/contract/media-types.js'),
    );
    expect(heavy).toEqual([]);
  });

  it.each([['--help'], ['validate', 'fixtures/payloads/channel/customer-text.valid.json']])(
    'svc-cli %s loads CommonJS only: no ES module loader on the way (issue 18)',
    async (...args) => {
      const urls = await recordImports(args);
      const project = urls.filter((u) => !u.includes('/test/helpers/'));
      expect(project.filter((u) => !u.endsWith('.cjs') && !u.endsWith('/bin/svc-cli.js'))).toEqual(
        [],
      );
      // bin/svc-cli.js and boot.cjs; the bundles are read and compiled by boot.cjs (compiled.ts)
      expect(project.length).toBeGreaterThanOrEqual(2);
    },
  );

  it('the recorder does see zod when a command needs it', async () => {
    const urls = await recordImports(['schema', '--list']);
    expect(urls.some((u) => u.includes('/node_modules/zod/'))).toBe(true);
  });
});
