import { mkdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where ports are looked for: outside the kernel's ephemeral range, which every outgoing
 * connection and every `--port 0` server takes its port from. A port the OS handed out as
 * free (listen on 0, then close) could be taken again by any of those before the process the
 * test starts bound it (a README tour failed with SVC_E_PORT_IN_USE on 127.0.0.1:32913); a
 * port outside that range is only ever taken by an explicit bind.
 */
function searchRange(): { from: number; to: number } {
  // Linux's default: 32768-60999; the IANA dynamic range elsewhere starts at 49152
  let [low, high] = [32_768, 60_999];
  try {
    [low = low, high = high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
  } catch {
    // not Linux: the defaults above
  }
  // the wider of the two gaps around the ephemeral range: from 10000 up when there is room,
  // else from 1024 (a range starting at 10000 leaves none above 10000 below it); a range of
  // 1024-65535 leaves no gap at all, and then any port may be taken: 10000-32767 as before
  const below = { from: low > 12_000 ? 10_000 : 1024, to: low - 1 };
  const above = { from: high + 1, to: 65_535 };
  const size = (r: { from: number; to: number }) => r.to - r.from;
  const best = size(below) >= size(above) ? below : above;
  return size(best) >= 1000 ? best : { from: 10_000, to: 32_767 };
}

/**
 * Ports handed out on this machine, one file each: test files run in several processes and
 * threads (vitest's pools, the suites of a second checkout), each with its own memory, so a
 * set in memory let two of them pick the same port and the second bind fail with
 * SVC_E_PORT_IN_USE (conform-invariants, once in a run beside other work). Creating the file
 * is atomic across all of them; a port is never given twice within an hour.
 */
const CLAIMS = join(tmpdir(), 'svc-cli-test-ports');
const CLAIM_KEPT_MS = 60 * 60 * 1000;

/** True when this process now holds `port`'s claim (made, or taken over from a stale one). */
function claim(port: number): boolean {
  mkdirSync(CLAIMS, { recursive: true });
  const file = join(CLAIMS, String(port));
  for (let round = 0; round < 2; round++) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    try {
      if (Date.now() - statSync(file).mtimeMs < CLAIM_KEPT_MS) return false;
      // stale: removed, and created again by whoever gets there first (the `wx` above)
      unlinkSync(file);
    } catch {
      // another process removed or took it meanwhile: the next round says which
    }
  }
  return false;
}

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/**
 * The ports fetch refuses ("bad port", the Fetch standard's port blocking) inside the ranges
 * searched: a test that fetched a peer on 10080 failed with `TypeError: fetch failed`.
 */
const FETCH_BLOCKED = new Set([
  1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
  6679, 6697, 10080,
]);

/** A free loopback port: for two processes that must know each other's URL before either starts. */
export async function freePort(): Promise<number> {
  const { from, to } = searchRange();
  for (let tries = 0; tries < 200; tries++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (FETCH_BLOCKED.has(port) || !claim(port)) continue;
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port found between ${from} and ${to}`);
}
