import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkConfigValues } from '../../../src/cli/options/resolve.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'svc-init-'));
const readConfig = (dir: string): unknown =>
  JSON.parse(readFileSync(join(dir, 'svc.config.json'), 'utf8'));
const DOWN = '\u001b[B';
const ENTER = '\r';

describe('svc-cli init, interactive (prompts through injected streams)', () => {
  it('asks the role, then that role’s URLs, and writes a valid file', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir, tty: true });
    const running = runInProcess(t, ['init']);
    await t.waitForOutput('Which part do you play?');
    t.stdin.write(DOWN); // integrator -> bot provider
    t.stdin.write(ENTER);
    await t.waitForOutput('Your bot provider endpoint');
    t.stdin.write('\u0015'); // clear the default (Ctrl-U) then type a bad URL
    t.stdin.write(`not a url${ENTER}`);
    await t.waitForOutput('must be an http(s) URL');
    t.stdin.write('\u0015');
    // typed without its scheme: the answer shows it with one
    t.stdin.write(`bot.example/hook${ENTER}`);
    await t.waitForOutput('must start with http:// or https://, e.g. "http://bot.example/hook"');
    t.stdin.write('\u0015');
    t.stdin.write(`https://bot.example/hook${ENTER}`);
    await t.waitForOutput('The channel URL');
    t.stdin.write(ENTER); // empty: none yet
    expect(await running).toBe(0);
    const config = readConfig(dir);
    expect(config).toEqual({
      $schema: expect.stringMatching(/schemas\/svc\.config\.schema\.json$/),
      version: 1,
      role: 'bot-provider',
      botProviderUrl: 'https://bot.example/hook',
    });
    // the $schema resolves from the project (here: this svc-cli's own file)
    expect(existsSync(resolve(dir, (config as { $schema: string }).$schema))).toBe(true);
    expect(checkConfigValues(config as Record<string, unknown>).problems).toEqual([]);
    expect(t.stdout()).toContain('wrote svc.config.json for the role bot-provider');
  });

  it('a hook receiver is asked its hook URL alone, nothing of the other roles', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir, tty: true });
    const running = runInProcess(t, ['init']);
    await t.waitForOutput('Which part do you play?');
    t.stdin.write(`${DOWN}${DOWN}${ENTER}`); // integrator -> bot provider -> hook receiver
    await t.waitForOutput('Your event-hook receiver URL');
    t.stdin.write('\u0015');
    t.stdin.write(`https://crm.example/hooks${ENTER}`);
    expect(await running).toBe(0);
    expect(readConfig(dir)).toEqual({
      $schema: expect.any(String) as unknown,
      version: 1,
      role: 'hook-receiver',
      hookUrl: 'https://crm.example/hooks',
    });
    for (const other of ['The channel URL', 'customer id', 'bot provider endpoint', 'widget'])
      expect(t.stdout()).not.toContain(other);
  });

  it('--role answers the role question: only that role’s are asked', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir, tty: true });
    const running = runInProcess(t, ['init', '--role', 'hook-receiver']);
    await t.waitForOutput('Your event-hook receiver URL');
    t.stdin.write(ENTER); // the local default
    expect(await running).toBe(0);
    expect(t.stdout()).not.toContain('Which part do you play?');
    expect(readConfig(dir)).toMatchObject({
      role: 'hook-receiver',
      hookUrl: 'http://127.0.0.1:9200/hooks',
    });
  });

  it('asks before overwriting an existing file; no keeps it (exit 2)', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'svc.config.json'), '{"version":1}');
    const t = createTestContext({ cwd: dir, tty: true });
    const running = runInProcess(t, ['init']);
    await t.waitForOutput('Overwrite it?');
    t.stdin.write(`n${ENTER}`);
    expect(await running).toBe(2);
    expect(readFileSync(join(dir, 'svc.config.json'), 'utf8')).toBe('{"version":1}');
    expect(t.stderr()).toContain('SVC_E_CONFIG_EXISTS');
  });
});

describe('svc-cli init, non-interactive', () => {
  it('without a TTY never prompts: flags and defaults, and says so', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir });
    const code = await runInProcess(t, [
      'init',
      '--role',
      'platform-qa',
      '--channel-url',
      'https://svc.example/r4nd0m/ch-1',
    ]);
    expect(code).toBe(0);
    expect(t.stderr()).toContain(
      'init: not asking (no TTY on stdin); using the flags and defaults',
    );
    expect(readConfig(dir)).toMatchObject({
      role: 'platform-qa',
      channelUrl: 'https://svc.example/r4nd0m/ch-1',
      senderId: 'customer-1',
      integratorUrl: 'http://127.0.0.1:9000',
    });
  });

  it('a bot provider’s next step names the --bot-token the platform needs', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['init', '--role', 'bot-provider'])).toBe(0);
    expect(t.stdout()).toContain(
      'next: svc-cli platform --bot-token <token>   # your bot’s token (spec 5.2): events go to <botProviderUrl>/<token>',
    );
  });

  it('--yes on a TTY does not prompt either', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir, tty: true });
    expect(await runInProcess(t, ['init', '--yes', '--role', 'hook-receiver'])).toBe(0);
    expect(t.stderr()).toContain('not asking (--yes)');
    expect(readConfig(dir)).toMatchObject({ hookUrl: 'http://127.0.0.1:9200/hooks' });
  });

  it('refuses a bad URL flag (exit 2) and an existing file without --force', async () => {
    const dir = freshDir();
    const t = createTestContext({ cwd: dir });
    expect(await runInProcess(t, ['init', '--integrator-url', 'ftp://x'])).toBe(2);
    expect(existsSync(join(dir, 'svc.config.json'))).toBe(false);
    expect(await runInProcess(createTestContext({ cwd: dir }), ['init'])).toBe(0);
    const again = createTestContext({ cwd: dir });
    expect(await runInProcess(again, ['init'])).toBe(2);
    expect(again.stderr()).toContain('Pass --force to overwrite it');
    expect(await runInProcess(createTestContext({ cwd: dir }), ['init', '--force'])).toBe(0);
  });
});
