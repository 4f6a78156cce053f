import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHAT_HELP, parseChatLine } from '../../../src/cli/console/chat-console.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';
import { startPlatform } from '../../helpers/platform.js';
import { freePort } from '../../helpers/free-port.js';
import { createClock } from '../../../src/clock.js';

const cwd = mkdtempSync(join(tmpdir(), 'svc-chat-'));

describe('parseChatLine', () => {
  it.each([
    ['Hello there', { kind: 'text', text: 'Hello there' }],
    ['//etc/hosts is a path', { kind: 'text', text: '/etc/hosts is a path' }],
    ['   ', { kind: 'none' }],
    ['/typing off', { kind: 'typing', on: false }],
    ['/typing maybe', { kind: 'error', message: '/typing on|off' }],
    [
      '/photo https://cdn.example/cat%201.jpg',
      {
        kind: 'media',
        type: 'photo',
        file: 'https://cdn.example/cat%201.jpg',
        fileName: 'cat 1.jpg',
      },
    ],
    [
      '/media video https://cdn.example/v.mp4 clip.mp4 2048',
      {
        kind: 'media',
        type: 'video',
        file: 'https://cdn.example/v.mp4',
        fileName: 'clip.mp4',
        fileSize: 2048,
      },
    ],
    ['/media gif https://x', { kind: 'error' }],
    [
      '/photo https://cdn.example/a.png 999',
      { kind: 'media', type: 'photo', fileName: 'a.png', fileSize: 999 },
    ],
    ['/photo', { kind: 'error', message: '/photo <url> [name] [size]' }],
    [
      '/photo http://x/a%E0%A4%A.png 12',
      { kind: 'media', fileName: 'a%E0%A4%A.png', fileSize: 12 },
    ],
    ['/photo https://cdn.example/', { kind: 'media', fileName: 'file' }],
    [
      '/media pdf https://x/a.pdf',
      {
        kind: 'error',
        message: expect.stringMatching(
          /^"pdf" is not a media type \(spec 2\.4\); did you mean document\? \/media </,
        ),
      },
    ],
    [
      '/media pic https://x/a.png',
      { kind: 'error', message: expect.stringContaining('did you mean photo?') },
    ],
    [
      '/media vidoe https://x/a.mp4',
      { kind: 'error', message: expect.stringContaining('did you mean video?') },
    ],
    ['/media photo https://x/a.png a.png -1', { kind: 'error' }],
    ['/location 55.75 -37.6', { kind: 'location', latitude: 55.75, longitude: -37.6 }],
    ['/location', { kind: 'error', message: '/location <latitude> <longitude>' }],
    // which word is wrong, not the usage alone
    [
      '/location north',
      {
        kind: 'error',
        message:
          'Not sent: latitude "north" is not a number; no longitude given. /location <latitude> <longitude>',
      },
    ],
    [
      '/location abc 1',
      {
        kind: 'error',
        message: 'Not sent: latitude "abc" is not a number. /location <latitude> <longitude>',
      },
    ],
    // refused as send-location --latitude 95 is (exit 2, "must be at most 90"): nothing sent
    [
      '/location 95 10',
      {
        kind: 'error',
        message: 'Not sent: latitude "95" must be at most 90. /location <latitude> <longitude>',
      },
    ],
    [
      '/location 10 -181',
      {
        kind: 'error',
        message:
          'Not sent: longitude "-181" must be at least -180. /location <latitude> <longitude>',
      },
    ],
    ['/location -90 180', { kind: 'location', latitude: -90, longitude: 180 }],
    ['/name Ann Lee', { kind: 'sender', field: 'name', value: 'Ann Lee' }],
    ['/email', { kind: 'error', message: '/email <email>' }],
    ['/agent Hi there', { kind: 'agent', text: 'Hi there' }],
    ['/quit', { kind: 'quit' }],
    ['/nope', { kind: 'error' }],
  ])('%j', (line, expected) => {
    expect(parseChatLine(line)).toMatchObject(expected);
  });

  it('leaves out a size not typed: the console asks the file server, never makes one up', () => {
    expect(parseChatLine('/photo https://cdn.example/cat.jpg')).not.toHaveProperty('fileSize');
  });
});

describe('chat /help', () => {
  it('fits an 80-column terminal', () => {
    for (const line of CHAT_HELP.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(CHAT_HELP).toMatch(/\/phone <phone>\n +sender fields for the next messages/);
  });

  it('lists the // escape that docs/integrator.md and the unknown-command error name', () => {
    expect(CHAT_HELP).toMatch(
      /^ {2}\/\/<text> +send a line starting with \/ \(\/\/etc sends \/etc\)$/m,
    );
    expect(parseChatLine('//etc')).toEqual({ kind: 'text', text: '/etc' });
  });

  it('names the command a mistyped one meant, and none for a word far from every one', () => {
    expect(parseChatLine('/tpying on')).toEqual({
      kind: 'error',
      message:
        'unknown command /tpying (did you mean /typing?); /help lists them (// sends a line starting with /)',
    });
    expect(parseChatLine('/etc/hosts')).toEqual({
      kind: 'error',
      message: 'unknown command /etc/hosts; /help lists them (// sends a line starting with /)',
    });
  });
});

describe('svc-cli chat, driven through injected streams', () => {
  it('embedded simulator: sends, prints the agent reply, /quit exits 0', async () => {
    const t = createTestContext({ cwd });
    const running = runInProcess(t, ['chat', '--sender-id', 'c-7']);
    await t.waitForOutput('/quit or Ctrl-D leaves');
    expect(t.stdout()).toMatch(/channel URL\s+http:\/\/127\.0\.0\.1:\d+\/\S+/);
    t.stdin.write('/name Ann\nHello\n/agent Hi Ann, how can I help?\n');
    await t.waitForOutput('Alice Agent: Hi Ann, how can I help?');
    t.stdin.write('/quit\nnot sent\n');
    expect(await running).toBe(0);
    expect(t.stdout().match(/✓ 200 text/g)).toHaveLength(1);
    expect(t.stderr()).toContain('name is now "Ann"');
  });

  it('--platform-port: the embedded simulator serves its channel and control API there', async () => {
    const port = await freePort();
    const t = createTestContext({ cwd });
    const running = runInProcess(t, ['chat', '--platform-port', String(port)]);
    await t.waitForOutput('/quit or Ctrl-D leaves');
    expect(t.stdout()).toContain(`channel URL     http://127.0.0.1:${port}/`);
    const state = await fetch(`http://127.0.0.1:${port}/_sim/state`);
    expect(state.status).toBe(200);
    await state.body?.cancel();
    t.stdin.end();
    expect(await running).toBe(0);
  });

  it('--platform-port with --channel-url is refused: no simulator starts to take it', async () => {
    const t = createTestContext({ cwd });
    const code = await runInProcess(t, [
      'chat',
      '--platform-port',
      '8800',
      '--channel-url',
      'http://127.0.0.1:9/r/ch',
    ]);
    expect(code).toBe(2);
    expect(t.stderr()).toContain('--platform-port sets the port of the embedded simulator');
  });

  it('against a channel URL: the platform delivers to the embedded listen (--json)', async () => {
    const clock = createClock({ timeScale: 0.05 });
    const h = await startPlatform({ clock });
    const t = createTestContext({ cwd });
    const running = runInProcess(t, ['--json', 'chat', '--channel-url', h.channelUrl]);
    await t.waitForOutput('"chat-ready"');
    const ready = JSON.parse(t.stdout().split('\n')[0]!);
    expect(ready.channelUrl).toMatch(/\/\*\*\*\//); // the random string stays secret
    for (const channel of h.platform.core.state.channels.values())
      channel.integratorUrl = ready.integratorUrl;
    t.stdin.write('Hello\n');
    await t.waitForOutput('"chat-sent"');
    const { sendAgentMessage } = await import('../../../src/platform/index.js');
    await sendAgentMessage(h.platform.core, {
      customerId: 'customer-1',
      message: { type: 'text', text: 'Hi!' },
    });
    await t.waitForOutput('"chat-agent"');
    t.stdin.end();
    expect(await running).toBe(0);
    const agent = t
      .stdout()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((e) => e.type === 'chat-agent');
    expect(agent).toMatchObject({
      agent: 'Alice Agent',
      recipient: 'customer-1',
      message: { type: 'text', text: 'Hi!' },
    });
  });

  it('Ctrl-C (the signal) exits 130 and says it stopped, as platform and listen do', async () => {
    const t = createTestContext({ cwd });
    const running = runInProcess(t, ['chat']);
    await t.waitForOutput('/quit or Ctrl-D leaves');
    t.abort();
    expect(await running).toBe(130);
    expect(t.stderr()).toMatch(/stopped \(SIGINT\)\n$/);
  });
});
