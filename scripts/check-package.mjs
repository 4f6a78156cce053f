#!/usr/bin/env node
// `npm run check:package`: the packed tarball works in an empty project.
// npm pack (its prepack script builds) -> npm install <tarball> (+ msw, the optional peer
// svc-cli/msw needs) in a fresh temporary project, never this repository's dev dependencies
// -> every relative link of the packed README resolves inside the package -> the CLI runs (--version, replay, validate, platform answering its status URL), the
// entry points import from ESM, require from CommonJS, and type-check with TypeScript (node16,
// bundler, and nodenext from a CommonJS .cts file) -> publint
// and attw judge the package. Prints one line per check and the tarball size; exit 1 on any
// failure. Needs the npm registry for the tarball's own dependencies.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'svc-package-'));
const project = path.join(work, 'project');
const keep = process.argv.includes('--keep');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const failures = [];

/** Runs a command; resolves to stdout, throws with stderr on a non-zero exit. */
function run(cmd, args, cwd, options = {}) {
  return execFileSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
    ...options,
  });
}

async function check(name, fn) {
  const started = performance.now();
  try {
    const detail = await fn();
    const ms = Math.round(performance.now() - started);
    console.log(`ok    ${name}${detail ? `: ${detail}` : ''} (${ms} ms)`);
  } catch (error) {
    failures.push(name);
    const text = [error.message, error.stdout, error.stderr].filter(Boolean).join('\n');
    console.log(`FAIL  ${name}\n${text.replace(/^/gm, '      ')}`);
  }
}

const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

// 1. the tarball (npm pack runs `prepack`, which builds)
let tarball;
await check('npm pack', () => {
  const [info] = JSON.parse(run(npm, ['pack', '--json', '--pack-destination', work], repo));
  tarball = path.join(work, info.filename);
  return `${info.filename}, ${kB(info.size)} packed, ${kB(info.unpackedSize)} unpacked, ${info.entryCount} files`;
});
if (!tarball) process.exit(1);

// 2. an empty project that installs it, the way a user does (no dev dependencies)
writeFileSync(path.join(work, 'package.json'), JSON.stringify({ name: 'unused', private: true })); // keeps npm from climbing to an outer package.json
execFileSync('mkdir', ['-p', project]);
writeFileSync(
  path.join(project, 'package.json'),
  `${JSON.stringify({ name: 'svc-package-check', private: true, type: 'module' }, null, 2)}\n`,
);
await check('npm install <tarball> msw', () => {
  run(
    npm,
    [
      'install',
      '--no-audit',
      '--no-fund',
      '--ignore-scripts',
      tarball,
      `msw@${pkg.peerDependencies.msw}`,
    ],
    project,
  );
  const installed = JSON.parse(
    readFileSync(path.join(project, 'node_modules/svc-cli/package.json'), 'utf8'),
  );
  return `svc-cli ${installed.version}`;
});

// the documentation: every relative link of the packed README (and of the pages it links)
// resolves to a file inside the installed package, so a citation never leads outside it
await check('README links resolve inside the package', () => {
  const installed = path.join(project, 'node_modules/svc-cli');
  const seen = new Set();
  const pages = ['README.md'];
  const broken = [];
  while (pages.length > 0) {
    const page = pages.pop();
    if (seen.has(page)) continue;
    seen.add(page);
    const text = readFileSync(path.join(installed, page), 'utf8');
    for (const [, target] of text.matchAll(/\]\((?!https?:|#|mailto:)([^)\s#]+)/g)) {
      const file = path.posix.normalize(path.posix.join(path.posix.dirname(page), target));
      if (file.startsWith('..') || !existsSync(path.join(installed, file)))
        broken.push(`${page} -> ${target}`);
      else if (file.endsWith('.md')) pages.push(file);
    }
  }
  if (!existsSync(path.join(installed, 'docs/CONTRACT.md')))
    broken.push('docs/CONTRACT.md missing');
  if (broken.length > 0) throw new Error(`broken: ${broken.join(', ')}`);
  return `${seen.size} pages`;
});

// a stack frame inside svc-cli maps to its TypeScript line, read from the map itself: the
// package ships dist/, not src/, so a map that only named its source led to no file
await check('source maps carry their sources', () => {
  const installed = path.join(project, 'node_modules/svc-cli');
  const map = JSON.parse(readFileSync(path.join(installed, 'dist/platform/agent.js.map'), 'utf8'));
  if (!map.sourcesContent?.[0]?.includes('sendAgentMessage'))
    throw new Error('dist/platform/agent.js.map has no sourcesContent');
  return 'dist/platform/agent.js.map';
});

// 3. the CLI
await check('npx svc-cli --version', () => {
  const out = run(npx, ['--no-install', 'svc-cli', '--version'], project).trim();
  if (out !== pkg.version) throw new Error(`printed "${out}", expected ${pkg.version}`);
  return out;
});
await check('npx svc-cli replay (the bundled conversations)', () => {
  const out = run(npx, ['--no-install', 'svc-cli', 'replay'], project);
  const summary = out.trim().split('\n').at(-1);
  if (!/^\d+ passed, 0 failed$/.test(summary)) throw new Error(`summary: ${summary}`);
  return summary;
});
await check('npx svc-cli validate <a fixture>', () => {
  const sample = 'node_modules/svc-cli/fixtures/payloads/channel/customer-text-minimal.valid.json';
  const out = run(npx, ['--no-install', 'svc-cli', 'validate', sample], project);
  return out.trim().split('\n').at(-1);
});
await check('npx svc-cli schema --format openapi equals the shipped schemas/openapi.json', () => {
  const printed = JSON.parse(
    run(npx, ['--no-install', 'svc-cli', 'schema', '--format', 'openapi'], project),
  );
  const shipped = readFileSync(
    path.join(project, 'node_modules/svc-cli/schemas/openapi.json'),
    'utf8',
  );
  // equal only if the installed generator found the shipped samples for its examples
  if (JSON.stringify(printed, null, 2) + '\n' !== shipped) throw new Error('they differ');
  return `${Object.keys(printed.paths).length} paths, ${Object.keys(printed.webhooks).length} webhooks`;
});
await check('npx svc-cli platform --port 0 answers its status URL', () => checkPlatform());

// 4. the entry points from ESM, and the published documents
writeFileSync(
  path.join(project, 'check.mjs'),
  `import * as main from 'svc-cli';
import * as schemas from 'svc-cli/schemas';
import * as msw from 'svc-cli/msw';
import * as widget from 'svc-cli/widget';
import openapi from 'svc-cli/schemas/openapi.json' with { type: 'json' };
import asyncapi from 'svc-cli/schemas/asyncapi.json' with { type: 'json' };
const need = (ok, what) => { if (!ok) throw new Error(what); };
need(typeof main.createClock === 'function', 'svc-cli: createClock');
need(typeof main.createPlatform === 'function', 'svc-cli: createPlatform');
need(schemas.validate('channel.customer.text', { sender: { id: 'c' }, message: { type: 'text', text: 'hi' } }).ok, 'svc-cli/schemas: validate');
need(Object.keys(msw).length > 0, 'svc-cli/msw exports');
need(Object.keys(widget).length > 0, 'svc-cli/widget exports');
need(openapi.openapi === '3.1.0' && asyncapi.asyncapi === '3.0.0', 'the API documents');
console.log(['svc-cli', 'svc-cli/schemas', 'svc-cli/msw', 'svc-cli/widget', 'openapi.json', 'asyncapi.json'].join(', '));
`,
);
await check('ESM imports', () => run(process.execPath, ['check.mjs'], project).trim());

// 4b. the same entry points from CommonJS: Node >= 20.19 (engines) requires an ES module that
// has no top-level await, and the exports' "default" condition lets `require` find it
writeFileSync(
  path.join(project, 'check.cjs'),
  `const main = require('svc-cli');
const schemas = require('svc-cli/schemas');
const msw = require('svc-cli/msw');
const widget = require('svc-cli/widget');
const need = (ok, what) => { if (!ok) throw new Error(what); };
need(typeof main.createClock === 'function', 'svc-cli: createClock');
need(schemas.validate('channel.customer.text', { sender: { id: 'c' }, message: { type: 'text', text: 'hi' } }).ok, 'svc-cli/schemas: validate');
need(typeof msw.createMswPlatform === 'function', 'svc-cli/msw: createMswPlatform');
need(Object.keys(widget).length > 0, 'svc-cli/widget exports');
console.log(['svc-cli', 'svc-cli/schemas', 'svc-cli/msw', 'svc-cli/widget'].join(', '));
`,
);
await check('CommonJS require (Node >= 20.19)', () =>
  run(process.execPath, ['--no-warnings', 'check.cjs'], project).trim(),
);

// 5. TypeScript: the types resolve and check under node16 and bundler resolution
writeFileSync(
  path.join(project, 'check.ts'),
  `import { createClock, createPlatform, type PlatformOptions, type ValidationResult } from 'svc-cli';
import { validate, listKinds } from 'svc-cli/schemas';
import * as msw from 'svc-cli/msw';
import * as widget from 'svc-cli/widget';
const result: ValidationResult = validate('channel.customer.text', {});
const ok: boolean = result.ok;
const kinds: string[] = listKinds().map((k) => k.name);
const options: PlatformOptions = { faults: { failFirst: 2, failWith: 'status:503' } };
export { createClock, createPlatform, options, ok, kinds, msw, widget };
`,
);
// the README's msw test in a CommonJS project (a .cts file): TypeScript >= 5.8 models
// Node's require of an ES module under module nodenext
writeFileSync(
  path.join(project, 'check-cjs.cts'),
  `import { createMswPlatform } from 'svc-cli/msw';
import { validate } from 'svc-cli/schemas';
const sim = createMswPlatform({ baseUrl: 'https://platform.test' });
const ok: boolean = validate('channel.customer.text', {}).ok;
export { sim, ok };
`,
);
const typescript = path.join(repo, 'node_modules/typescript/bin/tsc');
for (const [resolution, module, file] of [
  ['node16', 'node16', 'check.ts'],
  ['bundler', 'esnext', 'check.ts'],
  ['nodenext', 'nodenext', 'check-cjs.cts'],
]) {
  const config = `tsconfig.${resolution}.json`;
  writeFileSync(
    path.join(project, config),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: 'es2022',
        module,
        moduleResolution: resolution,
        // the user's own @types/node; this check borrows the repository's
        types: ['node'],
        typeRoots: [path.join(repo, 'node_modules/@types')],
        skipLibCheck: false,
      },
      files: [file],
    }),
  );
  await check(`tsc --noEmit, moduleResolution ${resolution} (${file})`, () => {
    run(process.execPath, [typescript, '-p', config], project);
  });
}

// 6. the tools made for this
await check('publint --strict', () => {
  const out = run(npx, ['--no-install', 'publint', '--strict', tarball], repo);
  return out.trim().split('\n').at(-1);
});
// esm-only: the package is ESM (engines node >=20.19). attw's node10 and CJS-require columns
// predate require() of an ES module; step 4b runs that instead. ./widget/browser is a classic <script> file (an IIFE that sets
// window.svc_api), not a module: it has nothing to type.
await check('attw (@arethetypeswrong/cli), profile esm-only', () => {
  run(
    npx,
    [
      '--no-install',
      'attw',
      tarball,
      '--profile',
      'esm-only',
      '--exclude-entrypoints',
      './widget/browser',
      '--format',
      'ascii',
    ],
    repo,
  );
  return 'no problems';
});

async function checkPlatform() {
  const child = spawn(
    process.execPath,
    [
      path.join(project, 'node_modules/.bin/svc-cli'),
      'platform',
      '--port',
      '0',
      '--json',
      '--quiet',
    ],
    { cwd: project, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
  );
  try {
    const listening = await new Promise((resolve, reject) => {
      let buffer = '';
      let stderr = '';
      child.stderr.on('data', (d) => (stderr += d));
      child.stdout.on('data', (d) => {
        buffer += d;
        for (const line of buffer.split('\n').slice(0, -1)) {
          const event = JSON.parse(line);
          if (event.type === 'listening') resolve(event);
        }
      });
      child.on('exit', (code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
    });
    const statusUrl = listening.channels[0].statusUrl;
    const response = await fetch(statusUrl);
    const body = await response.text();
    if (response.status !== 200 || !['0', '1'].includes(body.trim()))
      throw new Error(`GET ${statusUrl}: ${response.status} ${body}`);
    return `GET ${statusUrl} -> ${response.status} ${body.trim()}`;
  } finally {
    child.kill('SIGTERM');
  }
}

if (keep) console.log(`kept ${work}`);
else rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`\n${failures.length} check(s) failed: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nthe packed tarball works in an empty project');
