// Builds the browser pages: the agent web console (dist/web/console/) and the demo page of
// `svc-cli widget` (dist/web/demo/). Scripts are bundled with esbuild; HTML and CSS copied.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pages = [
  { name: 'console', entry: 'main.ts', out: 'console.js' },
  { name: 'demo', entry: 'main.ts', out: 'demo.js' },
];

for (const page of pages) {
  const src = resolve(root, 'src/web', page.name);
  const out = resolve(root, 'dist/web', page.name);
  mkdirSync(out, { recursive: true });
  await build({
    entryPoints: [resolve(src, page.entry)],
    outfile: resolve(out, page.out),
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    legalComments: 'none',
    logLevel: 'warning',
  });
  for (const file of readdirSync(src)) {
    if (/\.(html|css)$/.test(file)) copyFileSync(resolve(src, file), resolve(out, file));
  }
}
