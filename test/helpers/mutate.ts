import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
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

/**
 * What a green `mutate --min-score 100 --junit mutants.xml --report mutants.html` run with one
 * mutant never exercised writes in `dir`: the JUnit file (score property, the named killed
 * mutant's testcase with its run's last output, the skip, the gate) and the HTML page (a card per mutant, the run's
 * conversations).
 */
export function expectFullScoreReports(
  dir: string,
  killed: { name: string; spec: string; family: string },
  mutants: number,
): void {
  const xml = readFileSync(join(dir, 'mutants.xml'), 'utf8');
  expect(xml).toContain('<property name="mutation.score" value="100"/>');
  expect(xml).toMatch(
    new RegExp(
      `<testcase name="${killed.name} \\(spec ${killed.spec}\\)" classname="svc-cli mutate.${killed.family}" time="[\\d.]+">\\n {6}<system-out>[^<]+</system-out>\\n {4}</testcase>`,
    ),
  );
  expect(xml).toContain('<skipped message="never exercised by the recorded run: not run"/>');
  // the gate's name stays when its minimum changes (CI keeps history by name); the minimum is
  // a property
  expect(xml).toMatch(/<testcase name="mutation score" classname="svc-cli mutate"><\/testcase>/);
  expect(xml).toContain('<property name="mutation.minScore" value="100"/>');
  expect(xml).not.toContain('<failure');
  // the trace report's page: a card per mutant, then the recorded run's conversations
  const html = readFileSync(join(dir, 'mutants.html'), 'utf8');
  expect(html.match(/<section class="conv mutant/g)).toHaveLength(mutants);
  expect(html).toContain('data-outcome="not-exercised"');
  expect(html).toMatch(/<section class="conv" id="c-/);
  expect(html).toContain('mutation score <b>100.0%</b>');
}
