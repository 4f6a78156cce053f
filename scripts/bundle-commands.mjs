#!/usr/bin/env node
// Start-up is a feature (conventions.md 13): `svc-cli --help` loads every command's
// registration module. Bundle those (src/cli/commands/*.ts minus the lazily imported
// `*-run` bodies) into dist/cli/commands/index.cjs, next to them, so one module loads instead
// of ~25, compiled with a code cache (src/cli/compiled.ts). Everything outside the folder and
// every dynamic import stays an external import with its path as written, so shared modules
// (errors, action) keep one identity (a require of an ES module gets the instance main.ts
// imported) and the lazy `import('./x-run.js')` still resolves next to the bundle. Run by
// `npm run build`.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

/**
 * Builds a CommonJS bundle for src/cli/compiled.ts, which compiles it with a V8 code cache
 * (Node 20 has none for ES modules): `import.meta.url` and `import()` become the two names the
 * loader hands in, `svcImportMetaUrl` and `svcImport` (which resolves from the bundle's place).
 */
async function buildForCodeCache(options) {
  // every dynamic import esbuild leaves in the output, as written: each becomes svcImport
  const dynamic = new Set();
  const recordDynamic = {
    name: 'record-dynamic-imports',
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === 'dynamic-import') dynamic.add(args.path);
        return undefined; // resolved by the plugins after this one
      });
    },
  };
  const result = await build({
    ...options,
    plugins: [recordDynamic, ...options.plugins],
    format: 'cjs',
    write: false,
    define: { 'import.meta.url': 'svcImportMetaUrl' },
    // any other import.meta would be an empty object in CommonJS: a build error instead
    logOverride: { 'empty-import-meta': 'error' },
  });
  const [output] = result.outputFiles;
  let text = output.text;
  for (const path of dynamic) {
    const call = `import(${JSON.stringify(path)})`;
    if (text.includes(call)) text = text.split(call).join(`svcImport(${JSON.stringify(path)})`);
  }
  if (/(?<![\w$.])import\s*\(|\bimport\.meta\b|\bimport_meta\b/.test(text))
    throw new Error(`${options.outfile}: an import() or import.meta the loader cannot serve`);
  // the key of its code cache, so a start does not hash half a megabyte (src/cli/compiled.ts)
  const key = createHash('sha256').update(text).digest('hex').slice(0, 32);
  writeFileSync(options.outfile, `// svc-compile-cache-key ${key}\n${text}`);
}

const keepOutside = {
  name: 'keep-outside-and-lazy',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.kind === 'dynamic-import') return { path: args.path, external: true };
      // the option tables and their registration are plain data and commander calls: bundled
      // too; the resolver (../options/resolve.js) is only imported lazily by the bodies
      if (args.path.startsWith('../options/') && args.path !== '../options/resolve.js') {
        return undefined;
      }
      // plain data with no identity to keep (the media types and their kinds, for send-media's
      // choices): bundled, one module less to resolve for --help
      if (/\/(roles\/integrator\/kinds|contract\/media-types)\.js$/.test(args.path))
        return undefined;
      // commander: main.ts takes it from this bundle too, so there is one copy (no instanceof
      // split) and --help loads one module instead of commander's seven
      if (args.path === 'commander') return undefined;
      // commander requires node:child_process at load for executable subcommands, which this
      // program has none of; child_process brings net, dgram and the stream stack (17 internal
      // modules, ~5 ms of every --help here): commander gets a stand-in that loads it on use
      if (args.path === 'node:child_process' && args.importer.includes('node_modules/commander/'))
        return { path: 'child-process-on-use', namespace: 'on-use' };
      if (!args.path.startsWith('./')) return { path: args.path, external: true };
      return undefined; // ./register-module.js: bundled
    });
    b.onLoad({ filter: /.*/, namespace: 'on-use' }, () => ({
      contents: "module.exports = { get spawn() { return require('node:child_process').spawn; } };",
      loader: 'js',
    }));
  },
};

await buildForCodeCache({
  entryPoints: ['dist/cli/commands/index.js'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  outfile: 'dist/cli/commands/index.cjs',
  sourcemap: false,
  // less to parse on a start without a cache (help texts stay as written)
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [keepOutside],
  logLevel: 'warning',
});

// issue 18: `svc-cli validate one-file.json` in a git hook paid for resolving and compiling
// ~140 modules (zod ships as many small ESM files; the option resolver loads every command's
// table; chalk four files). The validate run path, zod, chalk and the option tables included,
// is one module next to the sources (dist/cli/commands/); the modules whose identity main.ts
// shares stay external: errors.js (SvcError and the exit codes) and render/flush.js (the
// stdout writers flushed before exit), with suggest.js that errors.js imports.
const keepErrorsShared = {
  name: 'keep-errors-shared',
  setup(b) {
    const shared = ['dist/errors.js', 'dist/suggest.js', 'dist/cli/render/flush.js'].map((f) =>
      path.resolve(f),
    );
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const target = path.resolve(args.resolveDir, args.path);
      if (!shared.includes(target)) return undefined;
      // written relative to the importer; the bundle sits elsewhere: relative to the bundle
      const fromBundle = path.relative(path.dirname(path.resolve(VALIDATE_BUNDLE)), target);
      return { path: fromBundle.startsWith('.') ? fromBundle : `./${fromBundle}`, external: true };
    });
  },
};
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
// globs are the rare input: tinyglobby (with picomatch and fdir, 57 KB) stays a lazy import
// of the installed package instead of source every start parses
const globsOutside = {
  name: 'globs-outside',
  setup(b) {
    b.onResolve({ filter: /^tinyglobby$/ }, () => ({ path: 'tinyglobby', external: true }));
  },
};
const VALIDATE_BUNDLE = 'dist/cli/commands/validate-run.bundle.cjs';
await buildForCodeCache({
  entryPoints: ['dist/cli/commands/validate-run.js'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  outfile: VALIDATE_BUNDLE,
  sourcemap: false,
  // less to parse on every start; identifiers kept (stack traces of an internal error)
  minifyWhitespace: true,
  minifySyntax: true,
  plugins: [keepErrorsShared, englishOnly, globsOutside],
  logLevel: 'warning',
});
