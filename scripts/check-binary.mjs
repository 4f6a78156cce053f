#!/usr/bin/env node
// The single binary (`npm run build:binary`) runs with no Node on PATH: --version, replay of
// the conversations built into it, validate, schema (its examples are embedded payloads),
// platform serving a channel and the web console, the widget demo page, each from an empty
// folder with a PATH that holds no node. Prints one line per check; exit 1 on any failure.
// Usage: node scripts/check-binary.mjs [path of the binary, default dist-bin/svc-cli]
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const repo = path.resolve(import.meta.dirname, '..');
const binary = path.resolve(process.argv[2] ?? path.join(repo, 'dist-bin/svc-cli'));
const pkg = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
const work = mkdtempSync(path.join(tmpdir(), 'svc-binary-'));
const cwd = path.join(work, 'project'); // no fixtures folder: replay takes the embedded ones
const noNode = path.join(work, 'bin'); // the whole PATH: an empty folder
mkdirSync(cwd);
mkdirSync(noNode);
// TMPDIR of its own: the binary copies its fixtures there (src/package-files.ts) on first use
const env = { PATH: noNode, HOME: work, TMPDIR: work, NO_COLOR: '1' };
const failures = [];

async function check(name, fn) {
  const started = performance.now();
  try {
    const detail = await fn();
    const ms = Math.round(performance.now() - started);
    console.log(`ok    ${name}${detail ? `: ${detail}` : ''} (${ms} ms)`);
  } catch (error) {
    failures.push(name);
    console.log(`FAIL  ${name}\n${String(error.message).replace(/^/gm, '      ')}`);
  }
}

/** Runs the binary to its end; throws unless it exits with `status`. */
function run(args, status = 0) {
  const result = spawnSync(binary, args, { cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (result.error) throw result.error;
  if (result.status !== status)
    throw new Error(`exit ${result.status}, expected ${status}\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

/** Starts a serving command, resolves its `listening` event; `stop()` sends SIGINT. */
function serve(args) {
  const child = spawn(binary, [...args, '--port', '0', '--json'], { cwd, env });
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  const listening = new Promise((resolve, reject) => {
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
    void exited.then((code) => reject(new Error(`exited ${code} before listening: ${stderr}`)));
  });
  const stop = async () => {
    child.kill('SIGINT');
    return exited;
  };
  return { listening, stop, child };
}

async function get(url, type) {
  const response = await fetch(url);
  const body = await response.text();
  if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes(type))
    throw new Error(`GET ${url}: ${response.status} ${response.headers.get('content-type')}`);
  return body;
}

await check('no node on the PATH it runs with', () => {
  const found = spawnSync('/bin/sh', ['-c', 'command -v node'], { env });
  if (found.status === 0) throw new Error(`node found: ${found.stdout}`);
  return `${path.relative(process.cwd(), binary)}, ${(statSync(binary).size / 1e6).toFixed(1)} MB`;
});
await check('--version', () => {
  const out = run(['--version']).trim();
  if (out !== pkg.version) throw new Error(`printed "${out}", expected ${pkg.version}`);
  return out;
});
await check('--help lists every command', () => {
  const out = run(['--help']);
  const missing = ['platform', 'replay', 'validate', 'conform', 'load'].filter(
    (c) => !new RegExp(`^  ${c}\\b`, 'm').test(out),
  );
  if (missing.length > 0) throw new Error(`--help lacks ${missing.join(', ')}`);
});
await check('replay (the conversations built in)', () => {
  const summary = run(['replay']).trim().split('\n').at(-1);
  if (!/^\d+ passed, 0 failed$/.test(summary)) throw new Error(`summary: ${summary}`);
  return summary;
});
const payloads = path.join(repo, 'fixtures/payloads/channel');
await check('validate <a valid payload> (exit 0)', () => {
  run(['validate', path.join(payloads, 'customer-text-minimal.valid.json')]);
});
await check('validate <an invalid payload> (exit 1)', () => {
  run(['validate', path.join(payloads, 'customer-text-missing-text.invalid.json')], 1);
});
await check('schema --format openapi equals schemas/openapi.json', () => {
  const printed = run(['schema', '--format', 'openapi']);
  if (printed !== readFileSync(path.join(repo, 'schemas/openapi.json'), 'utf8'))
    throw new Error('they differ (the embedded payload samples are the examples)');
});
await check('platform --web: a channel, its status URL, the console, SIGINT', async () => {
  const platform = serve(['platform', '--web']);
  let listening;
  try {
    listening = await platform.listening;
    const status = (await get(listening.channels[0].statusUrl, 'text')).trim();
    if (!['0', '1'].includes(status)) throw new Error(`status ${status}`);
    await get(listening.consoleUrl, 'text/html');
    await get(`${listening.consoleUrl}console.js`, 'javascript');
  } catch (error) {
    platform.child.kill('SIGKILL');
    throw error;
  }
  const code = await platform.stop();
  if (code !== 130) throw new Error(`exit ${code} after SIGINT, expected 130`);
  return `status ${listening.channels[0].statusUrl} -> 200, console 200, exit 130`;
});
await check('widget: the demo page and svc-widget.js', async () => {
  const widget = serve(['widget']);
  try {
    const listening = await widget.listening;
    await get(listening.url, 'text/html');
    await get(new URL('/svc-widget.js', listening.url).href, 'javascript');
  } finally {
    await widget.stop();
  }
});

rmSync(work, { recursive: true, force: true });
if (failures.length > 0) {
  console.log(`\n${failures.length} check(s) failed: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nthe binary runs with no Node on the PATH');
