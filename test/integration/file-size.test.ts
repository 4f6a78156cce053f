/** learnFileSize (http/file-size.ts): a media file's size from its server, on loopback. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { learnFileSize } from '../../src/http/file-size.js';
import { freePort } from '../helpers/free-port.js';

let server: Server;
let base: string;
const clock = createClock({ timeScale: 1 });

beforeAll(async () => {
  server = createServer((req, res) => {
    const range = req.headers.range;
    switch (req.url ?? '') {
      case '/cat.jpg': // Node sets Content-Length from end() for HEAD too
        res.setHeader('content-length', '48213');
        res.end();
        return;
      case '/no-head.png': // HEAD refused; a range answered
        if (req.method === 'HEAD') res.writeHead(405).end();
        else if (range === 'bytes=0-0')
          res.writeHead(206, { 'content-range': 'bytes 0-0/777' }).end('x');
        else res.end('x'.repeat(777));
        return;
      case '/redirect': // a CDN link: the file is elsewhere
        res.writeHead(302, { location: '/cat.jpg' }).end();
        return;
      case '/no-ranges.bin': // HEAD refused, ranges ignored: the whole file's length, over the 1 MiB a reply may have, unread
        if (req.method === 'HEAD') res.writeHead(405).end();
        else res.writeHead(200, { 'content-length': '2000000' }).end('x'.repeat(2_000_000));
        return;
      case '/empty.txt':
        res.writeHead(200, { 'content-length': '0' }).end();
        return;
      case '/streamed.mp4': // no length, no ranges: a body too long to read
        res.writeHead(200, { 'transfer-encoding': 'chunked' });
        if (req.method === 'HEAD') res.end();
        else res.end('x'.repeat(4096));
        return;
      default:
        res.writeHead(404).end('Not Found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const learn = (url: string) => learnFileSize({ url, clock, timeoutMs: 5000 });

describe('learnFileSize', () => {
  it('reads Content-Length of a HEAD', async () => {
    expect(await learn(`${base}/cat.jpg`)).toEqual({
      ok: true,
      size: 48213,
      from: 'Content-Length',
    });
  });

  it('falls back to a one-byte range where HEAD is refused', async () => {
    expect(await learn(`${base}/no-head.png`)).toEqual({
      ok: true,
      size: 777,
      from: 'Content-Range',
    });
  });

  it('follows a redirect, and reads a GET without its body where HEAD is refused', async () => {
    expect(await learn(`${base}/redirect`)).toEqual({
      ok: true,
      size: 48213,
      from: 'Content-Length',
    });
    expect(await learn(`${base}/no-ranges.bin`)).toEqual({
      ok: true,
      size: 2_000_000,
      from: 'Content-Length',
    });
  });

  it('makes up nothing: an empty file, no length, a 404, no server, no http(s) URL', async () => {
    expect(await learn(`${base}/empty.txt`)).toEqual({
      ok: false,
      reason: 'the file is empty (a size of 0; spec 2.4 wants a positive size)',
    });
    expect(await learn(`${base}/streamed.mp4`)).toEqual({
      ok: false,
      reason: 'the server did not say its size',
    });
    expect(await learn(`${base}/gone.jpg`)).toEqual({ ok: false, reason: 'HTTP 404' });
    const port = await freePort();
    expect(await learn(`http://127.0.0.1:${port}/a.jpg`)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('connection refused') as string,
    });
    expect(await learn('ftp://cdn.example/a.jpg')).toEqual({
      ok: false,
      reason: 'not an http(s) URL (spec 2.4)',
    });
    expect(await learn('cat.jpg')).toEqual({ ok: false, reason: 'not a URL' });
  });
});
