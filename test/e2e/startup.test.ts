import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/cli-server.js';
import { bin, repoRoot, runCli } from '../helpers/run-cli.js';

const recorder = path.join(repoRoot, 'test/helpers/record-imports.mjs');

const requireRecorder = path.join(repoRoot, 'test/helpers/record-requires.cjs');

interface Recorded {
  required: string[];
  esmLoader: string[];
  /** Node's own fetch (its bundled undici) was loaded */
  nodeFetch: boolean;
}

/**
 * Runs `node -r record-requires.cjs <args>`: what `require` resolved, which ESM loader parts,
 * whether Node's fetch loaded.
 */
function recordRequires(args: string[]): Recorded {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'svc-requires-')), 'requires.json');
  const result = spawnSync(process.execPath, ['-r', requireRecorder, ...args], {
    cwd: repoRoot,
    env: { ...process.env, SVC_RECORD_REQUIRES: file },
    stdio: 'ignore',
  });
  expect(result.status).toBe(0);
  return JSON.parse(readFileSync(file, 'utf8')) as Recorded;
}

async function recordImports(args: string[]): Promise<string[]> {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'svc-imports-')), 'imports.txt');
  const run = await runCli(args, {
    nodeArgs: ['--import', recorder],
    env: { SVC_RECORD_IMPORTS: file },
  });
  expect(run.code).toBe(0);
  return readFileSync(file, 'utf8').split('\n').filter(Boolean);
}

describe('start-up loads no schema code (start-up is a feature)', () => {
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
    // media-types.js is the contract's one zod-free list, plain data for --help
    const heavy = urls.filter(
      (u) =>
        /\/node_modules\/(zod|undici|msw|tinyglobby)\/|\/dist\/contract\//.test(u) &&
        !u.endsWith('/dist/contract/media-types.js'),
    );
    expect(heavy).toEqual([]);
  });

  it.each([['--help'], ['validate', 'fixtures/payloads/channel/customer-text.valid.json']])(
    'svc-cli %s loads CommonJS only: no ES module loader on the way',
    (...args) => {
      const baseline = recordRequires(['-e', '0']);
      const run = recordRequires([bin, ...args]);
      // the parts of Node's ES module loader `node -e 0` loads, no more
      expect(run.esmLoader).toEqual(baseline.esmLoader);
      // the bin and its loader; the bundles are read and compiled by boot.cjs (compiled.ts)
      expect(run.required.map((f) => path.relative(repoRoot, f))).toEqual([
        'bin/svc-cli.js',
        'dist/cli/boot.cjs',
      ]);
    },
  );

  it('the ES module loader does load when a command imports its body', () => {
    const baseline = recordRequires(['-e', '0']);
    const run = recordRequires([bin, 'schema', '--list']);
    expect(run.esmLoader.length).toBeGreaterThan(baseline.esmLoader.length);
  });

  it("a run path with undici does not load Node's own fetch (undici's cookies read globalThis.Headers)", () => {
    // replay sends with undici (bundled in the run paths); Node's copy is ~20 ms more a start
    const run = recordRequires([
      bin,
      'replay',
      'fixtures/conversations/agents-offline-status.json',
    ]);
    expect(run.nodeFetch).toBe(false);
    // the recorder does see it where it is used
    expect(recordRequires(['-e', 'void Headers']).nodeFetch).toBe(true);
  });

  it('the recorder does see zod when a command needs it', async () => {
    const urls = await recordImports(['schema', '--list']);
    expect(urls.some((u) => u.includes('/node_modules/zod/'))).toBe(true);
  });
});

describe('the code cache survives a serving command (start-up is a feature)', () => {
  it('platform writes it before it changes a V8 flag: the next platform and replay use it as is', async () => {
    // V8 rejects a cache made under other flags: written at exit, after platform set
    // --heap-growing-percent (src/cli/heap.ts), it made every next start compile anew
    const cache = mkdtempSync(path.join(tmpdir(), 'svc-code-cache-'));
    const env = { SVC_COMPILE_CACHE: cache };
    // a rewrite is a new file renamed into place: a new inode
    const files = (): Record<string, number> =>
      Object.fromEntries(readdirSync(cache).map((f) => [f, statSync(path.join(cache, f)).ino]));
    const serve = ['--json', 'platform', '--port', '0', '--no-console'];
    await (await startCliServer(serve, { env })).stop();
    const written = files();
    expect(Object.keys(written)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^run-paths\.bundle\.cjs\./)]),
    );
    await (await startCliServer(serve, { env })).stop();
    expect(files()).toEqual(written);
    const replay = await runCli(['replay', 'fixtures/conversations/agents-offline-status.json'], {
      env,
    });
    expect(replay.code).toBe(0);
    expect(files()).toEqual(written);
  });
});
