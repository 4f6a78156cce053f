import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/main.js';
import type { CliContext } from '../../src/cli/context.js';
import { SvcError } from '../../src/errors.js';
import { createJournal } from '../../src/journal/index.js';
import {
  buildTextMessage,
  createListener,
  getChannelStatus,
  sendCustomerMessage,
} from '../../src/roles/integrator/index.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { createHookTarget } from '../../src/roles/hooks/index.js';
import { startFakePlatform, type FakePlatform } from '../helpers/fake-platform.js';

let platform: FakePlatform | undefined;
afterEach(async () => {
  await platform?.close();
  platform = undefined;
});

const refusedUrl = 'http://127.0.0.1:1/r4nd0m/ch-1';
const hello = buildTextMessage({
  sender: { id: 'c-1', name: 'Ann' },
  text: 'Hello',
  messageId: 'm-1',
});

async function rejectionOf(work: Promise<unknown>): Promise<SvcError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof SvcError)) throw new Error(`expected an SvcError, got ${String(error)}`);
  return error;
}

describe('sendCustomerMessage (spec 4.1)', () => {
  it('delivers a valid message: 200, body, latency', async () => {
    platform = await startFakePlatform();
    const journal = createJournal();
    const result = await sendCustomerMessage({
      channelUrl: platform.channelUrl,
      payload: hello,
      journal,
    });
    expect(result).toMatchObject({ kind: 'channel.customer.text', status: 200, forced: false });
    expect(result.problem).toBeUndefined();
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    expect(platform.received).toEqual([hello]);
    expect(journal.entries()[0]).toMatchObject({ direction: 'out', response: { status: 200 } });
  });

  it('classifies 404 as no channel at that URL (contract, exit 1)', async () => {
    platform = await startFakePlatform();
    const result = await sendCustomerMessage({
      channelUrl: `${platform.url}/r4nd0m/nope`,
      payload: hello,
    });
    expect(result.status).toBe(404);
    expect(result.problem).toMatchObject({ code: 'SVC_E_UNKNOWN_CHANNEL', category: 'contract' });
  });

  it('refuses an invalid payload before sending, unless forced', async () => {
    platform = await startFakePlatform();
    const bad = buildTextMessage({ sender: { id: '' }, text: 'x' });
    const error = await rejectionOf(
      sendCustomerMessage({ channelUrl: platform.channelUrl, payload: bad }),
    );
    expect(error).toMatchObject({ code: 'SVC_E_INVALID_PAYLOAD', category: 'input' });
    expect(platform.received).toEqual([]);
    const forced = await sendCustomerMessage({
      channelUrl: platform.channelUrl,
      payload: bad,
      force: true,
    });
    expect(forced).toMatchObject({ forced: true, status: 200, verdict: { ok: false } });
  });

  it('classifies a refused connection as network (exit 3)', async () => {
    const error = await rejectionOf(
      sendCustomerMessage({ channelUrl: refusedUrl, payload: hello }),
    );
    expect(error).toMatchObject({ code: 'SVC_E_UNREACHABLE', category: 'network' });
  });
});

describe('a --timeout of a few ms, a bare number meant as seconds', () => {
  it('says how to write seconds, sending or reading the status', async () => {
    // a platform that never answers
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const channelUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/r4nd0m/ch-1`;
    try {
      const hint =
        'Raise --timeout, or check the platform. --timeout 30 is 30 ms, as a bare number is ms: --timeout 30s waits 30 s.';
      expect(
        await rejectionOf(sendCustomerMessage({ channelUrl, payload: hello, timeoutMs: 30 })),
      ).toMatchObject({ code: 'SVC_E_TIMEOUT', hint });
      expect(await rejectionOf(getChannelStatus({ channelUrl, timeoutMs: 30 }))).toMatchObject({
        code: 'SVC_E_TIMEOUT',
        hint,
      });
      // a limit written as it is meant keeps the short hint
      expect(
        await rejectionOf(sendCustomerMessage({ channelUrl, payload: hello, timeoutMs: 150 })),
      ).toMatchObject({ code: 'SVC_E_TIMEOUT', hint: 'Raise --timeout, or check the platform.' });
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('a --channel-url copied with /status', () => {
  it('says to drop /status, sending or reading the status', async () => {
    platform = await startFakePlatform();
    const hint = `--channel-url ends in /status, which is the channel's status URL: use it without /status (${platform.channelUrl}).`;
    const sent = await sendCustomerMessage({
      channelUrl: `${platform.channelUrl}/status`,
      payload: hello,
    });
    expect(sent.status).not.toBe(200);
    expect(sent.problem?.hint).toBe(hint);
    const read = await rejectionOf(
      getChannelStatus({ channelUrl: `${platform.channelUrl}/status` }),
    );
    expect(read.hint).toBe(hint);
    const slash = await rejectionOf(
      getChannelStatus({ channelUrl: `${platform.channelUrl}/status/` }),
    );
    expect(slash.hint).toBe(hint);
  });
});

describe("a --channel-url that is one of svc-cli's serving roles", () => {
  it('says so, sending or reading the status, instead of reporting it delivered', async () => {
    const listener = await createListener();
    try {
      const channelUrl = `${listener.url}/agent-messages`;
      const sent = await sendCustomerMessage({ channelUrl, payload: hello });
      expect(sent.status).toBe(200);
      expect(sent.problem).toMatchObject({ code: 'SVC_E_NOT_A_CHANNEL', category: 'input' });
      expect(sent.problem?.message).toBe(
        `Could not send the message: ${new URL(listener.url).host} is svc-cli listen (it plays the integrator and receives agent messages, spec 4.2), not a channel of the platform.`,
      );
      const read = await rejectionOf(getChannelStatus({ channelUrl }));
      expect(read.code).toBe('SVC_E_NOT_A_CHANNEL');
    } finally {
      await listener.close();
    }
  });

  it.each([
    [
      'listen failing its first attempts',
      () => createListener({ plan: { failFirst: 2 } }),
      'listen',
    ],
    ['bot-sim', () => createBotProvider({ token: 't0k', providerId: 'acme' }), 'bot-sim'],
    ['hook-target', () => createHookTarget(), 'hook-target'],
  ])('names %s, whatever its status', async (_, start, command) => {
    const role = await start();
    try {
      const sent = await sendCustomerMessage({ channelUrl: `${role.url}/x/shop`, payload: hello });
      expect(sent.problem?.code).toBe('SVC_E_NOT_A_CHANNEL');
      expect(sent.problem?.message).toContain(` is svc-cli ${command} (it plays `);
    } finally {
      await role.close();
    }
  });

  it('a real channel (no x-svc-role) is still delivered', async () => {
    platform = await startFakePlatform();
    expect(
      (await sendCustomerMessage({ channelUrl: platform.channelUrl, payload: hello })).problem,
    ).toBeUndefined();
  });
});

describe('getChannelStatus (spec 3, 4.1)', () => {
  it.each([
    ['1', 'online'],
    ['0', 'offline'],
  ])('body %s -> %s', async (body, availability) => {
    platform = await startFakePlatform({ statusBody: body });
    expect(await getChannelStatus({ channelUrl: platform.channelUrl })).toMatchObject({
      availability,
    });
  });

  it('any other body is a contract violation', async () => {
    platform = await startFakePlatform({ statusBody: 'online' });
    const error = await rejectionOf(getChannelStatus({ channelUrl: platform.channelUrl }));
    expect(error).toMatchObject({ code: 'SVC_E_STATUS_BODY', category: 'contract' });
  });

  it('404 and refused', async () => {
    platform = await startFakePlatform();
    expect(
      await rejectionOf(getChannelStatus({ channelUrl: `${platform.url}/r/x` })),
    ).toMatchObject({
      code: 'SVC_E_UNKNOWN_CHANNEL',
    });
    expect(await rejectionOf(getChannelStatus({ channelUrl: refusedUrl }))).toMatchObject({
      category: 'network',
    });
  });
});

/** Runs the CLI in-process with captured streams (no colour: not a TTY). */
async function cli(argv: string[], env: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  const ctx: CliContext = {
    stdout,
    stderr,
    stdin: new PassThrough(),
    env: { NO_COLOR: '1', ...env },
    cwd: process.cwd(),
    signal: new AbortController().signal,
    exitCode: 0,
  };
  const code = await runCli(argv, ctx);
  return { code, stdout: out.replace(/\d+ms/g, 'Nms'), stderr: err };
}

describe('send-text command', () => {
  it('prints status, kind, latency and body on one line (exit 0)', async () => {
    platform = await startFakePlatform();
    const r = await cli(['send-text', 'Hello', '--sender-id', 'c-1'], {
      SVC_CHANNEL_URL: platform.channelUrl,
    });
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toMatchInlineSnapshot(`
      "200  channel.customer.text        Nms
      "
    `);
  });

  it('404: says no channel is at that URL, and which two parts to check (exit 1)', async () => {
    platform = await startFakePlatform();
    const r = await cli([
      'send-text',
      'Hello',
      '--sender-id',
      'c-1',
      '--channel-url',
      `${platform.url}/r/x`,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'no channel at this URL: its public id is unknown or its random string is wrong (HTTP 404, spec 4.1)',
    );
  });

  it('invalid payload: lists the issues (exit 2)', async () => {
    const r = await cli(['send-text', 'Hello', '--sender-id', '', '--channel-url', refusedUrl]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatchInlineSnapshot(`
      "error [SVC_E_INVALID_PAYLOAD] Could not send: the payload breaks the contract (1 error).
        ✗ sender.id: must be a non-empty string (an empty id means the message is not sent) (spec 2.1)
        Fix the fields listed, or pass --force to send it anyway and watch how the platform handles it.
        more: svc-cli explain 2.1
      "
    `);
  });

  it('refused: exit 3, NDJSON error with --json', async () => {
    const r = await cli([
      '--json',
      'send-text',
      'Hello',
      '--sender-id',
      'c',
      '--channel-url',
      refusedUrl,
    ]);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout)).toMatchObject({
      type: 'error',
      code: 'SVC_E_UNREACHABLE',
      category: 'network',
    });
  });

  it('send-media, send-location and typing build their payloads', async () => {
    platform = await startFakePlatform();
    const env = { SVC_CHANNEL_URL: platform.channelUrl, SVC_SENDER_ID: 'c-9' };
    const media = [
      'send-media',
      'photo',
      '--file',
      'https://cdn.test/a.png',
      '--file-name',
      'a.png',
      '--file-size',
      '12',
      '--width',
      '64',
    ];
    expect((await cli(media, env)).code).toBe(0);
    expect(
      (await cli(['send-location', '--latitude', '55.75', '--longitude=-37.6'], env)).code,
    ).toBe(0);
    expect((await cli(['typing', 'start'], env)).code).toBe(0);
    expect(platform.received).toEqual([
      {
        sender: { id: 'c-9' },
        message: {
          type: 'photo',
          file: 'https://cdn.test/a.png',
          file_name: 'a.png',
          file_size: 12,
          width: 64,
        },
      },
      { sender: { id: 'c-9' }, message: { type: 'location', latitude: 55.75, longitude: -37.6 } },
      { sender: { id: 'c-9' }, message: { type: 'typein' } },
    ]);
  });

  it("send-media without --file-name and --file-size: the URL's name, its server's size", async () => {
    const files = createServer((req, res) => {
      if (req.url === '/docs/terms%20v2.pdf') res.setHeader('content-length', '48213');
      else res.writeHead(404);
      res.end();
    });
    await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
    try {
      platform = await startFakePlatform();
      const env = { SVC_CHANNEL_URL: platform.channelUrl, SVC_SENDER_ID: 'c-9' };
      const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
      const sent = await cli(
        ['send-media', 'document', '--file', `${base}/docs/terms%20v2.pdf`],
        env,
      );
      expect(sent.code).toBe(0);
      expect(platform.received).toEqual([
        {
          sender: { id: 'c-9' },
          message: {
            type: 'document',
            file: `${base}/docs/terms%20v2.pdf`,
            file_name: 'terms v2.pdf',
            file_size: 48213,
          },
        },
      ]);
      const missing = await cli(['send-media', 'photo', '--file', `${base}/gone.png`], env);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toBe(
        `error [SVC_E_FLAG] Could not learn the size of ${base}/gone.png: HTTP 404.\n  Pass --file-size <bytes> (or --force to send the message without one).\n  more: svc-cli explain SVC_E_FLAG\n`,
      );
      // a URL with no last path segment names no file: the flag to give, before the size
      const nameless = await cli(['send-media', 'photo', '--file', `${base}/docs/`], env);
      expect(nameless.code).toBe(2);
      expect(nameless.stderr).toBe(
        `error [SVC_E_FLAG] Could not name the file ${base}/docs/: its path ends in / and has no last segment to take as the name (message.file_name, spec 2.4).\n  Pass --file-name <name> (or --force to send the message without one).\n  more: svc-cli explain SVC_E_FLAG\n`,
      );
      // --force sends it without a size, as asked: the contract check flags it
      const forced = await cli(
        ['send-media', 'photo', '--file', `${base}/gone.png`, '--force'],
        env,
      );
      expect(forced.code).toBe(0);
      expect(platform.received.at(-1)).toEqual({
        sender: { id: 'c-9' },
        message: { type: 'photo', file: `${base}/gone.png`, file_name: 'gone.png' },
      });
    } finally {
      await new Promise((done) => files.close(done));
    }
  });

  it('status prints online / offline', async () => {
    platform = await startFakePlatform({ statusBody: '0' });
    const r = await cli(['--json', 'status', '--channel-url', platform.channelUrl]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      type: 'status',
      availability: 'offline',
      status: 200,
    });
  });
});
