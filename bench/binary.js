// The single binary (`npm run build:binary`): its start-up against `node bin/svc-cli.js`, for
// --version and --help, median of RUNS each, interleaved in the same run so drift hits both
// alike. Informational: the binary carries its own Node and a 4 MB script with every command,
// where the package starts from three small files. Built first when missing or older than
// the build (dist/).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const RUNS = 15;
const repo = fileURLToPath(new URL('..', import.meta.url));
const bin = join(repo, 'bin/svc-cli.js');
const binary = join(repo, 'dist-bin/svc-cli');

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function time(command, args, env) {
  const start = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: 'ignore', env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function run() {
  const built = join(repo, 'dist/cli/main.bundle.cjs');
  if (!existsSync(binary) || statSync(binary).mtimeMs < statSync(built).mtimeMs)
    execFileSync(process.execPath, [join(repo, 'scripts/build-binary.mjs')], { stdio: 'ignore' });
  const cacheDir = mkdtempSync(join(tmpdir(), 'svc-bench-binary-'));
  const env = { ...process.env, SVC_COMPILE_CACHE: cacheDir };
  const samples = { nodeVersion: [], binaryVersion: [], nodeHelp: [], binaryHelp: [] };
  try {
    time(process.execPath, [bin, '--help'], env); // writes the package's code cache
    time(binary, ['--help'], env); // the file cache holds the binary
    for (let i = 0; i < RUNS; i++) {
      samples.nodeVersion.push(time(process.execPath, [bin, '--version'], env));
      samples.binaryVersion.push(time(binary, ['--version'], env));
      samples.nodeHelp.push(time(process.execPath, [bin, '--help'], env));
      samples.binaryHelp.push(time(binary, ['--help'], env));
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
  const rows = [
    {
      section: 'binary',
      metric: 'dist-bin/svc-cli size (MB)',
      value: (statSync(binary).size / 1e6).toFixed(1),
    },
  ];
  for (const [flag, node, single] of [
    ['--version', 'nodeVersion', 'binaryVersion'],
    ['--help', 'nodeHelp', 'binaryHelp'],
  ]) {
    const nodeMs = median(samples[node]);
    const binaryMs = median(samples[single]);
    rows.push({
      section: 'binary',
      metric: `svc-cli ${flag}: binary vs node bin/svc-cli.js (ms, median; ratio)`,
      value: `${binaryMs.toFixed(1)} vs ${nodeMs.toFixed(1)} ms; ${(binaryMs / nodeMs).toFixed(2)}x`,
      target: '(informational)',
    });
  }
  return rows;
}
