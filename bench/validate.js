// Validate throughput: payloads/s through `svc-cli validate` on a generated NDJSON of
// 100k payloads (end to end: process start, streaming read, validation, NDJSON output),
// and in-process through validateAuto.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const COUNT = 100_000;
const RUNS = 5;
const bin = fileURLToPath(new URL('../bin/svc-cli.js', import.meta.url));

const samples = [
  {
    sender: { id: 'c1', name: 'Ann' },
    message: { type: 'text', id: 'm1', text: 'Where is my order?' },
  },
  { recipient: { id: 'c1' }, message: { type: 'text', id: 'pm1', text: 'It ships today.' } },
  {
    sender: { id: 'c1' },
    message: {
      type: 'photo',
      file: 'https://f.example.com/p.jpg',
      file_name: 'p.jpg',
      file_size: 5123,
    },
  },
  {
    event: 'CLIENT_MESSAGE',
    id: 'e1',
    client_id: 'cl',
    chat_id: 'ch',
    message: { type: 'TEXT', timestamp: 1700000000, text: 'hi' },
  },
  {
    event_name: 'chat_updated',
    chat_id: 1,
    widget_id: 'w',
    visitor: { number: '1' },
    session: {},
    page: { url: 'https://x' },
    agent: { id: 1, name: 'a', email: 'e' },
  },
  { result: 'ok' },
];

export async function run() {
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-bench-'));
  const file = path.join(dir, 'payloads.ndjson');
  const lines = [];
  for (let i = 0; i < COUNT; i++) lines.push(JSON.stringify(samples[i % samples.length]));
  writeFileSync(file, `${lines.join('\n')}\n`);
  try {
    // Five runs, the median reported with the range: on this shared machine the spawns of one
    // bench run read 61k-85k/s, so the median of three moved with a single slow spawn (the
    // issue's own figures are medians of 3+ runs).
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const start = process.hrtime.bigint();
      const cli = spawnSync(process.execPath, [bin, '--json', 'validate', file], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (cli.status !== 0) throw new Error(`validate exited ${cli.status}`);
      runs.push(seconds);
    }
    const sorted = [...runs].sort((a, b) => a - b);
    const seconds = sorted[Math.floor(sorted.length / 2)];
    const endToEnd = COUNT / seconds;
    const range = `${Math.round(COUNT / sorted.at(-1))}-${Math.round(COUNT / sorted[0])}`;

    const { validateAuto } = await import('../dist/contract/index.js');
    const values = lines.map((l) => JSON.parse(l));
    const t0 = process.hrtime.bigint();
    for (const value of values) validateAuto(value);
    const inProcess = COUNT / (Number(process.hrtime.bigint() - t0) / 1e9);
    return [
      {
        section: 'validate',
        metric: `svc-cli --json validate (${COUNT / 1000}k NDJSON, end to end; median of ${RUNS}, range)`,
        value: `${Math.round(endToEnd)}/s (${seconds.toFixed(2)} s; ${range})`,
        target: '>= 70000/s',
        ok: endToEnd >= 70_000,
      },
      {
        section: 'validate',
        metric: 'validateAuto in process (parsed values)',
        value: `${Math.round(inProcess)}/s`,
        target: '>= 50000/s',
        ok: inProcess >= 50_000,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
