#!/usr/bin/env node
// Start-up is a feature (every start pays for what it loads). Run by `npm run build`, after tsc.
// Node 20 compiles ES modules with no code cache and sets up its ES module loader for the
// first one (~10 ms here): a start that loads CommonJS only, from few files, with a V8 code
// cache (src/cli/compiled.ts), is what keeps `svc-cli --help` and a one-file `validate` near
// `node -e 0`. So the start path is three CommonJS files:
//   - dist/cli/boot.cjs (src/cli/boot.ts with the loader, compiled.ts): bin/svc-cli.js
//     requires it; it loads the next one through the code cache;
//   - dist/cli/main.bundle.cjs: main.ts, the program, every command's registration and
//     option table, commander, and the few modules those import (errors, the flush registry);
//     the lazily imported `*-run` bodies stay ES modules, loaded on use;
//   - dist/cli/commands/validate-run.bundle.cjs: the validate run path with zod and chalk.
// A bundle holds its own copy of errors.ts and render/flush.ts beside the ones the ES module
// bodies load: SvcError is recognised by a brand and the writers' registry is one per process
// (src/errors.ts, src/cli/render/flush.ts), so the copies agree.
import { createHash } from 'node:crypto';
import { readdirSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { build } from 'esbuild';

const DIST = path.resolve('dist');

/**
 * Keeps each module's own `import.meta.url` and relative `import()` in a bundle compiled by
 * src/cli/compiled.ts: `import.meta.url` becomes the module's URL computed from the bundle's
 * (`svcImportMetaUrl`), and a dynamic import of a module outside the bundle is written
 * relative to the bundle, for `svcImport`, the loader's stand-in for `import()`.
 */
function locationsFromBundle(outfile, { inlineRelative = false } = {}) {
  const bundleDir = path.dirname(path.resolve(outfile));
  const fromBundle = (target) => {
    const relative = path.relative(bundleDir, target).split(path.sep).join('/');
    return relative.startsWith('.') ? relative : `./${relative}`;
  };
  return {
    name: 'locations-from-bundle',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (args.kind !== 'dynamic-import' || inlineRelative) return undefined;
        return { path: fromBundle(path.resolve(args.resolveDir, args.path)), external: true };
      });
      b.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'dynamic-import' && !(inlineRelative && /^\.\.?\//.test(args.path))
          ? { path: args.path, external: true }
          : undefined,
      );
      b.onLoad({ filter: /\.js$/ }, async (args) => {
        if (!args.path.startsWith(`${DIST}${path.sep}`)) return undefined;
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(args.path, 'utf8');
        if (!/\bimport\.meta\b/.test(text)) return { contents: text, loader: 'js' };
        const own = `new URL(${JSON.stringify(fromBundle(args.path))}, svcImportMetaUrl).href`;
        return { contents: text.replace(/\bimport\.meta\.url\b/g, own), loader: 'js' };
      });
    },
  };
}

/**
 * Builds a CommonJS bundle for src/cli/compiled.ts, which compiles it with a V8 code cache.
 * `allowed(input)` says which node_modules files may be bundled: anything else bundled is a
 * build error (zod or undici on the --help path would be a silent regression), as is a
 * bundle's own `require("...")` of anything but a Node builtin (it would load an ES module,
 * and Node's ES module loader with it, on every start). A `createRequire` a module makes for
 * itself (client-trust.ts: undici for --ca) is not seen here; it loads on use.
 */
async function buildForCodeCache({ allowed, plugins, inlineRelative, ...options }) {
  const result = await build({
    ...options,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    sourcemap: false,
    // less to parse on a start without a cache; identifiers kept (stack traces, help texts)
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    write: false,
    plugins: [locationsFromBundle(options.outfile, { inlineRelative }), ...plugins],
    // any other import.meta would be an empty object in CommonJS: a build error instead
    logOverride: { 'empty-import-meta': 'error' },
    logLevel: 'warning',
  });
  const [output] = result.outputFiles;
  const strays = Object.keys(result.metafile.inputs).filter(
    (input) => input.includes('node_modules/') && !allowed(input),
  );
  if (strays.length > 0)
    throw new Error(`${options.outfile}: bundles what start-up must not load: ${strays[0]}`);
  // every import() becomes the loader's svcImport: relative ones were written relative to the
  // bundle above; a computed one (compiled.ts's own, when it is bundled) is a URL already
  const text = output.text.replace(/(?<![\w$.])import\(/g, 'svcImport(');
  if (/\bimport\.meta\b|\bimport_meta\b/.test(text))
    throw new Error(`${options.outfile}: an import() or import.meta the loader cannot serve`);
  // each literal one replaced is a dynamic import esbuild recorded (not text in a string)
  const recorded = new Set(
    Object.values(result.metafile.outputs)
      .flatMap((out) => out.imports)
      .filter((record) => record.kind === 'dynamic-import')
      .map((record) => record.path),
  );
  const stray = [...text.matchAll(/svcImport\("([^"]+)"\)/g)].find((m) => !recorded.has(m[1]));
  if (stray) throw new Error(`${options.outfile}: ${stray[0]} is no import() esbuild recorded`);
  const required = [...text.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
  const foreign = required.find(
    (specifier) => !specifier.startsWith('node:') && !builtinModules.includes(specifier),
  );
  if (foreign !== undefined)
    throw new Error(`${options.outfile}: requires ${foreign}; start-up loads Node builtins only`);
  // the key of its code cache, so a start does not hash half a megabyte (src/cli/compiled.ts)
  const key = createHash('sha256').update(text).digest('hex').slice(0, 32);
  writeFileSync(options.outfile, `// svc-compile-cache-key ${key}\n${text}`);
}

// commander requires node:child_process at load for executable subcommands, which this
// program has none of; child_process brings net, dgram and the stream stack (17 internal
// modules, ~5 ms of every --help here): commander gets a stand-in that loads it on use
const childProcessOnUse = {
  name: 'child-process-on-use',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.includes('node_modules/commander/')
        ? { path: 'child-process-on-use', namespace: 'on-use' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'on-use' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
      loader: 'js',
    }));
  },
};
// Node builtins stay requires (never bundled)
const builtinsOutside = {
  name: 'builtins-outside',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true }));
    // a package's `require('zlib')`, without the prefix
    b.onResolve({ filter: /^[a-z_]+(\/[a-z_]+)?$/ }, (args) =>
      builtinModules.includes(args.path) ? { path: args.path, external: true } : undefined,
    );
  },
};

await buildForCodeCache({
  entryPoints: ['dist/cli/main.js'],
  outfile: 'dist/cli/main.bundle.cjs',
  // commander only: main.ts takes it from the commands' registration, one copy
  allowed: (input) => input.includes('node_modules/commander/'),
  plugins: [childProcessOnUse, builtinsOutside],
});

// zod re-exports every locale (`z.locales`, 340 KB); the contract uses only the English
// messages, which zod imports on its own: the namespace is reduced to them.
const englishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${'node_modules'}/zod/`)
        ? { path: 'zod-locales', namespace: 'english-only', pluginData: args.resolveDir }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'english-only' }, (args) => ({
      contents: "export { default as en } from './en.js';",
      resolveDir: `${args.pluginData}/../locales`,
    }));
  },
};
// undici's cookie helpers accept Node's own Headers beside undici's, and the list is made
// when undici loads: reading `globalThis.Headers` makes Node load and compile its bundled
// copy of undici (~20 ms of CPU: `platform` started and stopped in 167 ms instead of 188 ms).
// svc-cli never calls those helpers (getCookies, getSetCookies, setCookie, deleteCookie), so
// the run paths take undici's Headers only and Node's fetch loads when something uses it.
const COOKIE_BRANDS = '[Headers, globalThis.Headers].filter(Boolean)';
const undiciWithoutNodeFetch = {
  name: 'undici-without-node-fetch',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]web[\\/]cookies[\\/]index\.js$/ }, async (args) => {
      const { readFile } = await import('node:fs/promises');
      const text = await readFile(args.path, 'utf8');
      if (!text.includes(COOKIE_BRANDS))
        throw new Error(
          `${args.path}: no \`${COOKIE_BRANDS}\` (a new undici?): see undici-without-node-fetch`,
        );
      return { contents: text.replace(COOKIE_BRANDS, '[Headers]'), loader: 'js' };
    });
  },
};
// Why: `svc-cli validate one-file.json` in a git hook paid for resolving and compiling
// ~140 modules (zod ships as many small ESM files; the option resolver loads every command's
// table; chalk four files): the validate run path, zod, chalk and the option tables included,
// is one module next to the sources. Globs are the rare input: tinyglobby (with picomatch and
// fdir, 57 KB) stays a lazy import of the installed package.
await buildForCodeCache({
  entryPoints: ['dist/cli/commands/validate-run.js'],
  outfile: 'dist/cli/commands/validate-run.bundle.cjs',
  allowed: (input) => /node_modules\/(zod|chalk|#?supports-color)\//.test(input),
  plugins: [englishOnly, builtinsOutside],
});

// Every other command's run path (`<command>-run.js`, which its spec's `run` imports when the
// command runs) is one bundle too, dist/cli/commands/run-paths.bundle.cjs: a start of
// `platform` or `replay` loaded ~300 ES modules one by one, with no code cache (about 0.2 s of
// CPU here, for every spawned command). One bundle for all of them, not one each: the paths
// share most of their modules and packages (a bundle each would add ~25 MB to the package).
// Its entry maps each path's name to an import() of it, which esbuild turns into a lazy
// initialiser: loading the bundle runs no module, and a command runs only its own path's
// modules. The modules a path imports with import() are bundled in as well (one copy of each
// module per process, none behind a lazy import); packages imported so (ora, the prompts,
// selfsigned, tinyglobby) stay lazy imports of the installed package.
// Three run paths have loaders of their own (their specs' `fromModule`): validate its bundle
// above; schema and completion their ES modules (a completion script loads little; schema
// loads zod as the installed package).
const OWN_LOADERS = new Set(['validate-run.js', 'schema-run.js', 'completion-run.js']);
const runPaths = readdirSync(path.join(DIST, 'cli/commands'))
  .filter((name) => name.endsWith('-run.js') && !OWN_LOADERS.has(name))
  .sort();
await buildForCodeCache({
  stdin: {
    contents: `export const runPaths = {\n${runPaths
      .map((name) => `  ${JSON.stringify(name.slice(0, -3))}: () => import('./${name}'),`)
      .join('\n')}\n};\n`,
    resolveDir: path.join(DIST, 'cli/commands'),
    sourcefile: 'run-paths.js',
    loader: 'js',
  },
  outfile: 'dist/cli/commands/run-paths.bundle.cjs',
  allowed: () => true,
  inlineRelative: true,
  plugins: [englishOnly, undiciWithoutNodeFetch, builtinsOutside],
});

// the loader bin/svc-cli.js requires: boot.ts with compiled.ts, plain CommonJS (no cache of
// its own); import('./main.js') stays the fallback for a build without the bundle
await build({
  entryPoints: ['dist/cli/boot.js'],
  outfile: 'dist/cli/boot.cjs',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  external: ['./main.js'],
  define: { 'import.meta.url': 'svcBootUrl' },
  banner: { js: 'const svcBootUrl = require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
});
