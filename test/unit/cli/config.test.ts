import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createConfigJsonSchema,
  configFileSchema,
  suggestKey,
} from '../../../src/cli/config-file.js';
import {
  listenSchema,
  mergeOptionSources,
  platformSchema,
  resolveOptions,
  statusSchema,
} from '../../../src/cli/options.js';
import { parseFlagWords, redactChannelUrl } from '../../../src/cli/commands/config-run.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const dirWith = (config: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return dir;
};

describe('precedence: config file < SVC_* env < flags', () => {
  const dir = dirWith({
    version: 1,
    port: 9000,
    host: '0.0.0.0',
    timeScale: 0.5,
    commands: { listen: { port: 9001 }, platform: { agents: 'offline' } },
  });

  it.each([
    ['file (top level)', {}, {}, undefined, { port: 9000, host: '0.0.0.0', timeScale: 0.5 }],
    ['file (commands.listen)', {}, {}, 'listen', { port: 9001 }],
    ['env beats file', {}, { SVC_PORT: '9100' }, 'listen', { port: 9100 }],
    ['flag beats env', { port: '9200' }, { SVC_PORT: '9100' }, 'listen', { port: 9200 }],
    ['empty env is unset', {}, { SVC_PORT: '' }, 'listen', { port: 9001 }],
    ['time scale from env', {}, { SVC_TIME_SCALE: '0.01' }, 'listen', { timeScale: 0.01 }],
  ])('%s', (_name, flags, env, command, expected) => {
    const options = resolveOptions(listenSchema, {
      flags,
      env,
      cwd: dir,
      ...(command ? { command } : {}),
    });
    expect(options).toMatchObject(expected);
  });

  it('platform reads its own section and SVC_INTEGRATOR_URL', () => {
    const options = resolveOptions(platformSchema, {
      flags: {},
      env: { SVC_INTEGRATOR_URL: 'http://127.0.0.1:9000/' },
      cwd: dir,
      command: 'platform',
    });
    expect(options).toMatchObject({
      agents: 'offline',
      integratorUrl: 'http://127.0.0.1:9000',
      console: true,
      bodyLimit: 1048576,
    });
  });

  it('tells where each value came from', () => {
    const merged = mergeOptionSources(['port', 'host', 'timeScale', 'timeout'], {
      flags: { host: '127.0.0.2' },
      env: { SVC_PORT: '1' },
      cwd: dir,
      command: 'listen',
    });
    expect(merged.source).toEqual({ port: 'env', host: 'flag', timeScale: 'file' });
  });

  it('names the source of a bad value', () => {
    expect(() =>
      resolveOptions(statusSchema, {
        flags: {},
        env: { SVC_CHANNEL_URL: 'nope' },
        cwd: dir,
      }),
    ).toThrow('--channel-url (from SVC_CHANNEL_URL): must be an http(s) URL (got "nope")');
  });
});

describe('the config file schema', () => {
  it('matches the committed schemas/svc.config.schema.json (npm run build regenerates it)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../schemas/svc.config.schema.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(createConfigJsonSchema());
  });

  it('accepts what init writes and refuses a bad URL', () => {
    expect(configFileSchema.safeParse({ version: 1, role: 'integrator' }).success).toBe(true);
    expect(configFileSchema.safeParse({ version: 1, channelUrl: 'x' }).success).toBe(false);
    expect(configFileSchema.safeParse({ version: 2 }).success).toBe(false);
  });

  it('suggests the closest key', () => {
    expect(suggestKey('chanelUrl')).toBe('channelUrl');
    expect(suggestKey('zzzzzzzzzz')).toBeUndefined();
  });
});

describe('svc-cli config', () => {
  it('parses flag words', () => {
    expect(parseFlagWords(['--port', '9000', '--strict', '--no-console', '--name=a b'])).toEqual({
      port: '9000',
      strict: true,
      console: false,
      name: 'a b',
    });
  });

  it('redacts the random string of a channel URL', () => {
    expect(redactChannelUrl('https://svc.test/s3cr3t/ch-1')).toBe('https://svc.test/***/ch-1');
  });

  it('prints value and source per key as NDJSON', async () => {
    const dir = dirWith({ version: 1, channelUrl: 'https://svc.test/s3cr3t/ch-1', port: 9000 });
    const t = createTestContext({ cwd: dir, env: { SVC_TIMEOUT: '500' } });
    const code = await runInProcess(t, ['--json', 'config', 'status', '--time-scale', '0.1']);
    expect(code).toBe(0);
    const rows = t
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows[0]).toMatchObject({ type: 'config-file', file: join(dir, 'svc.config.json') });
    expect(rows.slice(1)).toEqual([
      { type: 'config', key: 'timeScale', value: 0.1, source: 'flag' },
      {
        type: 'config',
        key: 'channelUrl',
        value: 'https://svc.test/***/ch-1',
        source: 'file',
        from: join(dir, 'svc.config.json'),
      },
      { type: 'config', key: 'timeout', value: 500, source: 'env', from: 'SVC_TIMEOUT' },
    ]);
  });

  it('exits 2 on an invalid value and marks it', async () => {
    const dir = dirWith({ version: 1, port: 'soon' });
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['config', 'listen'])).toBe(2);
    expect(t.stdout()).toMatch(/port\s+"soon"\s+file .* ✗ must be a number/);
  });
});
