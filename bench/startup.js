// Start-up: `svc-cli --help`, `--version` and `validate one-file.json` (issue 18: a git hook
// per file) wall time as a ratio to `node -e 0`, measured in the same run (median of RUNS
// each, interleaved so drift hits all alike). svc-cli keeps a code cache of its start-up
// bundles (src/cli/compiled.ts): the targets are timed with it in place, as every run after
// the first on a machine; the same two without it are printed for context.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 15;
const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));
const oneFile = fileURLToPath(
  new URL('../fixtures/payloads/channel/customer-text.valid.json', import.meta.url),
);

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function time(args, cache = 'on') {
  const start = process.hrtime.bigint();
  const env = { ...process.env, SVC_COMPILE_CACHE: cache === 'on' ? cacheDir : '0' };
  const result = spawnSync(process.execPath, args, { stdio: 'ignore', env });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

let cacheDir;

export async function run() {
  cacheDir = mkdtempSync(join(tmpdir(), 'svc-bench-compile-cache-'));
  const samples = { base: [], help: [], version: [], validate: [], helpCold: [], validateCold: [] };
  try {
    time(['-e', '0']); // warm the file cache
    time([bin, 'validate', oneFile]); // the first run writes the code cache
    for (let i = 0; i < RUNS; i++) {
      samples.base.push(time(['-e', '0']));
      samples.help.push(time([bin, '--help']));
      samples.version.push(time([bin, '--version']));
      samples.validate.push(time([bin, 'validate', oneFile]));
      samples.helpCold.push(time([bin, '--help'], 'off'));
      samples.validateCold.push(time([bin, 'validate', oneFile], 'off'));
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const base = median(samples.base);
  const rows = [{ section: 'startup', metric: 'node -e 0 (ms, median)', value: base.toFixed(1) }];
  for (const name of ['help', 'version']) {
    const ms = median(samples[name]);
    const ratio = ms / base;
    rows.push({
      section: 'startup',
      metric: `svc-cli --${name} (ms; ratio to node -e 0)`,
      value: `${ms.toFixed(1)} ms; ${ratio.toFixed(2)}x`,
      target: '<= 1.5x',
      ok: ratio <= 1.5,
    });
  }
  const validateMs = median(samples.validate);
  rows.push({
    section: 'startup',
    metric: 'svc-cli validate one-file.json (ms; ratio to node -e 0)',
    value: `${validateMs.toFixed(1)} ms; ${(validateMs / base).toFixed(2)}x`,
    target: '<= 2x',
    ok: validateMs / base <= 2,
  });
  for (const [name, label] of [
    ['helpCold', '--help'],
    ['validateCold', 'validate one-file.json'],
  ]) {
    const ms = median(samples[name]);
    rows.push({
      section: 'startup',
      metric: `svc-cli ${label} without the code cache (SVC_COMPILE_CACHE=0; ms; ratio)`,
      value: `${ms.toFixed(1)} ms; ${(ms / base).toFixed(2)}x`,
      target: '(context: a first run)',
    });
  }
  return rows;
}
