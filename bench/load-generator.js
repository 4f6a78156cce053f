// Bench (issue 20): how much load `svc-cli load integrator` generates on this machine. The
// endpoint is `svc-cli listen --quiet` in its own process (as a user runs it); the generator
// is the load engine in this one. Reports the highest rate held with p99 < 50 ms and nothing
// failed or unsent, and the generator's own cost per payload (CPU of this process), beside
// the capacity it measures itself against an in-process no-op endpoint.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import process from 'node:process';
import { createClock } from '../dist/clock.js';
import { calibrate } from '../dist/load/calibrate.js';
import { DEFAULT_MIX } from '../dist/load/mix.js';
import { runLoad } from '../dist/load/run.js';
import { createLoadTarget } from '../dist/load/targets.js';

const RATES = [250, 500, 1000, 2000, 4000, 6000, 8000, 10000, 12000];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);

async function startListen() {
  const child = spawn(
    process.execPath,
    ['bin/svc-cli.js', '--json', 'listen', '--port', '0', '--quiet'],
    {
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const first = await new Promise((resolve) =>
    createInterface({ input: child.stdout }).once('line', resolve),
  );
  return { url: JSON.parse(first).url, stop: () => child.kill('SIGTERM') };
}

export async function run() {
  const listen = await startListen();
  const options = {
    role: 'integrator',
    url: listen.url,
    clock: createClock(),
    customers: 1000,
    mix: DEFAULT_MIX,
    runId: 'bench',
  };
  const target = createLoadTarget(options);
  let held = 0;
  let heldRow;
  let cpuPerPayloadUs = 0;
  try {
    // Warm-up, not measured: the first second of a cold generator and a cold `listen` had a
    // p99 of 40-75 ms at 250/s (JIT compiling both), against 7-9 ms warm at 2000/s.
    await runLoad({ target, workload: { rate: RATES[0], durationMs: 1000 }, timeScale: 1 });
    for (const rate of RATES) {
      const cpu = process.cpuUsage();
      const summary = await runLoad({
        target,
        workload: { rate, durationMs: SECONDS * 1000 },
        timeScale: 1,
      });
      const used = process.cpuUsage(cpu);
      const ok =
        summary.latency.answers.p99 < 50 &&
        summary.states.failed === 0 &&
        summary.states['not-sent'] === 0 &&
        summary.ratePerSecond >= rate * 0.95;
      if (rate === 2000) cpuPerPayloadUs = (used.user + used.system) / summary.sent;
      if (!ok) break;
      held = rate;
      heldRow = summary;
    }
  } finally {
    listen.stop();
  }
  const { capacityPerSecond } = await calibrate({ ...options, durationMs: 1000 });
  const row = (metric, value, target, ok) => ({ section: 'load-gen', metric, value, target, ok });
  return [
    row(
      'highest rate held vs listen --quiet (p99 < 50 ms, none failed)',
      held ? `${held}/s (p99 ${heldRow.latency.answers.p99.toFixed(1)} ms)` : 'none',
      `>= ${RATES[0]}/s`,
      held >= RATES[0],
    ),
    row(
      'generator CPU per payload (at 2000/s)',
      `${Math.round(cpuPerPayloadUs)} µs`,
      '',
      undefined,
    ),
    row('generator vs in-process no-op endpoint', `${capacityPerSecond}/s`, '', undefined),
  ];
}
