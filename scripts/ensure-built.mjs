#!/usr/bin/env node
// `npm start` in a fresh clone: dist/ is written by a build, not by `npm ci` (the package has
// no prepare script, which npm 11 lists as an install script for every user to approve, though
// it never runs for a tarball). So the first start builds (`npm run build:js`, a few seconds),
// and a start after a source change rebuilds; otherwise this costs one walk of src/.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// the last file the build writes (scripts/bundle-commands.mjs)
const built = path.join(root, 'dist', 'cli', 'boot.cjs');

const mtime = (file) => {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return undefined;
  }
};

const builtAt = mtime(built);
const newestSource = () =>
  Math.max(
    ...readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }).map(
      (file) => mtime(path.join(root, 'src', file)) ?? 0,
    ),
  );

if (builtAt === undefined || newestSource() > builtAt) {
  process.stderr.write(
    builtAt === undefined
      ? 'svc-cli: building dist/ (first run in this clone)\n'
      : 'svc-cli: src/ changed since the last build: rebuilding dist/\n',
  );
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const build = spawnSync(npm, ['run', '--silent', 'build:js'], { cwd: root, stdio: 'inherit' });
  process.exit(build.status ?? 1);
}
