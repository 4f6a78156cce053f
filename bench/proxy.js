// Bench (issue 16): the latency `svc-cli proxy` adds on loopback. The same agent message is
// posted to `listen` directly and through `proxy channel` (validation, timing, series and a
// journal in memory included), one request at a time, alternating so both see the same
// machine state; the overhead is the difference of the percentiles. Target: p50 < 1 ms.
// `node bench/proxy.js` after `npm run build`; `run()` returns rows for bench/run.js.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import { createClock } from '../dist/clock.js';
import { createJournal } from '../dist/journal/index.js';
import { startProxy } from '../dist/proxy/index.js';
import { createListener } from '../dist/roles/integrator/index.js';

const percentile = (sorted, p) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

export async function run({ requests = Number(process.env.BENCH_PROXY_REQUESTS ?? 3000) } = {}) {
  const clock = createClock();
  const listener = await createListener({ clock });
  const proxy = await startProxy({
    iface: 'channel',
    upstreams: { integrator: listener.url },
    clock,
    journal: createJournal({ keep: 1000 }),
  });
  const dispatcher = new Agent({ connections: 1 });
  const post = async (url, n) => {
    const body = JSON.stringify({
      recipient: { id: 'c-1' },
      message: { type: 'text', text: `message ${n}`, id: `m-${n}` },
    });
    const started = performance.now();
    const answer = await request(url, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      dispatcher,
    });
    await answer.body.text();
    if (answer.statusCode !== 200) throw new Error(`HTTP ${answer.statusCode} from ${url}`);
    return performance.now() - started;
  };
  const direct = [];
  const proxied = [];
  for (let n = 0; n < 300; n++) {
    await post(`${listener.url}/bench`, n);
    await post(`${proxy.url}/integrator/bench`, n + 1e6);
  }
  for (let n = 0; n < requests; n++) {
    direct.push(await post(`${listener.url}/bench`, n));
    proxied.push(await post(`${proxy.url}/integrator/bench`, n + 2e6));
  }
  await proxy.close(0);
  await listener.close(0);
  await dispatcher.close();
  direct.sort((a, b) => a - b);
  proxied.sort((a, b) => a - b);
  const row = (metric, value, target, ok) => ({ section: 'proxy', metric, value, target, ok });
  const p50 = percentile(proxied, 50) - percentile(direct, 50);
  const p99 = percentile(proxied, 99) - percentile(direct, 99);
  return [
    row(
      'direct p50 / p99 (ms)',
      `${percentile(direct, 50).toFixed(3)} / ${percentile(direct, 99).toFixed(3)}`,
      '',
    ),
    row(
      'through proxy p50 / p99 (ms)',
      `${percentile(proxied, 50).toFixed(3)} / ${percentile(proxied, 99).toFixed(3)}`,
      '',
    ),
    row('proxy overhead p50 (ms)', p50.toFixed(3), '< 1', p50 < 1),
    row('proxy overhead p99 (ms)', p99.toFixed(3), ''),
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const r of await run()) console.log(`${r.metric.padEnd(32)} ${r.value}`);
}
