import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './run-cli.js';

/** The example integrators `svc-cli mutate` runs in the e2e tests (docs/coverage.md). */
export const mutateProject = join(repoRoot, 'test/examples/mutate-project');

/** the example's own suites run as its users would: `vitest run <file>` in its folder */
export const exampleVitest = [
  process.execPath,
  join(repoRoot, 'node_modules/vitest/vitest.mjs'),
  'run',
];

/** whether `python3 -m pytest` runs here (the Python example needs it) */
export const hasPytest = (): boolean =>
  spawnSync('python3', ['-m', 'pytest', '--version'], { stdio: 'ignore' }).status === 0;

/** `mutate --json` output: each mutant's outcome by name, and the summary line. */
export function outcomes(stdout: string): {
  by: Record<string, string>;
  summary: Record<string, unknown>;
} {
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; name: string; outcome: string });
  const by = Object.fromEntries(
    lines.filter((l) => l.type === 'mutant-result').map((l) => [l.name, l.outcome]),
  );
  return { by, summary: lines.find((l) => l.type === 'summary') ?? {} };
}
