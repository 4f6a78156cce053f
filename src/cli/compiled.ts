/**
 * Start-up is a feature: the program and the validate run path are CommonJS
 * bundles (scripts/bundle-commands.mjs), compiled here through `vm.Script` with a V8 code
 * cache, so a start does not parse and compile half a megabyte of JavaScript again. Node 22's
 * `module.enableCompileCache()` does this for every module; Node 20 has no API for ES modules,
 * and v8-compile-cache hooks `require` without a way to serve `import()`, which the bundles use
 * for the command bodies. Here the bundle gets `svcImport` in its place.
 *
 * The cache is a file per bundle (named by the hash of its text the build wrote on its first
 * line, Node's version and the architecture) in a directory only this user can write: `$SVC_COMPILE_CACHE`, else
 * `<tmpdir>/svc-cli-<uid>/compile-cache`; `SVC_COMPILE_CACHE=0` turns it off. Nothing here
 * fails a command: a cache that cannot be read, is rejected by V8 or cannot be written only
 * costs the compile.
 */
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Script } from 'node:vm';

type Env = Record<string, string | undefined>;

/** The first line of a bundle built for the cache: `// svc-compile-cache-key <hash>`. */
export const CACHE_KEY = /^\/\/ svc-compile-cache-key ([0-9a-f]{16,64})\n/;

/** The directory the code cache lives in, or undefined when it is off (or not safe to use). */
export function compileCacheDir(env: Env = process.env): string | undefined {
  const setting = env.SVC_COMPILE_CACHE;
  if (setting !== undefined && ['0', 'off', 'false', ''].includes(setting.trim().toLowerCase()))
    return undefined;
  const uid = process.getuid?.();
  const dir = setting ?? join(tmpdir(), `svc-cli-${uid ?? 'user'}`, 'compile-cache');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // code read from here runs as this user: only a directory of its own that no one else
    // can write to is used, nor one in a folder someone else could swap it in (the shared
    // temporary directory is anyone's)
    const own = (path: string): boolean => {
      const stat = lstatSync(path);
      return (
        stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0))
      );
    };
    return own(dir) && (setting !== undefined || own(dirname(dir))) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The code caches this process still owes (missing or rejected at load), in one list per
 * process: boot.cjs and main.bundle.cjs each hold a copy of this module. V8 keys a cache by
 * its flags, so a cache written after a flag changed is one that every later start, which has
 * not changed it yet, rejects: a serving command sets --heap-growing-percent once it runs
 * (heap.ts), and its cache written at exit made the next start of every command compile
 * anew and write again (~0.1 s of CPU each). Whoever changes a flag writes what is owed first
 * (`writeOwedCodeCaches`); the rest are written at exit, after the command ran, with the
 * functions it compiled on the way.
 */
const OWED = Symbol.for('svc-cli.code-caches-owed');
const owed = globalThis as { [OWED]?: Array<() => void> };

/** Owes `write` until a flag changes or the process exits (one exit listener per process). */
function owedAtExit(write: () => void): void {
  if (!owed[OWED]) {
    owed[OWED] = [];
    process.once('exit', writeOwedCodeCaches);
  }
  owed[OWED].push(write);
}

/**
 * Writes the code caches this process owes now, before it changes a V8 flag.
 * @example writeOwedCodeCaches(); v8.setFlagsFromString('--heap-growing-percent=100');
 */
export function writeOwedCodeCaches(): void {
  for (const write of owed[OWED]?.splice(0) ?? []) write();
}

/** What a bundle's code sees in place of `import()` and `import.meta.url`. */
type Wrapped = (
  exports: Record<string, unknown>,
  require: NodeJS.Require,
  module: { exports: Record<string, unknown> },
  svcImport: (specifier: string) => Promise<unknown>,
  svcImportMetaUrl: string,
) => void;

export interface CompiledLoad<T> {
  exports: T;
  /** how the cache served this load: missing and rejected ones are written at exit */
  cache: 'used' | 'missing' | 'rejected' | 'off';
}

/**
 * Runs the CommonJS bundle at `url` and returns its exports, or undefined when there is no
 * such file (tests run on the sources, which have no bundles). With a cache directory, the
 * code V8 compiled is read from it, or written to it when the process exits.
 * @example const main = loadCompiled<typeof import('./main.js')>(new URL('./main.bundle.cjs', import.meta.url));
 */
export function loadCompiled<T>(
  url: URL,
  {
    env = process.env,
    atExit = owedAtExit,
  }: { env?: Env; atExit?: (write: () => void) => void } = {},
): CompiledLoad<T> | undefined {
  const file = fileURLToPath(url);
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // the build writes a hash of the bundle's text on its first line (no hashing at each start)
  const key = CACHE_KEY.exec(source)?.[1];
  const dir = key === undefined ? undefined : compileCacheDir(env);
  const name = basename(file);
  const cacheFile =
    dir === undefined
      ? undefined
      : join(dir, `${name}.${key}.${process.version}-${process.arch}.cache`);
  let cachedData: Buffer | undefined;
  if (cacheFile !== undefined) {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      cachedData = undefined; // first run, or the cache was cleared
    }
  }
  const script = new Script(wrapForCache(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
  });
  const wrapped = script.runInThisContext() as Wrapped;
  const module = { exports: {} as Record<string, unknown> };
  // not named svcImport: in a bundle holding this module, its import() is the outer svcImport
  const importFromBundle = (specifier: string): Promise<unknown> =>
    import(specifier.startsWith('.') ? new URL(specifier, url).href : specifier);
  wrapped(module.exports, createRequire(url), module, importFromBundle, url.href);
  let cache: CompiledLoad<T>['cache'] = 'off';
  if (cacheFile !== undefined && dir !== undefined) {
    if (cachedData && !script.cachedDataRejected) cache = 'used';
    else {
      cache = cachedData ? 'rejected' : 'missing';
      // after the command ran: the cache then holds the functions it compiled on the way
      atExit(() => writeCache(script, dir, name, cacheFile));
    }
  }
  return { exports: module.exports as T, cache };
}

/**
 * The exports of the bundle at `url`, or undefined when there is none (the sources): the
 * caller imports the modules then.
 */
export function compiledExports<T>(url: URL): T | undefined {
  return loadCompiled<T>(url)?.exports;
}

/** The function a bundle's text is compiled as (the names it gets in place of import()). */
export const wrapForCache = (source: string): string =>
  `(function (exports, require, module, svcImport, svcImportMetaUrl) {${source}\n})`;

/** A writer that died between its write and its rename left this; an hour is long enough. */
const STALE_PARTIAL_MS = 60 * 60 * 1000;

/**
 * Writes the cache whole (a rename: a concurrent start reads all of it or none) and drops
 * this bundle's caches of other builds for the same Node (those of another Node version or
 * architecture stay: a user may run two), and partial files writers left behind.
 */
function writeCache(script: Script, dir: string, name: string, cacheFile: string): void {
  const partial = `${cacheFile}.${process.pid}.tmp`;
  const sameNode = `.${process.version}-${process.arch}.cache`;
  try {
    writeFileSync(partial, script.createCachedData(), { mode: 0o600 });
    renameSync(partial, cacheFile);
    const now = Date.now();
    for (const other of readdirSync(dir)) {
      if (!other.startsWith(`${name}.`) || join(dir, other) === cacheFile) continue;
      const path = join(dir, other);
      if (other.endsWith(sameNode)) unlinkSync(path);
      else if (other.endsWith('.tmp') && now - lstatSync(path).mtimeMs > STALE_PARTIAL_MS)
        unlinkSync(path);
    }
  } catch {
    try {
      unlinkSync(partial);
    } catch {
      // nothing was written
    }
  }
}
