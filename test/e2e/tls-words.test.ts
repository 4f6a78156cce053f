/**
 * An https:// URL at a server that speaks plain HTTP: every command that makes requests says
 * so in one line with the way out (use http://), never in OpenSSL's words
 * ("ssl3_get_record:wrong version number").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startCliServer } from '../helpers/cli-server.js';

let plain: Server;
let origin: string;
beforeAll(async () => {
  plain = createServer((_req, res) => res.end('{"result":"ok"}'));
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
  origin = `https://127.0.0.1:${(plain.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => plain.close(() => resolve())));

const PLAIN_HTTP =
  /the server speaks plain HTTP, not TLS: use an http:\/\/ URL instead of https:\/\//;

describe('TLS failures in one line with the way out', () => {
  it.each([
    ['hook-fire', () => ['hook-fire', 'chat_accepted', '--url', `${origin}/hooks`]],
    ['status', () => ['status', '--channel-url', `${origin}/rs0123456789abcdef012345/shop`]],
    [
      'send-text',
      () => [
        'send-text',
        'hi',
        '--sender-id',
        'c-1',
        '--channel-url',
        `${origin}/rs0123456789abcdef012345/shop`,
      ],
    ],
    ['conform integrator', () => ['conform', 'integrator', '--url', `${origin}/agent-messages`]],
    ['conform hooks', () => ['conform', 'hooks', '--url', `${origin}/hooks`]],
    ['replay --platform-url', () => ['replay', 'fixtures/conversations', '--platform-url', origin]],
  ])('%s', async (_name, args) => {
    const run = await runCli(args());
    const said = `${run.stdout}${run.stderr}`;
    expect(said).toMatch(PLAIN_HTTP);
    expect(said).not.toMatch(
      /SSL routines|wrong version number|deps\/openssl|Is the receiver running/,
    );
    expect(run.code).toBe(3);
  });

  it('hook-fire --json names the code', async () => {
    const run = await runCli(['--json', 'hook-fire', 'chat_accepted', '--url', `${origin}/hooks`]);
    expect(run.code).toBe(3);
    expect(`${run.stdout}${run.stderr}`).toMatch(/"code":"SVC_E_TLS"/);
  });

  it('load integrator reports the reason in its figures', async () => {
    const run = await runCli([
      'load',
      'integrator',
      '--url',
      `${origin}/agent-messages`,
      '--rate',
      '5/s',
      '--duration',
      '1s',
    ]);
    const said = `${run.stdout}${run.stderr}`;
    expect(said).toMatch(PLAIN_HTTP);
    expect(said).not.toMatch(/SSL routines|wrong version number/);
  });
});

describe('--json: every line a run prints is a typed object', () => {
  it('the generated certificate notice and the --insecure warning are notice objects', async () => {
    const target = await startCliServer(['--json', 'hook-target', '--port', '0', '--tls']);
    try {
      const fired = await runCli([
        '--json',
        '--insecure',
        'hook-fire',
        'chat_accepted',
        '--url',
        `${target.listening.url}/hooks`,
      ]);
      expect(fired.code).toBe(0);
      const lines = [fired.stdout, fired.stderr, target.stderr()]
        .join('\n')
        .split('\n')
        .filter((line) => line.trim() !== '');
      for (const line of lines) {
        expect(() => JSON.parse(line) as unknown, line).not.toThrow();
        expect(JSON.parse(line) as { type?: unknown }, line).toHaveProperty('type');
      }
      expect(fired.stderr).toContain('"type":"notice","level":"warning","message":"--insecure:');
      expect(target.stderr()).toMatch(
        /"type":"notice","level":"info","message":"https: certificate generated/,
      );
    } finally {
      await target.stop();
    }
  });
});
