import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { fuzzTimeoutMs } from './test/fuzz/runs.js';

/**
 * One vitest project per tier (docs/TESTING.md). Unit and integration files run on worker
 * threads that keep one module graph from file to file (each tier its own threads): loading
 * src/ afresh for every file was most of their CPU (unit 91 CPU-s, 41 without; integration 89,
 * 40). The unit files below change what others would see (module mocks, fake timers, happy-dom
 * globals, fresh module copies): they, e2e and browser files run in forks, a fresh process
 * each (e2e and browser files load little; their time is in the CLIs and pages they drive).
 *
 * `SVC_TEST_FULL=1` (npm run test:slow) runs only the volume tests, at full size.
 */
const ISOLATED_UNIT = [
  'test/unit/widget/**/*.test.ts',
  'test/unit/msw/**/*.test.ts',
  'test/unit/cli/heap.test.ts',
  'test/unit/cli/compiled.test.ts',
  'test/unit/conversation/replay-all.test.ts',
  'test/unit/cli/replay-interrupt-order.test.ts',
  'test/unit/flush-scheduler.test.ts',
  'test/unit/free-port.test.ts',
];

/**
 * `npm run test:slow` only, as CI runs it: the loops against third-party peers (Flask, PHP),
 * each recording, converting and replaying against real processes in real time, over a minute
 * in all; and the example projects under `svc-cli mutate` at full size, about 20 runs of their
 * own vitest and pytest suites (`npm test` runs one small mutation of each).
 */
const SLOW_ONLY = ['test/e2e/foreign-loops.test.ts', 'test/e2e/mutate-examples.test.ts'];

/** The files whose volume tests grow with SVC_TEST_FULL (test/helpers/size.ts). */
const VOLUME = [
  'test/integration/platform-channel.test.ts',
  'test/integration/load.test.ts',
  'test/integration/conform-fuzz.test.ts',
  'test/e2e/load.test.ts',
  'test/e2e/readme-tours.test.ts',
];

const tier = (
  name: string,
  include: string[],
  more: TestProjectInlineConfiguration['test'] = {},
): TestProjectInlineConfiguration => ({
  extends: true,
  test: { name, include, pool: 'forks', ...more },
});

/** Fails a file of a shared worker that leaves the process changed for the next file. */
const SHARED_GRAPH_GUARD = 'test/helpers/shared-graph-guard.ts';

const full = process.env.SVC_TEST_FULL === '1';
const workers = Math.max(1, Math.floor(Number(process.env.SVC_TEST_WORKERS ?? 4))) || 4;

export default defineConfig({
  test: {
    globalSetup: ['test/global-setup.ts'],
    // Timeouts guard against hangs, they are no budgets: a 2-core machine shared with other
    // work runs a test several times slower than a quiet one, so they are generous
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Four files at once on two cores in each pool (threads, forks): most e2e and integration
    // files wait (on protocol timers at a scaled clock, on the CLIs they spawn), so two workers
    // left the cores idle about half the time. Beside other jobs, time out guards, never
    // budgets, keep this safe (busy-test). `SVC_TEST_WORKERS=2 npm test` on a machine with
    // less memory.
    maxWorkers: workers,
    minWorkers: 1,
    // Which pools keep a module graph is an option of the pool, not of a project: vitest reads
    // it from here. As many threads from the start as at most: with fewer, vitest 3.2 ends a
    // run whose threads are kept with "Terminating worker thread" (tinypool stopping an idle
    // one), every test passed.
    poolOptions: { threads: { isolate: false, minThreads: workers, maxThreads: workers } },
    reporters: ['default', './test/slowest-files.ts'],
    coverage: {
      provider: 'v8',
      include: ['src/**'],
      reporter: ['text-summary', 'json-summary'],
      // a figure even when a test failed: the report is for comparing runs
      reportOnFailure: true,
    },
    projects: full
      ? [tier('slow', [...VOLUME, ...SLOW_ONLY], { testTimeout: 600_000 })]
      : [
          tier('unit', ['test/unit/**/*.test.ts'], {
            exclude: ISOLATED_UNIT,
            pool: 'threads',
            setupFiles: [SHARED_GRAPH_GUARD],
          }),
          tier('unit-isolated', ISOLATED_UNIT),
          tier('integration', ['test/integration/**/*.test.ts'], {
            pool: 'threads',
            setupFiles: [SHARED_GRAPH_GUARD],
          }),
          tier('e2e', ['test/e2e/**/*.test.ts'], { exclude: SLOW_ONLY, testTimeout: 120_000 }),
          tier('browser', ['test/browser/**/*.test.ts'], {
            testTimeout: 120_000,
            // one Chromium for the tier, which every file connects to
            globalSetup: ['test/global-setup.ts', 'test/browser/global-setup.ts'],
          }),
          // a property's timeout follows its run count (FC_RUNS, npm run fuzz)
          tier('fuzz', ['test/fuzz/**/*.test.ts'], { testTimeout: fuzzTimeoutMs() }),
        ],
  },
});
