import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const cwd = process.cwd();

async function help(args: string[]): Promise<string> {
  const t = createTestContext({ cwd });
  expect(await runInProcess(t, ['conform', ...args, '--help'])).toBe(0);
  return t.stdout();
}

/** The long flags a help text lists at the start of a line. */
const flagsOf = (text: string): string[] =>
  [...text.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1] as string);

describe('conform <suite> --help shows that suite (newcomer pass)', () => {
  it('conform --help lists every suite, its flags and examples', async () => {
    const text = await help([]);
    const flags = flagsOf(text);
    for (const flag of ['--url', '--channel-url', '--token', '--hook-url', '--fuzz', '--channel'])
      expect(flags).toContain(flag);
    for (const suite of ['integrator', 'hooks', 'platform', 'bot'])
      expect(text).toMatch(new RegExp(`^  ${suite} +we play`, 'm'));
    expect(text).not.toContain('Every suite and its flags');
  });

  it('conform platform --help lists only what the platform suite reads', async () => {
    const text = await help(['platform']);
    const flags = flagsOf(text);
    expect(flags).toEqual(
      expect.arrayContaining([
        '--reporter',
        '--out',
        '--channel-url',
        '--integrator-listen-port',
        '--tolerance',
      ]),
    );
    for (const other of ['--url', '--token', '--hook-url', '--fuzz', '--seed', '--channel'])
      expect(flags).not.toContain(other);
    expect(text).toMatch(/^Suite:\n {2}platform +we play the integrator/m);
    expect(text).not.toMatch(/^ {2}bot +we play/m);
    expect(text).not.toContain('Fuzz (hooks, integrator, bot)');
    const examples = text.split('Examples:\n')[1]?.split('\n\n')[0] ?? '';
    expect(examples).toContain('conform platform --channel-url');
    expect(examples).not.toMatch(/conform (bot|hooks|integrator)/);
    expect(text.trimEnd().endsWith('Every suite and its flags: svc-cli conform --help')).toBe(true);
  });

  it('conform bot --help keeps --url and the fuzz flags, not the platform suite', async () => {
    const flags = flagsOf(await help(['bot']));
    for (const flag of ['--url', '--token', '--script', '--fuzz', '--replay-failures'])
      expect(flags).toContain(flag);
    for (const other of ['--channel-url', '--hook-url', '--tolerance'])
      expect(flags).not.toContain(other);
  });
});

describe('conform platform with --url', () => {
  it('says the suite reads --channel-url and shows the command with it (exit 2)', async () => {
    const t = createTestContext({ cwd });
    expect(
      await runInProcess(t, ['conform', 'platform', '--url', 'http://127.0.0.1:1/s/shop']),
    ).toBe(2);
    expect(t.stderr()).toContain(
      'Could not run conform platform: it reads the channel URL from --channel-url, not --url (spec 4.1).',
    );
    expect(t.stderr()).toContain(
      'svc-cli conform platform --channel-url http://127.0.0.1:1/***/shop',
    );
  });

  it('conform platform with both --url and --channel-url says --url is not its flag', async () => {
    const t = createTestContext({ cwd });
    expect(
      await runInProcess(t, [
        'conform',
        'platform',
        '--channel-url',
        'http://127.0.0.1:1/s/shop',
        '--url',
        'http://127.0.0.1:2',
      ]),
    ).toBe(2);
    expect(t.stderr()).toContain(
      'it takes no --url (http://127.0.0.1:2); it tests the channel URL given with --channel-url (spec 4.1). Drop --url.',
    );
  });
});

describe('a flag of another suite (newcomer pass: it was silently ignored)', () => {
  it.each([
    [
      ['integrator', '--url', 'http://127.0.0.1:1', '--channel-url', 'http://127.0.0.1:1/s/shop'],
      '--channel-url is a flag of conform platform, which conform integrator does not read.',
    ],
    [
      ['hooks', '--url', 'http://127.0.0.1:1/h', '--token', 't0k'],
      '--token is a flag of conform bot, which conform hooks does not read.',
    ],
    [
      ['platform', '--channel-url', 'http://127.0.0.1:1/s/shop', '--seed', '7'],
      '--seed is a flag of conform hooks, conform integrator and conform bot, which conform platform does not read (fuzzing',
    ],
  ])('conform %j: exit 2, and where the flag belongs', async (args, message) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['conform', ...args])).toBe(2);
    expect(t.stderr()).toContain(message);
    expect(t.stderr()).toContain(
      `The flags conform ${args[0]} reads: svc-cli conform ${args[0]} --help`,
    );
  });

  it('a mistyped flag of another suite gets its suggestion', async () => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['conform', 'integrator', '--chanel-url', 'http://x'])).toBe(2);
    expect(t.stderr()).toContain('(Did you mean --channel-url?)');
  });

  it('the same flag in a config file is not an error: the file serves every suite', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-config-'));
    writeFileSync(
      join(dir, 'svc.config.json'),
      JSON.stringify({ version: 1, token: 't0k', channelUrl: 'http://127.0.0.1:1/s/shop' }),
    );
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['conform', 'hooks', '--url', 'http://127.0.0.1:1/h'])).toBe(3);
    expect(t.stderr()).not.toContain('is a flag of');
  });
});
