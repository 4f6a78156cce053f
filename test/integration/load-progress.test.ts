/**
 * `load`'s live line (rewritten in place with `\r` and an erase) follows the rule of every
 * progress (isProgressShown): drawn only on a terminal that redraws, never with TERM=dumb, in
 * CI or when stderr is no TTY; the summary is printed either way.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProgressShown } from '../../src/cli/render/progress.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';

/** what the live line writes to redraw itself: back to the start, erase the line */
const REDRAW = '\r\u001b[2K';

let server: http.Server;
let url: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
});

/** `load hooks` of three events with stderr a terminal (or not) and the environment given. */
async function runLoad(
  env: NodeJS.ProcessEnv,
  tty = true,
): Promise<{ code: number; err: string; out: string }> {
  const t = createTestContext({ cwd: process.cwd(), env });
  if (tty) Object.assign(t.ctx.stderr, { isTTY: true, columns: 120 });
  const code = await runInProcess(t, [
    'load',
    'hooks',
    '--url',
    url,
    '--count',
    '3',
    '--no-calibrate',
  ]);
  return { code, err: t.stderr(), out: t.stdout() };
}

describe('load: the live line only where progress is shown', () => {
  it('is drawn on a terminal that redraws', async () => {
    const run = await runLoad({});
    expect(run.code).toBe(0);
    expect(run.err).toContain(REDRAW);
  });

  it.each([
    ['TERM=dumb', { TERM: 'dumb' }, true],
    ['CI set', { CI: 'true' }, true],
    ['stderr no TTY', {}, false],
  ])('is not drawn with %s; the summary still is', async (_name, env, tty) => {
    const run = await runLoad(env, tty);
    expect(run.code).toBe(0);
    expect(run.err).not.toContain(REDRAW);
    expect(run.err).not.toContain('\r');
    expect(run.out).toMatch(/sent\s+3/);
  });

  it('isProgressShown says so for every progress', () => {
    const ctx = (env: NodeJS.ProcessEnv) => ({
      env,
      stdin: {} as never,
      stderr: Object.assign(new http.OutgoingMessage(), { isTTY: true, columns: 80 }),
    });
    expect(isProgressShown(ctx({ TERM: 'xterm' }), false)).toBe(true);
    expect(isProgressShown(ctx({ TERM: 'dumb' }), false)).toBe(false);
    expect(isProgressShown(ctx({ CI: '1' }), false)).toBe(false);
    expect(isProgressShown(ctx({ CI: 'false' }), false)).toBe(true);
    expect(isProgressShown(ctx({}), true)).toBe(false);
  });
});
