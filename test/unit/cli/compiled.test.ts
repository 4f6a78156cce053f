// The start-up bundles run through vm.Script with a V8 code cache kept per user
// (src/cli/compiled.ts). A cache that is missing, rejected, unsafe or unwritable only costs
// the compile; the bundle's code gets `svcImport` and `svcImportMetaUrl` for import() and
// import.meta.url.
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  compileCacheDir,
  loadCompiled,
  wrapForCache,
  writeOwedCodeCaches,
} from '../../../src/cli/compiled.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-compiled-'));
  dirs.push(dir);
  return dir;
};

/** A bundle as the build writes it: its key line, then CommonJS using the two names. */
function bundle(dir: string, body: string, key = 'a'.repeat(32)): URL {
  const file = join(dir, 'b.cjs');
  writeFileSync(file, `// svc-compile-cache-key ${key}\n${body}`);
  writeFileSync(join(dir, 'dep.mjs'), 'export const answer = 42;\n');
  return pathToFileURL(file);
}

const BODY = `"use strict";
module.exports = {
  where: svcImportMetaUrl,
  twice: (n) => n * 2,
  dep: () => svcImport('./dep.mjs').then((m) => m.answer),
  builtin: require('node:path').sep,
};`;

interface Exports {
  where: string;
  twice: (n: number) => number;
  dep: () => Promise<number>;
  builtin: string;
}

/** Loads with a cache directory of its own; returns the load and its exit writers, run. */
function load(url: URL, cache: string) {
  const writers: Array<() => void> = [];
  const loaded = loadCompiled<Exports>(url, {
    env: { SVC_COMPILE_CACHE: cache },
    atExit: (write) => writers.push(write),
  });
  for (const write of writers) write();
  return loaded;
}

describe('loadCompiled', () => {
  it('is undefined where there is no bundle (the sources)', () => {
    expect(loadCompiled(pathToFileURL(join(tempDir(), 'none.cjs')))).toBeUndefined();
  });

  it("runs the bundle with require, import() and import.meta.url from the bundle's place", async () => {
    const dir = tempDir();
    const url = bundle(dir, BODY);
    const loaded = load(url, join(dir, 'cache'));
    expect(loaded?.exports.where).toBe(url.href);
    expect(loaded?.exports.twice(21)).toBe(42);
    expect(loaded?.exports.builtin).toBe(join('a', 'b')[1]);
    expect(await loaded?.exports.dep()).toBe(42);
  });

  it('writes the code cache once, then uses it', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const url = bundle(dir, BODY);
    expect(load(url, cache)?.cache).toBe('missing');
    const files = readdirSync(cache);
    expect(files).toEqual([expect.stringMatching(/^b\.cjs\.a{32}\.v\d+.*\.cache$/)]);
    const again = load(url, cache);
    expect(again?.cache).toBe('used');
    expect(again?.exports.twice(2)).toBe(4);
    expect(readdirSync(cache)).toEqual(files);
    // V8 takes this process's second compile from memory: what was written is checked by
    // compiling the same text under another name, as a new process would
    const written = new Script(wrapForCache(readFileSync(fileURLToPath(url), 'utf8')), {
      filename: join(dir, 'elsewhere.cjs'),
      cachedData: readFileSync(join(cache, files[0] as string)),
    });
    expect(written.cachedDataRejected).toBe(false);
  });

  it('writes an owed cache when asked (before a V8 flag changes), once', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    const url = bundle(dir, `${BODY}\n// owed`, 'd'.repeat(32));
    // the default: owed until exit, or until a serving command changes a flag (heap.ts)
    const loaded = loadCompiled<Exports>(url, { env: { SVC_COMPILE_CACHE: cache } });
    expect(loaded?.cache).toBe('missing');
    expect(readdirSync(cache)).toEqual([]);
    writeOwedCodeCaches();
    const [file] = readdirSync(cache);
    expect(file).toMatch(/^b\.cjs\.d{32}\./);
    // a write is a new file renamed into place: owed once, written once
    const { ino } = statSync(join(cache, file as string));
    writeOwedCodeCaches();
    expect(statSync(join(cache, file as string)).ino).toBe(ino);
  });

  it('compiles anew and rewrites a cache V8 rejects', () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    // a text this process has not compiled yet (V8 would take it from memory otherwise)
    const url = bundle(dir, `${BODY}\n// rejected`, 'c'.repeat(32));
    mkdirSync(cache);
    const name = `b.cjs.${'c'.repeat(32)}.${process.version}-${process.arch}.cache`;
    writeFileSync(join(cache, name), 'not a code cache');
    const loaded = load(url, cache);
    expect(loaded?.cache).toBe('rejected');
    expect(loaded?.exports.twice(3)).toBe(6);
    expect(readFileSync(join(cache, name), 'utf8')).not.toBe('not a code cache');
  });

  it("drops an older build's cache when it writes the new one, not another Node's", () => {
    const dir = tempDir();
    const cache = join(dir, 'cache');
    load(bundle(dir, BODY, 'a'.repeat(32)), cache);
    const otherNode = `b.cjs.${'a'.repeat(32)}.v99.0.0-${process.arch}.cache`;
    writeFileSync(join(cache, otherNode), '');
    load(bundle(dir, `${BODY}\n// changed`, 'b'.repeat(32)), cache);
    expect(readdirSync(cache).sort()).toEqual([
      otherNode,
      expect.stringMatching(/^b\.cjs\.b{32}\.v/),
    ]);
  });

  it('runs without a cache when it is off, unkeyed, or has nowhere safe to go', () => {
    const dir = tempDir();
    const url = bundle(dir, BODY);
    for (const off of ['0', 'off', 'false']) expect(load(url, off)?.cache).toBe('off');
    const notADir = join(dir, 'file');
    writeFileSync(notADir, '');
    expect(load(url, notADir)?.cache).toBe('off');
    expect(load(url, join(notADir, 'below'))?.cache).toBe('off');
    const unkeyed = join(dir, 'plain.cjs');
    writeFileSync(unkeyed, BODY);
    expect(
      loadCompiled<Exports>(pathToFileURL(unkeyed), { env: { SVC_COMPILE_CACHE: dir } })?.cache,
    ).toBe('off');
  });

  it.skipIf(process.platform === 'win32')('refuses a directory others can write to', () => {
    const dir = tempDir();
    const shared = join(dir, 'shared');
    expect(compileCacheDir({ SVC_COMPILE_CACHE: shared })).toBe(shared);
    chmodSync(shared, 0o777);
    expect(compileCacheDir({ SVC_COMPILE_CACHE: shared })).toBeUndefined();
  });

  it('defaults to a directory of its own under the temporary directory', () => {
    const dir = compileCacheDir({});
    expect(dir).toContain(join(tmpdir(), 'svc-cli-'));
    expect(dir?.endsWith('compile-cache')).toBe(true);
  });

  it.skipIf(process.platform === 'win32')(
    'refuses the default place when its folder is writable by others',
    () => {
      const saved = process.env.TMPDIR;
      process.env.TMPDIR = tempDir();
      try {
        const dir = compileCacheDir({});
        expect(dir).toBeDefined();
        chmodSync(join(dir as string, '..'), 0o777);
        expect(compileCacheDir({})).toBeUndefined();
      } finally {
        if (saved === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = saved;
      }
    },
  );
});

describe('the single binary stands in for this module (scripts/build-binary.mjs)', () => {
  it('with every name src/ imports from it, or the binary build fails on that import', async () => {
    const src = fileURLToPath(new URL('../../../src/', import.meta.url));
    const { glob } = await import('tinyglobby');
    const imported = new Set<string>();
    for (const file of await glob('**/*.ts', { cwd: src, absolute: true })) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(
        /^import \{([^}]+)\} from '(?:\.\.?\/)+(?:cli\/)?compiled\.js';/gm,
      ))
        for (const name of (m[1] as string).split(','))
          if (name.trim() && !name.trim().startsWith('type ')) imported.add(name.trim());
    }
    // the scan sees the importers (boot.ts's loadCompiled at least)
    expect(imported).toContain('loadCompiled');
    const script = readFileSync(
      fileURLToPath(new URL('../../../scripts/build-binary.mjs', import.meta.url)),
      'utf8',
    );
    const stubbed = [...script.matchAll(/'export const (\w+) = /g)].map((m) => m[1]);
    expect(stubbed).toEqual(expect.arrayContaining([...imported]));
  });
});
