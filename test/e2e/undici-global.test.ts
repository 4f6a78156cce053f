/**
 * Node's own `fetch`, run before svc-cli's HTTP code is loaded, installs the agent of Node's
 * bundled undici as the process's global dispatcher. A file's size (the consoles' `/photo <url>`,
 * `send-media`) is still learnt then: in a fresh node, as a program that embeds svc-cli runs it.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';

const fileSize = pathToFileURL(path.join(repoRoot, 'dist/http/file-size.js')).href;
const clock = pathToFileURL(path.join(repoRoot, 'dist/clock.js')).href;

const script = `
import { createServer } from 'node:http';
const server = createServer((req, res) => {
  if (req.url === '/redirect') return res.writeHead(302, { location: '/cat.jpg' }).end();
  if (req.url === '/cat.jpg') { res.setHeader('content-length', '48213'); return res.end(); }
  res.end('hello');
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = 'http://127.0.0.1:' + server.address().port;
const before = await (await fetch(base + '/')).text();
const { learnFileSize } = await import(${JSON.stringify(fileSize)});
const { createClock } = await import(${JSON.stringify(clock)});
const size = await learnFileSize({ url: base + '/redirect', clock: createClock({ timeScale: 1 }), timeoutMs: 5000 });
server.close();
process.stdout.write(JSON.stringify({ before, size }));
`;

describe("a file's size after node's own fetch", () => {
  it('is learnt, redirect followed, with the global agent of another undici installed', () => {
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: repoRoot,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      before: 'hello',
      size: { ok: true, size: 48213, from: 'Content-Length' },
    });
  });
});
