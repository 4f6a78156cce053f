// Start-up: `svc-cli --help`, `--version` and `validate one-file.json` (issue 18: a git hook
// per file) wall time as a ratio to `node -e 0`, measured in the same run (median of RUNS
// each, interleaved so drift hits all alike).
import { spawnSync } from 'node:child_process';
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

function time(args) {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { stdio: 'ignore' });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function run() {
  const samples = { base: [], help: [], version: [], validate: [] };
  time(['-e', '0']); // warm the file cache
  for (let i = 0; i < RUNS; i++) {
    samples.base.push(time(['-e', '0']));
    samples.help.push(time([bin, '--help']));
    samples.version.push(time([bin, '--version']));
    samples.validate.push(time([bin, 'validate', oneFile]));
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
  return rows;
}
