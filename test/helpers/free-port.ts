import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where ports are looked for: below the kernel's ephemeral range, which every outgoing
 * connection and every `--port 0` server takes its port from. A port the OS handed out as
 * free (listen on 0, then close) could be taken again by any of those before the process the
 * test starts bound it (a README tour failed with SVC_E_PORT_IN_USE on 127.0.0.1:32913); a
 * port below that range is only ever taken by an explicit bind.
 */
function searchRange(): { from: number; to: number } {
  let low = 32768;
  try {
    low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0],
    );
  } catch {
    // not Linux: the IANA dynamic range starts at 49152, and Linux's default at 32768
  }
  const to = Number.isFinite(low) && low > 12_000 ? low - 1 : 32_767;
  return { from: 10_000, to };
}

/** Ports this process handed out: two tours running at once never get the same one. */
const given = new Set<number>();

const bindable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });

/** A free loopback port: for two processes that must know each other's URL before either starts. */
export async function freePort(): Promise<number> {
  const { from, to } = searchRange();
  for (let tries = 0; tries < 200; tries++) {
    const port = from + Math.floor(Math.random() * (to - from + 1));
    if (given.has(port) || !(await bindable(port))) continue;
    given.add(port);
    return port;
  }
  throw new Error(`no free port found between ${from} and ${to}`);
}
