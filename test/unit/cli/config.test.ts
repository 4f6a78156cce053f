import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConfigJsonSchema } from '../../../src/cli/options/json-schema.js';
import { checkConfigValues } from '../../../src/cli/options/resolve.js';
import { parseFlagWords, redactChannelUrl } from '../../../src/cli/commands/config-run.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const dirWith = (config: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return dir;
};

describe('the config file schema', () => {
  it('matches the committed schemas/svc.config.schema.json (npm run build regenerates it)', () => {
    const committed = JSON.parse(
      readFileSync(new URL('../../../schemas/svc.config.schema.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(createConfigJsonSchema());
  });

  it('accepts what init writes and refuses a bad URL', () => {
    expect(checkConfigValues({ version: 1, role: 'integrator' }).problems).toEqual([]);
    expect(checkConfigValues({ version: 1, channelUrl: 'x' }).problems).toHaveLength(1);
    expect(checkConfigValues({ version: 2 }).problems).toHaveLength(1);
  });

  it('suggests the closest key', () => {
    expect(checkConfigValues({ version: 1, chanelUrl: 'x' }).unknown).toEqual([
      { key: 'chanelUrl', near: 'channelUrl' },
    ]);
    expect(checkConfigValues({ version: 1, zzzzzzzzzz: 1 }).unknown).toEqual([
      { key: 'zzzzzzzzzz', near: undefined },
    ]);
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

  it('locates a JSON syntax error by line and column, as an editor shows it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
    writeFileSync(join(dir, 'svc.config.json'), '{\n  "version": 1,\n  "port": 9000,,\n}\n');
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['config', 'listen'])).toBe(2);
    expect(t.stderr()).toContain('not JSON at line 3, column 16');
    expect(t.stderr()).not.toMatch(/position \d+/);
  });

  it('a --config path that is missing, and an empty file, each say what to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-config-'));
    const missing = createTestContext({ cwd: dir });
    expect(await runInProcess(missing, ['--config', 'nope.json', 'config'])).toBe(2);
    expect(missing.stderr()).toContain('no such file or folder');
    expect(missing.stderr()).toContain(`Check the path (a relative path is read from ${dir})`);
    expect(missing.stderr()).not.toContain('It is JSON');
    writeFileSync(join(dir, 'svc.config.json'), '\n');
    const empty = createTestContext({ cwd: dir });
    expect(await runInProcess(empty, ['config'])).toBe(2);
    expect(empty.stderr()).toContain(`${join(dir, 'svc.config.json')}: it is empty.`);
    expect(empty.stderr()).toContain('Write {"version": 1} and the options to set');
    expect(empty.stderr()).not.toContain('Unexpected end of JSON input');
  });

  it('takes a two-word command typed as it runs (config record to-fixture), not quoted', async () => {
    const dir = dirWith({
      version: 1,
      commands: { 'record to-fixture': { peerFailures: 'drop' } },
    });
    const t = createTestContext({ cwd: dir });
    const code = await runInProcess(t, ['config', 'record', 'to-fixture', '--name', 'x']);
    expect(t.stderr()).toContain('"peerFailures" in commands.record to-fixture is --peer-failures');
    expect(t.stderr()).not.toContain('SVC_E_UNKNOWN_COMMAND');
    expect(code).toBe(0);
    expect(t.stdout()).toContain('(with commands.record to-fixture)');
    expect(t.stdout()).toMatch(/name\s+"x"\s+flag/);
  });

  it('names the subcommands of a parent word given alone (config record)', async () => {
    const t = createTestContext({ cwd: mkdtempSync(join(tmpdir(), 'svc-config-')) });
    expect(await runInProcess(t, ['config', 'record'])).toBe(2);
    expect(t.stderr()).toContain(
      'Could not show the options of "record": no command of that name reads options. Did you mean record to-fixture, record diff or record profile?',
    );
  });

  it('exits 2 on an invalid value and marks it', async () => {
    const dir = dirWith({ version: 1, port: 'soon' });
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['config', 'listen'])).toBe(2);
    expect(t.stdout()).toMatch(/port\s+"soon"\s+file .* ✗ must be a number/);
  });
});

describe('svc-cli config rows on a colour terminal', () => {
  it('lines up an unset value with the others and ends at the source', async () => {
    const { Chalk } = await import('chalk');
    const { formatConfigRow } = await import('../../../src/cli/render/config.js');
    const c = new Chalk({ level: 1 });
    // eslint-disable-next-line no-control-regex
    const plain = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '');
    const unset = plain(formatConfigRow({ type: 'config', key: 'cert', source: 'default' }, c));
    const set = plain(
      formatConfigRow({ type: 'config', key: 'port', value: 9000, source: 'flag' }, c),
    );
    expect(unset.indexOf('default')).toBe(set.indexOf('flag'));
    expect(set).toBe(set.trimEnd());
  });
});

describe('svc-cli config without a command', () => {
  it("warns of every command section's unknown and flag-only keys, as doctor does", async () => {
    const dir = dirWith({
      version: 1,
      commands: { conform: { reprot: 'junit' }, load: { url: 'http://127.0.0.1:1' } },
    });
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['config'])).toBe(0);
    expect(t.stderr()).toContain('unknown key "commands.conform.reprot" is ignored');
    expect(t.stderr()).toContain('"url" in commands.load is --url, a flag only');
  });
});

describe('a global flag only, or a flag only written as its flag in camelCase', () => {
  it('is named as the flag, not taken for a typo of another key', async () => {
    const dir = dirWith({
      version: 1,
      color: false,
      noColor: true,
      config: 'other.json',
      commands: { proxy: { noInvariant: ['transcript'] } },
    });
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['config', 'proxy'])).toBe(0);
    const lines = t
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('warning:'))
      .map((line) => line.replace(/^warning: [^:]+: /, ''));
    expect(lines).toEqual([
      '"color" in the top level is --no-color, a flag only: the config file cannot set it; it is ignored. Give --no-color on the command line.',
      '"noColor" in the top level is --no-color, a flag only: the config file cannot set it; it is ignored. Give --no-color on the command line.',
      '"config" in the top level is --config, a flag only: the config file cannot set it; it is ignored. Give --config on the command line.',
      '"noInvariant" in commands.proxy is --no-invariant, a flag only: the config file cannot set it; it is ignored. Give --no-invariant on the command line.',
    ]);
  });
});

describe('a commands section that is no object', () => {
  it('is said to be ignored, not dropped without a word', async () => {
    const t = createTestContext({ cwd: dirWith({ version: 1, commands: { listen: 9000 } }) });
    expect(await runInProcess(t, ['config', 'listen'])).toBe(0);
    expect(t.stderr()).toContain(
      'commands.listen is the number 9000, not an object of listen\'s options: it is ignored. Write "commands": {"listen": {"port": ...}}.',
    );
    const list = createTestContext({ cwd: dirWith({ version: 1, commands: [] }) });
    expect(await runInProcess(list, ['config'])).toBe(0);
    expect(list.stderr()).toContain('"commands" is a JSON array, not an object of sections');
  });
});

describe('init, which reads no config file and no SVC_* variable', () => {
  it('names no variable in its help, and config init says it reads only flags', async () => {
    const help = createTestContext({ cwd: tmpdir() });
    await runInProcess(help, ['init', '--help']).catch(() => undefined);
    expect(help.stdout()).toContain('--channel-url <url>');
    expect(help.stdout()).not.toContain('env SVC_');
    const dir = dirWith({ version: 1, channelUrl: 'https://svc.test/s3cr3t/ch-1' });
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['config', 'init'])).toBe(0);
    expect(t.stdout()).toContain('init reads no config file and no SVC_* variable');
    expect(t.stdout()).not.toContain('no config file (');
    expect(t.stdout()).not.toContain('env SVC_');
  });
});
