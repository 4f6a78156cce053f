// Memory (issue 18): simulator RSS after 200k messages from 200k distinct customers (a new
// sender.id per message), with the default --chat-idle-timeout and --max-chats, and the same
// after 1M messages (stopped at a time limit: BENCH_MEMORY_SECONDS, default 90). The baseline
// in the same run: RSS of the idle simulator right after start. The RSS is also sampled every
// second of the flood, and the target holds for the peak too.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { clearInterval, setInterval } from 'node:timers';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));
const LIMIT_S = Number(process.env.BENCH_MEMORY_SECONDS ?? 90);
const TARGET_MB = 160;

function startSimulator() {
  const args = [
    bin,
    '--json',
    'platform',
    '--port',
    '0',
    '--no-console',
    '--quiet',
    ...(process.env.BENCH_MEMORY_FLAGS ?? '').split(' ').filter(Boolean),
  ];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => resolve({ child, listening: JSON.parse(line) }));
    child.once('exit', (code) => reject(new Error(`simulator exited ${code}`)));
  });
}

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

const stateOf = async (sim) => (await fetch(`${sim.listening.url}/_sim/state`)).json();

/** Sends `amount` messages, each from a new customer; stops after `seconds` when given. */
function flood(sim, amount, seconds) {
  let n = 0;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: sim.listening.channels[0].url,
        method: 'POST',
        connections: 50,
        amount,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              body: `{"sender":{"id":"soak-${n++}","name":"Soak"},"message":{"type":"text","text":"Hello, where is my order?"}}`,
            }),
          },
        ],
      },
      (error, result) => {
        clearTimeout(limit);
        if (error) reject(error);
        else resolve({ sent: result.requests.total, failed: result.non2xx + result.errors });
      },
    );
    // autocannon ignores `duration` once `amount` is set: the time limit is ours
    const limit = seconds > 0 ? setTimeout(() => instance.stop(), seconds * 1000) : undefined;
  });
}

export async function run() {
  const rows = [];
  for (const [amount, seconds] of [
    [200_000, 0],
    ...(process.env.BENCH_MEMORY_SHORT ? [] : [[1_000_000, LIMIT_S]]),
  ]) {
    const sim = await startSimulator();
    const idle = await stateOf(sim);
    const started = performance.now();
    // the RSS each second of the flood: the figure must hold wherever a soak test reads it
    let peakBytes = idle.rssBytes;
    const sampler = setInterval(() => {
      stateOf(sim).then(
        (s) => (peakBytes = Math.max(peakBytes, s.rssBytes)),
        () => undefined,
      );
    }, 1000);
    const { sent, failed } = await flood(sim, amount, seconds).finally(() =>
      clearInterval(sampler),
    );
    const wallS = (performance.now() - started) / 1000;
    const state = await stateOf(sim);
    await stop(sim.child);
    const mb = state.rssBytes / 1024 / 1024;
    const peakMb = Math.max(peakBytes, state.rssBytes) / 1024 / 1024;
    if (process.env.BENCH_MEMORY_DEBUG) console.error(JSON.stringify(state.heap), state.customers);
    const label =
      sent >= amount
        ? `${amount / 1000}k`
        : `${Math.round(sent / 1000)}k of ${amount / 1000}k (time limit ${seconds} s)`;
    rows.push({
      section: 'memory',
      metric: `RSS after ${label} messages from as many customers (MB; peak of 1 s samples; idle ${(idle.rssBytes / 1024 / 1024).toFixed(0)}, ${state.chats} chats kept, ${Math.round(sent / wallS)} msg/s)`,
      value: `${mb.toFixed(0)} (peak ${peakMb.toFixed(0)})${failed > 0 ? ` (${failed} failed)` : ''}`,
      target: `< ${TARGET_MB}, both`,
      ok: peakMb < TARGET_MB && failed === 0,
    });
  }
  return rows;
}
