#!/usr/bin/env node
// Start-up is a feature (conventions.md 13): `svc-cli --help` loads every command's
// registration module. Bundle those (src/cli/commands/*.ts minus the lazily imported
// `*-run` bodies) into dist/cli/commands/index.js, in place, so one module loads instead of
// ~25. Everything outside the folder and every dynamic import stays an external import with
// its path as written, so shared modules (errors, action) keep one identity and the lazy
// `import('./x-run.js')` still resolves next to the bundle. Run by `npm run build`.
import { build } from 'esbuild';

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
      if (!args.path.startsWith('./')) return { path: args.path, external: true };
      return undefined; // ./register-module.js: bundled
    });
  },
};

await build({
  entryPoints: ['dist/cli/commands/index.js'],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outfile: 'dist/cli/commands/index.js',
  allowOverwrite: true,
  sourcemap: false,
  plugins: [keepOutside],
  logLevel: 'warning',
});
