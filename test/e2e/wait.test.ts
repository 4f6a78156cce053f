import { describe, expect, it } from 'vitest';
import { startedAfter } from '../helpers/cli-server.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * `--wait` on the commands a script runs right after starting a peer in the background
 * (`platform ... &` then send-text, `hook-target ... &` then hook-fire), as the docs show them:
 * each is started before its peer, with no pause between them.
 */
describe('--wait on send-text, hook-fire and load', () => {
  it('send-text reaches a platform started after it, and names one that never comes', async () => {
    const port = await freePort();
    const channelUrl = `http://127.0.0.1:${port}/dev-only-secret-1234/shop`;
    const send = (...more: string[]) =>
      runCli(['send-text', 'Hi', '--channel-url', channelUrl, '--sender-id', 'c-1', ...more]);

    const done = await startedAfter(send('--wait', '60s'), [
      '--json',
      'platform',
      '--port',
      String(port),
      '--channel-id',
      'shop',
      '--random-string',
      'dev-only-secret-1234',
      '--no-console',
    ]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toMatch(/^200 {2}channel\.customer\.text/);

    const dead = await send('--wait', '300ms');
    expect(dead.code).toBe(3);
    // the channel URL's path is a secret (spec 5.1): the message names the origin only
    expect(dead.stderr).toContain(
      `Could not send: the platform at http://127.0.0.1:${port} is unreachable (connection refused, still after 300 ms).`,
    );
    // the code a send without --wait gives for it: a script keyed on it sees one code
    expect(dead.stderr).toMatch(/^error \[SVC_E_UNREACHABLE\]/);
    expect((await send()).stderr).toMatch(/^error \[SVC_E_UNREACHABLE\]/);
  });

  it('hook-fire reaches a receiver started after it; a bad --wait is a flag error', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const fired = runCli(['hook-fire', 'chat_accepted', '--url', url, '--wait', '60s']);
    const done = await startedAfter(fired, ['--json', 'hook-target', '--port', String(port)]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('chat_accepted');

    const dead = await runCli(['hook-fire', 'chat_accepted', '--url', url, '--wait', '300ms']);
    expect(dead.code).toBe(3);
    expect(dead.stderr).toContain(
      `Could not fire: the hook receiver at ${url} is unreachable (connection refused, still after 300 ms).`,
    );

    const bad = await runCli(['hook-fire', 'chat_accepted', '--url', url, '--wait', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Could not use --wait "soon": must be a duration');
  });

  it('a bad --wait on send-text is a flag error naming a duration, not a load one', async () => {
    const bad = await runCli([
      ...['send-text', 'hi', '--channel-url', 'http://127.0.0.1:9/x/y'],
      ...['--sender-id', 'c1', '--wait', 'forever'],
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain(
      'Could not use --wait "forever": must be a duration with ms, s, m or h (10s, 500ms, 2m; a bare number is seconds)',
    );
    expect(bad.stderr).toContain('SVC_E_OPTIONS');
    expect(bad.stderr).not.toContain('LOAD');
  });

  it('load hooks runs against a receiver started after it', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hooks`;
    const load = runCli([
      'load',
      'hooks',
      '--url',
      url,
      '--count',
      '3',
      '--rate',
      '50/s',
      '--wait',
      '60s',
    ]);
    const done = await startedAfter(load, ['--json', 'hook-target', '--port', String(port)]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain('sent 3 = delivered 3 + ');
  });
});
