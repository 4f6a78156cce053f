// Record sync (--record-sync): what writing each turn's records before its answers costs the
// simulator's ingest, against the batched default (a write at most every 10 ms). The same
// load as the channel section (autocannon, 50 connections, loopback), on three simulators in
// child processes, each with --record to a file in the temporary folder, taken in turn
// (A B C A B C ...) so that drift in the machine's load hits all alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { startChild } from './channel.js';

const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = 4;
const body = JSON.stringify({
  sender: { id: 'c-1', name: 'Ann' },
  message: { type: 'text', text: 'Hello, where is my order?' },
});

const load = (url, duration) =>
  autocannon({
    url,
    method: 'POST',
    connections: 50,
    duration,
    headers: { 'content-type': 'application/json' },
    body,
  });

async function stop(child) {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  await exited;
}

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-sync-'));
  const modes = [
    { name: 'batched', flags: [] },
    { name: 'write', flags: ['--record-sync'] },
    { name: 'fsync', flags: ['--record-sync', 'fsync'] },
  ];
  const sims = [];
  for (const mode of modes) {
    const sim = await startChild([
      bin,
      '--json',
      'platform',
      '--port',
      '0',
      '--no-console',
      '--quiet',
      '--record',
      join(dir, `${mode.name}.ndjson`),
      ...mode.flags,
    ]);
    sims.push({ ...mode, ...sim, url: sim.listening.channels[0].url, requests: 0, seconds: 0 });
  }
  for (const sim of sims) await load(sim.url, 2); // warm up, not timed (channel.js WARM_UP_S)
  for (let r = 0; r < ROUNDS; r++) {
    for (const sim of sims) {
      const result = await load(sim.url, Math.max(1, DURATION / ROUNDS));
      sim.requests += result.requests.average * result.duration;
      sim.seconds += result.duration;
    }
  }
  for (const sim of sims) await stop(sim.child);
  rmSync(dir, { recursive: true, force: true });
  const [batched, ...synced] = sims.map((s) => ({ ...s, average: s.requests / s.seconds }));
  const rows = [
    {
      section: 'record-sync',
      metric: 'ingest with --record, batched (req/s)',
      value: Math.round(batched.average),
    },
  ];
  for (const sim of synced) {
    rows.push({
      section: 'record-sync',
      metric: `ingest with --record-sync ${sim.name} (req/s)`,
      value: Math.round(sim.average),
    });
    rows.push({
      section: 'record-sync',
      metric: `--record-sync ${sim.name} / batched (alternating runs)`,
      value: `${(sim.average / batched.average).toFixed(2)}x`,
    });
  }
  return rows;
}
