/**
 * A hand-written integrator on loopback for the browser tests: a plain node:http server, not
 * svc-cli's `listen`, so what the console draws comes from a peer svc-cli did not write.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An integrator on loopback: HTTP 500 to the bodies `refuse` picks, 200 `{"result":"ok"}` else. */
export async function startIntegrator(
  refuse: (body: string) => boolean,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (refuse(body)) res.writeHead(500).end('down');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
