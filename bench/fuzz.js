// Bench (issue 17): generated cases per second of `conform integrator --fuzz` and `conform
// hooks --fuzz` against svc-cli's own listen and hook-target on loopback (each case is a
// delivery and a redelivery: two requests).
// `node bench/fuzz.js` after `npm run build`; `run()` returns rows for bench/run.js.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createClock } from '../dist/clock.js';
import { runConformSuite } from '../dist/conversation/conform/index.js';
import { createHookTarget } from '../dist/roles/hooks/target.js';
import { createListener } from '../dist/roles/integrator/index.js';

export async function run({ runs = Number(process.env.BENCH_FUZZ_RUNS ?? 3000) } = {}) {
  const clock = createClock();
  const cwd = mkdtempSync(join(tmpdir(), 'svc-bench-fuzz-'));
  const listener = await createListener({ clock });
  const target = await createHookTarget({ clock });
  const rate = async (suite, url) => {
    const started = performance.now();
    const report = await runConformSuite({ suite, url, fuzz: { runs, seed: 1, cwd } });
    if (report.fuzz?.failure) throw new Error(`bench: ${suite} failed a generated case`);
    return runs / ((performance.now() - started) / 1000);
  };
  let integrator;
  let hooks;
  try {
    integrator = await rate('integrator', listener.url);
    hooks = await rate('hooks', `${target.url}/hooks`);
  } finally {
    await listener.close(0);
    await target.close(0);
    rmSync(cwd, { recursive: true, force: true }); // each run left a folder in the tmpdir
  }
  const row = (metric, value) => ({ section: 'fuzz', metric, value, target: '' });
  return [
    row('integrator cases/s (2 requests each)', Math.round(integrator)),
    row('hooks cases/s (2 requests each)', Math.round(hooks)),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.metric.padEnd(40)} ${r.value}`);
}
