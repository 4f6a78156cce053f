// Conversations (issue 6): wall time of `npm start` (every bundled conversation replayed by
// the CLI), conversations per second on the virtual clock in process (through `replayAll`
// at the CLI's default concurrency, as `replay` runs them), and the 9 s redelivery
// conversation's wall time. Issue 18: the same after three back-to-back runs, and
// (BENCH_SWEEP=1) the rate at each concurrency, which the default is picked from.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function run() {
  const rows = [];
  const started = performance.now();
  const result = spawnSync(
    process.execPath,
    ['bin/svc-cli.js', 'replay', 'fixtures/conversations'],
    { cwd: root, encoding: 'utf8' },
  );
  const wall = performance.now() - started;
  const summary = result.stdout.trim().split('\n').at(-1);
  rows.push({
    section: 'conversations',
    metric: `npm start: replay of the bundled conversations (ms; ${summary})`,
    value: wall.toFixed(0),
    ok: result.status === 0,
  });

  const { loadConversations } = await import('../dist/conversation/load.js');
  const { replayConversation } = await import('../dist/conversation/runner.js');
  const { replayAll, DEFAULT_REPLAY_CONCURRENCY } =
    await import('../dist/conversation/replay-all.js');
  const all = await loadConversations([`${root}/fixtures/conversations`]);
  // `file` as the CLI passes it: a fixture's bot script path is relative to the fixture
  const items = all.map(({ file, conversation }) => ({ conversation, file }));
  const concurrency = Number(process.env.BENCH_CONCURRENCY ?? DEFAULT_REPLAY_CONCURRENCY);
  /**
   * Conversations per second over `ms` of back-to-back replayAll rounds: over the whole run
   * (`perSecond`), and the median and range of its 1 s windows (`median`, `low`, `high`).
   */
  const rate = async (level, ms = 3000) => {
    let count = 0;
    let failed = 0;
    const windows = [];
    const t0 = performance.now();
    let windowStart = t0;
    let windowCount = 0;
    while (performance.now() - t0 < ms) {
      for (const result of await replayAll(items, { concurrency: level })) {
        if (!result.ok) failed++;
        count++;
        windowCount++;
      }
      const now = performance.now();
      if (now - windowStart >= 1000) {
        windows.push(windowCount / ((now - windowStart) / 1000));
        windowStart = now;
        windowCount = 0;
      }
    }
    const sorted = windows.sort((a, b) => a - b);
    return {
      perSecond: count / ((performance.now() - t0) / 1000),
      median: median(sorted),
      low: sorted[0],
      high: sorted.at(-1),
      failed,
    };
  };
  // The JIT needs a few seconds to settle on this much code (the rate climbs ~2x over the first
  // 4-5 s): a suite of hundreds of conversations runs past it. The cold rate is shown for
  // context; the target is on the warm runs.
  const cold = await rate(concurrency, 5000);
  rows.push({
    section: 'conversations',
    metric: `conversations per second, the first 5 s (JIT warm-up; ${cold.failed} failed)`,
    value: cold.perSecond.toFixed(0),
  });
  // issue 18: the first run, then the third of three back-to-back runs (what CI does: with
  // sockets, those of the runs before sat in TIME_WAIT). 5 s each: in 1 s windows over 25 s
  // the rate moved between 450 and 870/s with no trend, so a 3 s run read a third run 0.86x
  // of the first on a pause or a busy neighbour alone. Each run is judged on the median of
  // its 1 s windows: a slowdown that comes with use lowers every window, a neighbour's
  // burst one or two; the whole run's mean and the windows' range are shown beside it.
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await rate(concurrency, 5000));
  for (const [label, { perSecond, median: mid, low, high, failed }] of [
    ['first run', runs[0]],
    ['third back-to-back run', runs[2]],
  ]) {
    rows.push({
      section: 'conversations',
      metric: `conversations per second, virtual clock, in process, concurrency ${concurrency}, ${label}: median of 1 s windows (range; whole run) (${failed} failed)`,
      value: `${mid.toFixed(0)} (${low.toFixed(0)}-${high.toFixed(0)}; ${perSecond.toFixed(0)})`,
      target: '>= 500',
      ok: mid >= 500 && failed === 0,
    });
  }
  rows.push({
    section: 'conversations',
    metric: 'third run / first run (medians of 1 s windows; whole runs)',
    value: `${(runs[2].median / runs[0].median).toFixed(2)}x (${(runs[2].perSecond / runs[0].perSecond).toFixed(2)}x)`,
    target: '>= 0.9x',
    ok: runs[2].median / runs[0].median >= 0.9,
  });
  // the measurement the default concurrency is picked from (BENCH_SWEEP=1)
  if (process.env.BENCH_SWEEP) {
    for (const level of [1, 2, 4, 8, 16, 32]) {
      const { perSecond, failed } = await rate(level, 2000);
      rows.push({
        section: 'conversations',
        metric: `  concurrency ${level} (${failed} failed)`,
        value: perSecond.toFixed(0),
      });
    }
  }

  const redelivery = all.find((c) => c.file.includes('redelivery-exhausted')).conversation;
  const walls = [];
  for (let i = 0; i < 30; i++)
    walls.push((await replayConversation({ conversation: redelivery })).wallMs);
  const ms = median(walls);
  rows.push({
    section: 'conversations',
    metric: '9 s redelivery conversation, wall time (ms, median of 30)',
    value: ms.toFixed(1),
    target: '< 50',
    ok: ms < 50,
  });
  return rows;
}
