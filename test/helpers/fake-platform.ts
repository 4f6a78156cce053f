import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A tiny platform double for the channel URL (spec 4.1): known channel `ch-1`, status body;
 * `refuse` answers every message with that status and body instead of 200.
 */
export interface FakePlatform {
  url: string;
  channelUrl: string;
  received: unknown[];
  close(): Promise<void>;
}

export async function startFakePlatform(
  options: { statusBody?: string; refuse?: { status: number; body: string } } = {},
): Promise<FakePlatform> {
  const received: unknown[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (path === '/r4nd0m/ch-1/status' && req.method === 'GET') {
        res.end(options.statusBody ?? '1');
      } else if (path === '/r4nd0m/ch-1' && req.method === 'POST') {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        if (options.refuse) res.writeHead(options.refuse.status).end(options.refuse.body);
        else res.end();
      } else {
        res.writeHead(404).end('Not Found');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    channelUrl: `${url}/r4nd0m/ch-1`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
