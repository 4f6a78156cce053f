import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { endInBatch } from '../../src/http/response-batch.js';

/** A loopback server whose handler answers through endInBatch; `seen` gets each response. */
async function serve(onResponse: (res: ServerResponse, path: string) => void) {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => onResponse(res, req.url ?? '/'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, port };
}

const get = (port: number, path: string) =>
  fetch(`http://127.0.0.1:${port}${path}`).then(async (r) => [r.status, await r.text()]);

describe('endInBatch', () => {
  it('writes at the end of the turn, not before, and every response arrives', async () => {
    const endedAtOnce: boolean[] = [];
    const { server, port } = await serve((res, path) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      endInBatch(res, path);
      endedAtOnce.push(res.writableEnded);
    });
    try {
      const paths = Array.from({ length: 20 }, (_, i) => `/r${i}`);
      const answers = await Promise.all(paths.map((p) => get(port, p)));
      expect(answers).toEqual(paths.map((p) => [200, p]));
      expect(endedAtOnce).toEqual(paths.map(() => false)); // queued, written later
    } finally {
      server.close();
    }
  });

  it('skips a response whose client went away while it waited, and keeps serving', async () => {
    const { server, port } = await serve((res, path) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      if (path === '/gone') res.destroy(); // as a reset client would leave it
      endInBatch(res, path);
    });
    try {
      const gone = await new Promise<string>((resolve) => {
        const req = request({ port, host: '127.0.0.1', path: '/gone' }, () => resolve('answered'));
        req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
        req.end();
      });
      expect(gone).toBe('ECONNRESET');
      await nextTurn();
      expect(await get(port, '/next')).toEqual([200, '/next']);
    } finally {
      server.close();
    }
  });
});
