#!/usr/bin/env node
// The JavaScript half of `tsc -p tsconfig.build.json`, in about a second instead of ~30 s of
// CPU: `npm test` runs the built CLI and needs dist/*.js, not the type declarations, and the
// types are checked by `npm run typecheck` (CI runs it before the tests). The sources allow
// this: `verbatimModuleSyntax` makes every file transpilable alone (no const enums, no
// type-only imports left for a compiler to elide), so esbuild's output is the same program as
// tsc's. `npm run build`, which the package and the binary come from, still runs tsc.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');
// the browser pages are bundled by scripts/build-web.js, as tsconfig.build.json excludes them
const browserPages = ['web/console', 'web/demo'].map((dir) => path.join(src, dir) + path.sep);

const entryPoints = readdirSync(src, { recursive: true, encoding: 'utf8' })
  .map((file) => path.join(src, file))
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
  .filter((file) => !browserPages.some((dir) => file.startsWith(dir)));

await build({
  entryPoints,
  outdir: path.join(root, 'dist'),
  outbase: src,
  bundle: false,
  platform: 'node',
  format: 'esm',
  // tsconfig.json's target: class fields and the rest compiled as tsc compiles them
  target: 'es2022',
  tsconfig: path.join(root, 'tsconfig.json'),
  sourcemap: true,
  logLevel: 'warning',
});
