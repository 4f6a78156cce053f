import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conformOptions, suitesReading } from '../../../src/cli/commands/conform-options.js';
import { botProviderNote } from '../../../src/cli/commands/conform-run.js';
import type { OptionSpec } from '../../../src/cli/options/table.js';
import { CONFORM_BOT } from '../../../src/conversation/conform/index.js';
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
    // --token and --provider-id name conform's bot of --bot-listen-port, as the bot suite's
    for (const own of ['--token', '--provider-id', '--bot-listen-port', '--bot-api-url'])
      expect(flags).toContain(own);
    for (const other of ['--url', '--hook-url', '--fuzz', '--seed', '--channel', '--script'])
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
      '--token is a flag of conform platform and conform bot, which conform hooks does not read.',
    ],
    [
      ['bot', '--url', 'http://127.0.0.1:1', '--token', 't0k', '--bot-api-url', 'http://x.test'],
      '--bot-api-url is a flag of conform platform, which conform bot does not read.',
    ],
    [
      ['platform', '--channel-url', 'http://127.0.0.1:1/s/shop', '--seed', '7'],
      '--seed is a flag of conform hooks, conform integrator and conform bot, which conform platform does not read (fuzzing',
    ],
    [
      ['bot', '--url', 'http://127.0.0.1:1', '--token', 't', '--fuzz', '5', '--fuzz-stateful'],
      '--fuzz-stateful is a flag of conform hooks and conform integrator, which conform bot does not read.',
    ],
    [
      ['bot', '--url', 'http://127.0.0.1:1', '--token', 't', '--fuzz', '5', '--fuzz-changes', '3'],
      '--fuzz-changes is a flag of conform hooks and conform integrator, which conform bot does not read.',
    ],
  ])('conform %j: exit 2, and where the flag belongs', async (args, message) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['conform', ...args])).toBe(2);
    expect(t.stderr()).toContain(message);
    expect(t.stderr()).toContain(
      `The flags conform ${args[0]} reads: svc-cli conform ${args[0]} --help`,
    );
  });

  const SUITES = ['integrator', 'hooks', 'platform', 'bot'];
  const options = conformOptions.options as readonly OptionSpec[];
  const longOf = (spec: OptionSpec): string => /--[\w-]+/.exec(spec.flag)?.[0] ?? spec.flag;
  /** The suites a flag's help names: its description's labels, else its group heading's. */
  const suitesLabelled = (spec: OptionSpec): string[] | undefined => {
    const suite = `(?:${SUITES.join('|')})`;
    const label = new RegExp(`(?:^|; )(${suite}(?:, ${suite})*)(?:, with [^:;]+)?:`, 'g');
    const named = [...spec.description.matchAll(label)].flatMap((m) => m[1]!.split(', '));
    if (named.length > 0) return named;
    const heading = /^(\w+):$|\(([^)]+)\):$/.exec(spec.group ?? '');
    return heading ? (heading[1] ?? heading[2]!).split(', ') : undefined;
  };

  it('the suites a flag is labelled with in --help are the suites that read it', () => {
    const differ = options
      .map((spec) => ({
        flag: longOf(spec),
        labelled: suitesLabelled(spec)?.sort(),
        read: suitesReading(longOf(spec), spec.group)?.slice().sort(),
      }))
      // --url names its suites in prose: "integrator_url (spec 4.2), hook URL ..."
      .filter((f) => f.labelled !== undefined && String(f.labelled) !== String(f.read));
    expect(differ).toEqual([]);
  });

  const valueOf = (spec: OptionSpec): string[] => {
    switch (spec.type) {
      case 'boolean':
        return [];
      case 'int':
      case 'number':
        return ['1'];
      case 'url':
        return ['http://127.0.0.1:1/x'];
      case 'choice':
        return [spec.choices[0]!];
      case 'host':
        return ['127.0.0.1'];
      case 'fault':
        return ['reset'];
      // an invariant's name serves --no-invariant and any string
      case 'list':
      case 'path':
      case 'string':
        return ['transcript'];
    }
  };
  const BASE: Record<string, string[]> = {
    integrator: ['--url', 'http://127.0.0.1:1'],
    hooks: ['--url', 'http://127.0.0.1:1/h'],
    platform: ['--channel-url', 'http://127.0.0.1:1/s/shop'],
    bot: ['--url', 'http://127.0.0.1:1', '--token', 't'],
  };
  const foreign = options.flatMap((spec) => {
    const read = suitesReading(longOf(spec), spec.group);
    return SUITES.filter(
      (suite) => read && !read.includes(suite) && !BASE[suite]!.includes(longOf(spec)),
    ).map((suite) => [suite, longOf(spec), valueOf(spec)] as const);
  });

  it.each(foreign)('conform %s %s (not its flag): exit 2', async (suite, flag, value) => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['conform', suite, ...BASE[suite]!, flag, ...value])).toBe(2);
    if (!(suite === 'platform' && flag === '--url'))
      expect(t.stderr()).toContain(`${flag} is a flag of conform `);
  });

  it('a mistyped flag of another suite gets its suggestion', async () => {
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['conform', 'integrator', '--chanel-url', 'http://x'])).toBe(2);
    expect(t.stderr()).toContain('(Did you mean --channel-url?)');
  });

  it("a mistyped flag is suggested from the suite's own flags first", async () => {
    // --report is every suite's, --record conform platform's alone: both a step from --recrd
    const t = createTestContext({ cwd });
    expect(await runInProcess(t, ['conform', 'hooks', '--url', 'http://x/h', '--recrd', 'x'])).toBe(
      2,
    );
    expect(t.stderr()).toContain("unknown option '--recrd'\n(Did you mean --report?)");
    expect(t.stderr().match(/Did you mean/g)).toHaveLength(1);
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

describe("conform platform: the flags of conform's bot need --bot-listen-port", () => {
  it.each([
    [['--bot-api-url', 'https://bots.example.com'], '--bot-api-url'],
    [['--token', 'my-bot-token'], '--token'],
    [['--provider-id', 'acme'], '--provider-id'],
  ])('%j without --bot-listen-port: exit 2, and why', async (args, flag) => {
    const t = createTestContext({ cwd });
    const argv = ['conform', 'platform', '--channel-url', 'http://127.0.0.1:1/s/shop', ...args];
    expect(await runInProcess(t, argv)).toBe(2);
    expect(t.stderr()).toContain(
      `Could not use ${flag}: conform platform reads it for the bot --bot-listen-port serves, and no --bot-listen-port is given.`,
    );
    expect(t.stderr()).toContain('--bot-listen-port 9300');
    // the token given is not echoed back
    expect(t.stderr()).not.toContain('my-bot-token');
  });

  it("the token and provider id in a config file are conform bot's too: not an error", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-conform-config-'));
    writeFileSync(
      join(dir, 'svc.config.json'),
      JSON.stringify({ version: 1, token: 't0k', providerId: 'acme' }),
    );
    const t = createTestContext({ cwd: dir });
    const argv = ['conform', 'platform', '--channel-url', 'http://127.0.0.1:1/s/shop'];
    expect(await runInProcess(t, argv)).toBe(3);
    expect(t.stderr()).not.toContain('Could not use');
  });
});

describe("conform platform --bot-listen-port: the line that says how to attach conform's bot", () => {
  const bot = {
    url: 'http://127.0.0.1:9300',
    token: 'my-bot-token',
    providerId: 'acme',
    apiUrl: 'https://bots.example.com',
  };

  it('names the provider id and where the bot posts; a given token is redacted (spec 5.2)', () => {
    const line = botProviderNote(bot, false);
    expect(line).toBe(
      "bot provider listening at http://127.0.0.1:9300: attach it to the platform's channel (svc-cli platform --bot-provider-url http://127.0.0.1:9300 --bot-token <token> --provider-id acme); it posts INVITE_AGENT to https://bots.example.com/webhooks/acme/<token> (--bot-api-url sets it); the token is redacted (--show-secrets prints it)",
    );
    expect(botProviderNote(bot, true)).toContain('--bot-token my-bot-token --provider-id acme)');
  });

  it("prints the default token, which an svc simulator's command needs and hides nothing", () => {
    const line = botProviderNote({ ...bot, ...CONFORM_BOT }, false);
    expect(line).toContain('--bot-token svc-conform-bot --provider-id svc-conform)');
    expect(line).not.toContain('redacted');
  });
});
