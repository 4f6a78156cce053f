// Bundles the page-script double for a <script> tag: dist/widget/svc-widget.js (IIFE).
// Run by `npm run build` after tsc; `--outfile <path>` writes elsewhere (the browser test).
import process from 'node:process';
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { dirname, resolve } from 'node:path';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const flag = process.argv.indexOf('--outfile');
const outfile =
  flag >= 0 && process.argv[flag + 1]
    ? resolve(process.argv[flag + 1])
    : resolve(root, 'dist/widget/svc-widget.js');

await build({
  entryPoints: [resolve(root, 'src/widget/browser.ts')],
  outfile,
  bundle: true,
  format: 'iife',
  platform: 'browser',
  target: ['es2020'],
  legalComments: 'none',
  logLevel: 'warning',
});
