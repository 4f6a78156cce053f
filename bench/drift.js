// record diff / record profile: two large recordings (BENCH_DRIFT_EXCHANGES each, default
// 200,000) generated on the fly into the temporary folder, a line at a time, in the shapes the
// simulator journals (a customer message, the bot's attempts, AGENT_JOINED, the agent's answer
// with its redelivery, a hook); the second with three bot attempts and numeric chat ids, so the
// diff has differences to find. The diff and the profile each run in a child process of their
// own, which reports its time and peak RSS: what a user's `record diff a b` costs.
// Targets (the issue's): over 100,000 exchanges a second, under 200 MB of RSS. On a shared
// machine the wall-clock rate moves with the neighbours' load; the rate over the child's own
// CPU time (user + system) is printed beside it.
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const EXCHANGES = Number(process.env.BENCH_DRIFT_EXCHANGES ?? 200_000);
const root = fileURLToPath(new URL('..', import.meta.url));
const TARGET_RATE = 100_000;
const TARGET_RSS_MB = 200;

const headers = { 'content-type': 'application/json', 'content-length': '439' };

/** One conversation's records, as the simulator's journal writes them. */
function conversation(n, side, seq) {
  const chat = n + 1;
  const chatId = side === 'b' ? chat : String(chat);
  const t0 = n * 20_000;
  const sender = { id: `c-${n}`, name: 'Jane' };
  const records = [];
  const add = (record) =>
    records.push({
      type: 'exchange',
      seq: seq + records.length,
      run: 'bench0000001',
      at: '2026-11-28T12:00:00.000Z',
      chat,
      ...record,
    });
  add({
    protocolMs: t0,
    iface: 'channel',
    direction: 'in',
    kind: 'channel.customer.text',
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8800/rS0bpLEk23ePovhP2a8soA/shop',
      headers: { host: '127.0.0.1:8800', 'content-type': 'application/json' },
      body: JSON.stringify({ sender, message: { type: 'text', text: `order ${n} is late` } }),
    },
    response: { status: 200, body: '{"result":"ok"}', headers: { 'keep-alive': 'timeout=65' } },
    durationMs: 0,
    notes: ['transfer: content-length'],
  });
  const event = `8ccc37fa-4d13-4fe8-82c9-${String(n).padStart(12, '0')}`;
  const botBody = JSON.stringify({
    event: 'CLIENT_MESSAGE',
    id: event,
    client_id: `client-${n}`,
    chat_id: chatId,
    site_id: 'shop',
    agents_online: true,
    sender: {
      ...sender,
      url: 'https://shop.example.com/pricing?utm_source=google',
      has_contacts: false,
    },
    channel: { id: 'shop', type: 'custom' },
    message: { type: 'TEXT', text: `order ${n} is late`, timestamp: 1795894249 + n },
  });
  const attempts = side === 'b' ? 3 : 2;
  for (let a = 1; a <= attempts; a++)
    add({
      protocolMs: t0 + a * 3000,
      iface: 'bot',
      direction: 'out',
      kind: 'bot.event.CLIENT_MESSAGE',
      attempt: a,
      request: { method: 'POST', url: 'http://127.0.0.1:9100/bot-token-1', headers, body: botBody },
      failure: { reason: 'timeout', message: 'no complete reply within 3000 ms' },
      durationMs: 3000,
      notes: ['transfer: content-length', 'rejected: timeout after 3000 ms'],
    });
  const handOver = t0 + attempts * 3000;
  add({
    protocolMs: handOver,
    iface: 'bot',
    direction: 'out',
    kind: 'bot.event.AGENT_JOINED',
    attempt: 1,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:9100/bot-token-1',
      headers,
      body: JSON.stringify({
        event: 'AGENT_JOINED',
        id: `${event}-j`,
        client_id: `client-${n}`,
        chat_id: chatId,
      }),
    },
    response: { status: 200, body: '{}' },
    durationMs: 2,
    notes: ['transfer: content-length', 'accepted'],
  });
  const agentBody = JSON.stringify({
    sender: { name: 'Alice Agent', photo: 'https://example.com/avatars/alice.png' },
    recipient: { id: sender.id },
    message: {
      type: 'text',
      text: 'Hello, Anna here.',
      id: `584dd2ad-edce-4da1-9cb5-${String(n).padStart(12, '0')}`,
    },
  });
  // every fourth answer is refused once and redelivered 3 s later
  const refused = n % 4 === 0;
  for (let a = 1; a <= (refused ? 2 : 1); a++)
    add({
      protocolMs: handOver + (a - 1) * 3000 + 5,
      iface: 'channel',
      direction: 'out',
      kind: 'channel.agent.text',
      attempt: a,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/agent-messages/shop',
        headers,
        body: agentBody,
      },
      response:
        refused && a === 1
          ? { status: 503, body: '{"error":{"code":"busy","message":"try later"}}' }
          : { status: 200, body: '{"result":"ok"}' },
      durationMs: 5,
      notes: ['transfer: content-length', refused && a === 1 ? 'rejected: HTTP 503' : 'accepted'],
    });
  add({
    protocolMs: handOver + 10,
    iface: 'hook',
    direction: 'out',
    kind: 'hook.chat_accepted',
    attempt: 1,
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:8000/hooks',
      headers,
      body: JSON.stringify({
        event_name: 'chat_accepted',
        chat_id: chat,
        widget_id: 'shop',
        visitor: { name: 'Jane', number: String(n), description: '', social: {}, chats_count: 1 },
        agent: { id: 1, name: 'Alice Agent', email: 'alice@example.com' },
        analytics: {},
      }),
    },
    response: { status: 200, body: '{"result":"ok"}' },
    durationMs: 3,
    notes: ['transfer: content-length', 'accepted'],
  });
  return records;
}

/** Writes a recording of about `exchanges` exchanges a line at a time (bounded memory). */
async function generate(file, side, exchanges) {
  const out = createWriteStream(file);
  let written = 0;
  for (let n = 0; written < exchanges; n++) {
    const lines = conversation(n, side, written + 1).map((r) => JSON.stringify(r));
    written += lines.length;
    if (!out.write(`${lines.join('\n')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return written;
}

/** Runs `code` (an ES module body using dist/) in a child; its last stdout line is JSON. */
function child(code) {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--input-type=module', '-e', code], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk) => (out += chunk));
    proc.once('error', reject);
    proc.once('close', (exit) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      if (exit !== 0) reject(new Error(`drift bench child exited ${exit}`));
      else resolve(JSON.parse(last));
    });
  });
}

const measured = (body) => `
const { observeRecordings } = await import('./dist/conversation/record/observe.js');
const { diffObservations } = await import('./dist/conversation/record/diff.js');
const { learnProfile } = await import('./dist/conversation/record/profile.js');
const started = performance.now();
const cpu = process.cpuUsage();
${body}
const ms = performance.now() - started;
const used = process.cpuUsage(cpu);
const cpuMs = (used.user + used.system) / 1000;
console.log(JSON.stringify({ ms, cpuMs, maxRssMb: process.resourceUsage().maxRSS / 1024, result }));
`;

export async function run() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-drift-'));
  try {
    const a = join(dir, 'a.ndjson');
    const b = join(dir, 'b.ndjson');
    const na = await generate(a, 'a', EXCHANGES);
    const nb = await generate(b, 'b', EXCHANGES);
    const mb = (statSync(a).size + statSync(b).size) / 1e6;
    const diff = await child(
      measured(`const [x, y] = await Promise.all([observeRecordings([${JSON.stringify(a)}]), observeRecordings([${JSON.stringify(b)}])]);
const result = diffObservations(x, y).counts;`),
    );
    const profile = await child(
      measured(
        `const result = Object.keys(learnProfile(await observeRecordings([${JSON.stringify(a)}]), 'bench').kinds ?? {}).length;`,
      ),
    );
    const diffRate = Math.round((na + nb) / (diff.ms / 1000));
    const profileRate = Math.round(na / (profile.ms / 1000));
    const perCpu = (n, r) => Math.round(n / (r.cpuMs / 1000));
    return [
      {
        section: 'drift',
        metric: `record diff: ${na + nb} exchanges (${mb.toFixed(0)} MB), exchanges/s`,
        value: diffRate,
        target: `> ${TARGET_RATE}`,
        ok: diffRate > TARGET_RATE,
      },
      {
        section: 'drift',
        metric: 'record diff: exchanges per CPU second',
        value: perCpu(na + nb, diff),
        target: `> ${TARGET_RATE}`,
        ok: perCpu(na + nb, diff) > TARGET_RATE,
      },
      {
        section: 'drift',
        metric: 'record diff: peak RSS (MB)',
        value: Math.round(diff.maxRssMb),
        target: `< ${TARGET_RSS_MB}`,
        ok: diff.maxRssMb < TARGET_RSS_MB,
      },
      {
        section: 'drift',
        metric: `record diff: differences found (behaviour, shape, cosmetic)`,
        value: `${diff.result.behaviour}, ${diff.result.shape}, ${diff.result.cosmetic}`,
      },
      {
        section: 'drift',
        metric: `record profile: ${na} exchanges, exchanges/s`,
        value: profileRate,
        target: `> ${TARGET_RATE}`,
        ok: profileRate > TARGET_RATE,
      },
      {
        section: 'drift',
        metric: 'record profile: exchanges per CPU second',
        value: perCpu(na, profile),
        target: `> ${TARGET_RATE}`,
        ok: perCpu(na, profile) > TARGET_RATE,
      },
      {
        section: 'drift',
        metric: 'record profile: peak RSS (MB)',
        value: Math.round(profile.maxRssMb),
        target: `< ${TARGET_RSS_MB}`,
        ok: profile.maxRssMb < TARGET_RSS_MB,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
