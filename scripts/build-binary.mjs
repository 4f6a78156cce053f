#!/usr/bin/env node
// `npm run build:binary` (after `npm run build`): svc-cli as one executable for teams without
// Node, built with Node's single executable applications (SEA):
//   1. dist/cli/binary.js (the entry) and everything it imports, every command's body
//      included, bundled into one CommonJS script: a SEA runs one script whose `require`
//      serves Node builtins only and whose `import()` serves nothing, so every lazy import()
//      must resolve inside the bundle;
//   2. the package files read at run time (src/package-files.ts) embedded as SEA assets,
//      with a list of them (node:sea cannot list its assets);
//   3. the SEA blob (`node --experimental-sea-config`, with V8's code cache of the script)
//      injected into a copy of the Node that runs this script, with postject.
// The binary is for this machine's platform and architecture; it lands in dist-bin/
// (git-ignored, never in the npm package). Prints its path and size.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'postject';

const root = path.resolve(import.meta.dirname, '..');
const out = path.join(root, 'dist-bin');
const dist = path.join(root, 'dist');
const entry = path.join(dist, 'cli/binary.js');
const script = path.join(out, 'svc-cli.cjs');
const blob = path.join(out, 'svc-cli.blob');
const binary = path.join(out, process.platform === 'win32' ? 'svc-cli.exe' : 'svc-cli');
// the fuse Node's own build puts in its binary; postject flips it to say a blob is there
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

if (!existsSync(entry)) {
  console.error('Could not build the binary: dist/cli/binary.js is missing. Run `npm run build`.');
  process.exit(1);
}
const { ASSET_LIST_KEY } = await import(pathToFileURL(path.join(dist, 'package-files.js')).href);

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// In the binary there are no bundles on disk to compile with a code cache (the SEA has its
// own), and the one script holds every module: loadCompiled finds nothing, so every caller
// takes its import() of the modules, which esbuild resolved into the bundle, and no code
// cache is ever owed. Every name src/ imports from compiled.ts has a stand-in here
// (test/unit/cli/compiled.test.ts).
const noDiskBundles = {
  name: 'no-disk-bundles',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]compiled\.js$/ }, () => ({
      contents: [
        'export const loadCompiled = () => undefined;',
        'export const compiledExports = () => undefined;',
        'export const writeOwedCodeCaches = () => undefined;',
        '',
      ].join('\n'),
      loader: 'js',
    }));
  },
};
// client-trust.ts loads undici for --ca / --insecure with a require of its own (so the disk
// start-up bundle does not hold it); the binary has no node_modules: the bundle's own
// require, which esbuild resolves, takes its place
const undiciInside = {
  name: 'undici-inside',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]cli[\\/]client-trust\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      // tsc keeps the name `require`; esbuild's per-file build (npm run build:js) renames it
      // (`require2`), and only calls of `require` itself are bundled: they get that name back
      const own = /const (require\d*) = createRequire\(import\.meta\.url\);/;
      const name = own.exec(text)?.[1];
      if (name === undefined) throw new Error(`${args.path}: its createRequire was not found`);
      const calls = new RegExp(`\\b${name}\\(`, 'g');
      return { contents: text.replace(own, '').replace(calls, 'require('), loader: 'js' };
    });
  },
};

const result = await build({
  entryPoints: [entry],
  outfile: script,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  // less to parse at each start; identifiers kept (stack traces, help texts)
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  plugins: [noDiskBundles, undiciInside],
  // a module's own URL: only compiled.ts (replaced above) and package-files.ts (which reads
  // the assets in the binary) use it; both see the binary's place
  define: { 'import.meta.url': 'svcBinaryUrl' },
  banner: {
    js: 'const svcBinaryUrl = require("node:url").pathToFileURL(process.execPath).href;',
  },
  logOverride: { 'empty-import-meta': 'error' },
  logLevel: 'warning',
});
const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
const builtin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier);
const outside = imports.find(
  (i) => i.external && (i.kind === 'dynamic-import' || !builtin(i.path)),
);
if (outside)
  throw new Error(`the binary's script would ${outside.kind} ${outside.path}: not in the bundle`);

/** Package-relative paths of the files under `dir`, at any depth. */
const filesUnder = (dir) =>
  readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? filesUnder(`${dir}/${e.name}`) : e.isFile() ? [`${dir}/${e.name}`] : [],
  );
const assetKeys = [
  'package.json',
  ...filesUnder('dist/web').filter((f) => /\.(html|css|js)$/.test(f)),
  'dist/widget/svc-widget.js',
  ...filesUnder('fixtures'),
  ...filesUnder('schemas'),
].sort();
const list = path.join(out, ASSET_LIST_KEY);
// names the folder the binary copies its files to (src/package-files.ts): a new build with
// other files never reads an older build's copy
const hash = createHash('sha256');
for (const key of assetKeys) hash.update(`${key}\0`).update(readFileSync(path.join(root, key)));
writeFileSync(list, JSON.stringify({ key: hash.digest('hex').slice(0, 16), files: assetKeys }));
const assets = Object.fromEntries([
  [ASSET_LIST_KEY, list],
  ...assetKeys.map((key) => [key, path.join(root, key)]),
]);

const config = path.join(out, 'sea-config.json');
writeFileSync(
  config,
  `${JSON.stringify(
    {
      main: script,
      output: blob,
      disableExperimentalSEAWarning: true,
      useCodeCache: true,
      assets,
    },
    null,
    2,
  )}\n`,
);
execFileSync(process.execPath, ['--experimental-sea-config', config], {
  stdio: ['ignore', 'ignore', 'inherit'],
});

copyFileSync(process.execPath, binary);
chmodSync(binary, 0o755);
// Node's release binaries carry their symbols (~10 MB here): a binary for users needs none
try {
  execFileSync('strip', [binary], { stdio: 'ignore' });
} catch {
  // no strip on this machine: the binary is only bigger
}
// postject's ELF reader warns about each of the many notes Node's build carries (harmless):
// its warnings are shown only when the injection fails
const warnings = [];
const warn = console.warn;
console.warn = (...args) => warnings.push(args.join(' '));
try {
  await inject(binary, 'NODE_SEA_BLOB', await readFile(blob), { sentinelFuse: SEA_FUSE });
} catch (error) {
  warn(warnings.join('\n'));
  throw error;
} finally {
  console.warn = warn;
}

const mb = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`;
console.log(
  `${path.relative(process.cwd(), binary)}: ${mb(binary)} (Node ${process.version} ${process.platform}-${process.arch}; script ${mb(script)}, ${assetKeys.length} package files embedded)`,
);
