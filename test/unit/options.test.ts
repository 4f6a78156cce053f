import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SvcError } from '../../src/errors.js';
import {
  listenSchema,
  resolveOptions,
  sendMediaSchema,
  sendTextSchema,
  statusSchema,
} from '../../src/cli/options.js';

const emptyDir = mkdtempSync(join(tmpdir(), 'svc-options-'));
const url = 'https://svc.test/r4nd0m/ch-1';

function errorOf(run: () => unknown): SvcError {
  try {
    run();
  } catch (error) {
    if (error instanceof SvcError) return error;
    throw error;
  }
  throw new Error('expected an SvcError');
}

describe('resolveOptions: argv -> options', () => {
  it.each([
    [
      'send-text defaults',
      { channelUrl: url, senderId: 'c1', text: 'hi' },
      { channelUrl: url, senderId: 'c1', text: 'hi', timeout: 10_000, force: false, json: false },
    ],
    [
      'numbers from strings',
      { channelUrl: url, senderId: 'c1', text: 'hi', timeout: '250', timeScale: '0.01' },
      { timeout: 250, timeScale: 0.01 },
    ],
    [
      'an empty sender id passes (the contract rejects it, --force sends it)',
      { channelUrl: url, senderId: '', text: 'hi', force: true },
      { senderId: '', force: true },
    ],
  ])('%s', (_name, flags, expected) => {
    const options = resolveOptions(sendTextSchema, { flags, env: {}, cwd: emptyDir });
    expect(options).toMatchObject(expected);
  });

  it.each([
    [{ channelUrl: 'ftp://x', senderId: 'c', text: 't' }, '--channel-url: must be an http(s) URL'],
    [{ channelUrl: url, text: 't' }, '--sender-id is required (or set SVC_SENDER_ID'],
    [{ channelUrl: url, senderId: 'c', text: 't', timeout: 'soon' }, '--timeout: must be a number'],
    [{ channelUrl: url, senderId: 'c', text: 't', timeout: '0' }, '--timeout: must be at least 1'],
  ])('rejects %j', (flags, message) => {
    const error = errorOf(() => resolveOptions(sendTextSchema, { flags, env: {}, cwd: emptyDir }));
    expect(error.code).toBe('SVC_E_OPTIONS');
    expect(error.category).toBe('input');
    expect(error.message).toContain(message);
  });

  it('parses media flags; field rules are left to the contract', () => {
    const options = resolveOptions(sendMediaSchema, {
      flags: {
        channelUrl: url,
        senderId: 'c',
        type: 'photo',
        file: 'x',
        fileName: 'a.png',
        fileSize: '-1',
      },
      env: {},
      cwd: emptyDir,
    });
    expect(options).toMatchObject({ type: 'photo', fileSize: -1 });
    const error = errorOf(() =>
      resolveOptions(sendMediaSchema, {
        flags: {
          channelUrl: url,
          senderId: 'c',
          type: 'gif',
          file: 'x',
          fileName: 'a',
          fileSize: '1',
        },
        env: {},
        cwd: emptyDir,
        labels: { type: '<type>' },
      }),
    );
    expect(error.message).toMatchInlineSnapshot(
      `"Could not use the options: <type>: must be one of video, audio, voice, photo, sticker, document (got "gif")."`,
    );
  });

  it('listen: defaults, fault syntax, ranges', () => {
    const options = resolveOptions(listenSchema, {
      flags: { failFirst: '2', fault: 'status:503', faultRate: '0.5', seed: '7' },
      env: {},
      cwd: emptyDir,
    });
    expect(options).toMatchObject({
      host: '127.0.0.1',
      port: 0,
      failFirst: 2,
      fault: { kind: 'status', status: 503 },
      faultRate: 0.5,
      seed: 7,
      bodyLimit: 1024 * 1024,
    });
    for (const [flags, message] of [
      [{ port: '70000' }, '--port: must be at most 65535'],
      [{ fault: 'explode' }, '--fault: unknown fault "explode"'],
      [{ faultRate: '2' }, '--fault-rate:'],
    ] as const) {
      expect(
        errorOf(() => resolveOptions(listenSchema, { flags, env: {}, cwd: emptyDir })).message,
      ).toContain(message);
    }
  });
});

describe('resolveOptions: precedence config < env < flags', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  writeFileSync(
    join(dir, 'svc.config.json'),
    JSON.stringify({
      version: 1,
      channelUrl: 'https://config.test/r/c',
      senderId: 'from-config',
      timeout: 500,
    }),
  );

  it.each([
    ['config only', {}, {}, { channelUrl: 'https://config.test/r/c', timeout: 500 }],
    ['env over config', { SVC_CHANNEL_URL: url }, {}, { channelUrl: url, timeout: 500 }],
    [
      'flags over env',
      { SVC_CHANNEL_URL: 'https://env.test/r/c' },
      { channelUrl: url, timeout: '9' },
      { channelUrl: url, timeout: 9 },
    ],
  ])('%s', (_name, env, flags, expected) => {
    expect(resolveOptions(statusSchema, { flags, env, cwd: dir })).toMatchObject(expected);
  });

  it('names the source of a bad value', () => {
    const error = errorOf(() =>
      resolveOptions(statusSchema, { flags: {}, env: { SVC_CHANNEL_URL: 'nope' }, cwd: dir }),
    );
    expect(error.message).toContain('--channel-url (from SVC_CHANNEL_URL): must be an http(s) URL');
  });

  it('reads --config, and rejects a missing file or an unknown version', () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, JSON.stringify({ version: 2 }));
    expect(
      errorOf(() => resolveOptions(statusSchema, { flags: { config: other }, env: {}, cwd: dir }))
        .code,
    ).toBe('SVC_E_CONFIG_VERSION');
    expect(
      errorOf(() =>
        resolveOptions(statusSchema, { flags: { config: 'missing.json' }, env: {}, cwd: dir }),
      ).code,
    ).toBe('SVC_E_CONFIG');
  });
});
