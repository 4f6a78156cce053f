// Mutation run: every simulator mutant against a suite (the CLI replaying the bundled
// conversations), two at once as on this 2-core machine. The whole run has a 3 minute budget,
// and each mutant's run should stay under 1.5x the clean run: a mutant that makes the suite
// much slower (a hang waiting for a timeout) costs every user of `svc-cli mutate` that time.
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export async function run() {
  const { runMutation } = await import('../dist/mutate/run.js');
  const started = performance.now();
  const report = await runMutation({
    command: [process.execPath, 'bin/svc-cli.js', 'replay', 'fixtures/conversations'],
    cwd: root,
    jobs: Number(process.env.BENCH_MUTATE_JOBS ?? 2),
  });
  const wall = performance.now() - started;
  const slowest = Math.max(...report.results.map((r) => r.wallMs));
  const ratio = slowest / report.clean.wallMs;
  const budget = 180_000;
  return [
    {
      section: 'mutate',
      metric: 'clean run of the suite (ms): the baseline',
      value: String(report.clean.wallMs),
    },
    {
      section: 'mutate',
      metric: `${report.results.length} mutants, clean run included (ms; score ${report.score}%, ${report.survived} survived)`,
      value: wall.toFixed(0),
      target: `< ${budget}`,
      ok: wall < budget && report.results.length >= 25,
    },
    {
      section: 'mutate',
      metric: 'slowest mutant run / clean run (jobs 2 share the cores)',
      value: ratio.toFixed(2),
      target: '< 1.5',
      ok: ratio < 1.5,
    },
  ];
}
