// Mutation run: every simulator mutant against the example vitest suite (the strong suite of
// test/examples/mutate-project/, the msw handlers of svc-cli under vitest), as a user runs
// `svc-cli mutate -- npx vitest run`. The whole run has a 3 minute budget, and each mutant's
// run should stay under 1.5x the clean run: a mutant that makes the suite much slower (a hang
// waiting for a timeout) costs every user of `svc-cli mutate` that time.
//
// Mutants run one at a time (BENCH_MUTATE_JOBS raises it): two at once on 2 cores make each
// run's time depend on what the other is doing, which no mutant causes. The suite runs in
// about 2 s, so one run of a busy machine's noise is a large share of it: the baseline is the
// median of three clean runs, mutate's own (first) and two after the mutants.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const project = fileURLToPath(new URL('../test/examples/mutate-project/', import.meta.url));
const command = [
  process.execPath,
  fileURLToPath(new URL('../node_modules/vitest/vitest.mjs', import.meta.url)),
  'run',
  'strong.test.mjs',
];

/** One clean run of the suite: its wall time in ms (it must pass). */
function cleanRun() {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), {
      cwd: project,
      env: { ...process.env, SVC_MUTANT: '' },
      stdio: 'ignore',
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve(performance.now() - started)
        : reject(new Error(`the example suite failed clean (exit ${code})`)),
    );
  });
}

export async function run() {
  const { runMutation } = await import('../dist/mutate/run.js');
  const jobs = Number(process.env.BENCH_MUTATE_JOBS ?? 1);
  const started = performance.now();
  const report = await runMutation({ command, cwd: project, jobs });
  const wall = performance.now() - started;
  // the baseline as the mutants ran: `jobs` clean runs at once, their mean, twice
  const after = [];
  for (let i = 0; i < 2; i++) {
    const paired = await Promise.all(Array.from({ length: jobs }, cleanRun));
    after.push(paired.reduce((sum, ms) => sum + ms, 0) / paired.length);
  }
  const cleans = [report.clean.wallMs, ...after].sort((a, b) => a - b);
  const baseline = cleans[1];
  const budget = 180_000;
  const rows = [
    {
      section: 'mutate',
      metric: `clean run of the example vitest suite (ms): mutate's own, then two after the mutants${jobs > 1 ? ` (${jobs} at once)` : ''}`,
      value: [report.clean.wallMs, ...after].map((ms) => ms.toFixed(0)).join(', '),
    },
    {
      section: 'mutate',
      metric: 'their median (ms): the baseline of the ratios',
      value: baseline.toFixed(0),
    },
    {
      section: 'mutate',
      metric: `${report.results.length} mutants, jobs ${jobs}, clean run included (ms; score ${report.score}%, ${report.killed} killed, ${report.survived} survived)`,
      value: wall.toFixed(0),
      target: `< ${budget}`,
      ok: wall < budget && report.results.length >= 25,
    },
  ];
  for (const r of report.results) {
    const ratio = r.wallMs / baseline;
    rows.push({
      section: 'mutate',
      metric: `  ${r.name} (${r.outcome}): run / clean run`,
      value: ratio.toFixed(2),
      target: '< 1.5',
      ok: ratio < 1.5,
    });
  }
  // the bridge uses the chat channel only: what survives is what the bot and hooks do
  const survivors = report.results.filter((r) => r.outcome === 'survived');
  const elsewhere = (r) => r.exercisedBy.every((item) => /bot|hook/.test(item));
  const expected =
    survivors.every(elsewhere) &&
    report.results.every((r) => r.outcome === 'survived' || !elsewhere(r));
  rows.push({
    section: 'mutate',
    metric: `survivors all of the bot and hook interfaces the bridge never uses (${survivors.length} survived)`,
    value: String(expected),
    target: 'true',
    ok: expected,
  });
  const ratios = report.results.map((r) => r.wallMs / baseline).sort((a, b) => a - b);
  const slowest = ratios.at(-1);
  rows.push({
    section: 'mutate',
    metric: 'median mutant run / clean run',
    value: ratios[Math.floor(ratios.length / 2)].toFixed(2),
  });
  rows.push({
    section: 'mutate',
    metric: 'slowest mutant run / clean run',
    value: slowest.toFixed(2),
    target: '< 1.5',
    ok: slowest < 1.5,
  });
  return rows;
}
