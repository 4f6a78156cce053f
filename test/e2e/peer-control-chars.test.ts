/**
 * A hostile peer's bytes never reach the user's terminal as control characters: a hook
 * receiver and a channel whose answers carry ESC sequences (clear the screen, set the window
 * title), a BEL and a carriage return are printed with those written as escapes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

const HOSTILE = '{"result":"ok"}\u001b]0;owned\u0007\u001b[2J\r';
// eslint-disable-next-line no-control-regex
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let server: http.Server;
let base: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(HOSTILE);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((done) => server.close(done));
});

describe('control characters a peer sent', () => {
  it('hook-fire prints a receiver body with an ESC sequence escaped', async () => {
    const run = await runCli(['hook-fire', 'chat_accepted', '--url', `${base}/hook`]);
    expect(run.stdout).toContain('{"result":"ok"}\\x1b]0;owned\\x07\\x1b[2J\\r');
    expect(run.stdout).not.toMatch(RAW);
    expect(run.stderr).not.toMatch(RAW);
  });

  it('send-text prints the channel answer escaped; --json keeps it as sent', async () => {
    const url = `${base}/abcdefabcdefabcdefabcdef12/ch-1`;
    const run = await runCli(['send-text', 'hello', '--sender-id', 'c-1', '--channel-url', url]);
    expect(run.stdout).toContain('\\x1b]0;owned\\x07');
    expect(run.stdout).not.toMatch(RAW);
    const json = await runCli([
      'send-text',
      'hello',
      '--sender-id',
      'c-1',
      '--channel-url',
      url,
      '--json',
    ]);
    expect((JSON.parse(json.stdout.split('\n')[0]!) as { body: string }).body).toBe(HOSTILE);
  });
});
