import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../src/journal/index.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';

const bin = join(import.meta.dirname, '../../bin/svc-cli.js');
const env = { ...process.env, NO_COLOR: '1' };

/** Runs the built CLI to completion. */
function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** send-text "Hi" to a channel URL as a sender, with more flags. */
const sendHi = (channelUrl: string, senderId: string, ...flags: string[]) =>
  run(['send-text', 'Hi', '--channel-url', channelUrl, '--sender-id', senderId, ...flags]);

let platform: FakePlatform | undefined;
let child: ChildProcessWithoutNullStreams | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
  if (child && child.exitCode === null) child.kill('SIGKILL');
  child = undefined;
});

describe('svc-cli send-text / status (built CLI)', () => {
  it('send-text: 200 on stdout, exit 0', async () => {
    platform = await startFakePlatform();
    const r = await sendHi(platform.channelUrl, 'c-1');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatch(/^200 {2}channel\.customer\.text +\d+ms\n$/);
    expect(platform.received).toEqual([
      { sender: { id: 'c-1' }, message: { type: 'text', text: 'Hi' } },
    ]);
  });

  it('send-text: refused -> exit 3 with the reason on stderr', async () => {
    const r = await sendHi('http://127.0.0.1:1/r/c', 'c');
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatchInlineSnapshot(`
      "error [SVC_E_UNREACHABLE] Could not send the message: connection refused (127.0.0.1:1).
        Check --channel-url and that the platform is up; for one still starting, --wait 10s gives it time.
        more: svc-cli explain SVC_E_UNREACHABLE
      "
    `);
  });

  it('send-text: a platform answering 400 shows its body once, exit 1', async () => {
    const body = '{"error":{"code":"invalid_request","message":"sender.id: too long"}}';
    platform = await startFakePlatform({ refuse: { status: 400, body } });
    const r = await sendHi(platform.channelUrl, 'c-1');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^400 {2}channel\.customer\.text +\d+ms +\{"error":/);
    expect(`${r.stdout}${r.stderr}`.split('sender.id: too long')).toHaveLength(2);
    expect(r.stderr).toMatchInlineSnapshot(`
      "error [SVC_E_CHANNEL_STATUS] Could not send the message: the platform answered HTTP 400 (spec 4.1 expects 200).
        Spec 4.1: a status other than 200 means contacting the platform's support.
        more: svc-cli explain SVC_E_CHANNEL_STATUS
      "
    `);
  });

  it('send-text --force: a refusal of the broken payload is the expected answer, not a support case', async () => {
    const body = '{"error":{"code":"invalid_request","message":"sender.id: empty"}}';
    platform = await startFakePlatform({ refuse: { status: 400, body } });
    const r = await sendHi(platform.channelUrl, '', '--force');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('(sent with --force)');
    expect(r.stderr).toContain(
      'the platform refused the payload the contract check flagged (HTTP 400), as it should: sent with --force',
    );
    expect(r.stderr).not.toContain('error');
    expect(r.stderr).not.toContain('support');
  });

  it('status: online, exit 0; unknown channel exit 1', async () => {
    platform = await startFakePlatform({ statusBody: '1' });
    const ok = await run(['status', '--channel-url', platform.channelUrl]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^online +body 1 +\d+ms\n$/);
    const missing = await run(['status', '--channel-url', `${platform.url}/r/nope`]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no channel at this URL');
  });

  it('a channel URL without its random string says so, exit 1', async () => {
    platform = await startFakePlatform();
    for (const args of [['send-text', 'Hi', '--sender-id', 'c-1'], ['status']]) {
      const r = await run([...args, '--channel-url', `${platform.url}/ch-1`]);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(
        `no channel at ${platform.url}/ch-1 (HTTP 404): its path has one segment, "ch-1", and a channel URL has two, {base_url}/<random_string>/<channel_public_id> (spec 4.1).`,
      );
      expect(r.stderr).toContain('Put the random string before the public id');
    }
  });

  it('bad flags: exit 2', async () => {
    const r = await run(['listen', '--port', 'abc']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Could not use --port "abc": must be a number.');
  });
});

describe('svc-cli listen (built CLI)', () => {
  it('prints listening first, one line per request, records, exits 130 on SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-'));
    const record = join(dir, 'session.ndjson');
    child = spawn(
      process.execPath,
      [bin, '--json', 'listen', '--port', '0', '--fail-first', '1', '--record', record],
      { env },
    );
    const proc = child;
    const lines = createInterface({ input: proc.stdout })[Symbol.asyncIterator]();
    const next = async (): Promise<Record<string, unknown>> =>
      JSON.parse(((await lines.next()).value as string | undefined) ?? 'null') as Record<
        string,
        unknown
      >;

    const listening = await next();
    expect(listening).toMatchObject({ type: 'listening' });
    const url = `${String(listening.url)}/ch-1`;
    const body = JSON.stringify({
      recipient: { id: 'c-1' },
      message: { type: 'text', id: 'm-1', text: 'Hi' },
    });
    const post = () =>
      fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json' } });

    expect((await post()).status).toBe(500);
    expect(await next()).toMatchObject({
      type: 'agent-message',
      attempt: 1,
      fault: 'status:500',
      reply: { status: 500 },
    });
    const second = await post();
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ result: 'ok' });
    expect(await next()).toMatchObject({
      type: 'agent-message',
      attempt: 2,
      channel: 'ch-1',
      kind: 'channel.agent.text',
      transfer: 'content-length',
      verdict: { ok: true },
      reply: { status: 200 },
    });

    const exited = new Promise<number | null>((resolve) => proc.on('close', resolve));
    proc.kill('SIGINT');
    expect(await exited).toBe(130);
    const records = readFileSync(record, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as ExchangeRecord);
    expect(records.map((r) => [r.type, r.attempt, r.response?.status])).toEqual([
      ['exchange', 1, 500],
      ['exchange', 2, 200],
    ]);
  });
});
