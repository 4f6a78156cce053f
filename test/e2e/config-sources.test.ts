/**
 * End to end: values in svc.config.json and SVC_* reach every command that declares them
 * (a regression guard: platform once ignored hookUrl and botProviderUrl, and conform hooks
 * ignored SVC_HOOK_URL), and a typo in the file is named with its closest key.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, runCli } from '../helpers/run-cli.js';

const dirWith = (config: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-config-'));
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return dir;
};

/** Runs a serving command until its banner shows `until`, then stops it (SIGINT). */
function bannerOf(args: string[], cwd: string, until: RegExp): Promise<[string, string]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (until.test(out)) child.kill('SIGINT');
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('close', () => resolve([out, err]));
  });
}

describe('config file and environment reach every command', () => {
  it('platform attaches the hooks and the bot named in svc.config.json', async () => {
    const cwd = dirWith({
      version: 1,
      hookUrl: 'http://127.0.0.1:9/hooks',
      botProviderUrl: 'http://127.0.0.1:9/bot',
      botToken: 'file-token',
      integratorUrl: 'http://127.0.0.1:9/agent-messages',
      prot: 1,
    });
    const [out, err] = await bannerOf(['platform', '--no-console'], cwd, /hooks\s+->.*\n/);
    expect(out).toMatch(/hooks\s+-> http:\/\/127\.0\.0\.1:9\/hooks/);
    expect(out).toContain('bot events -> http://127.0.0.1:9/bot/<token>');
    expect(err).toContain('unknown key "prot" is ignored. Did you mean "port"?');
  });

  it('svc-cli config platform lists them with their source', async () => {
    const cwd = dirWith({ version: 1, hookUrl: 'http://127.0.0.1:9/hooks' });
    const r = await runCli(['config', 'platform'], {
      cwd,
      env: { SVC_BOT_PROVIDER_URL: 'http://127.0.0.1:9/bot' },
    });
    expect(r.code).toBe(0);
    // the file has no commands.platform section: the header does not claim one
    expect(r.stdout).toMatch(/^config file \S+svc\.config\.json$/m);
    expect(r.stdout).toMatch(/^hookUrl +"http:\/\/127\.0\.0\.1:9\/hooks" +file /m);
    expect(r.stdout).toMatch(
      /^botProviderUrl +"http:\/\/127\.0\.0\.1:9\/bot" +env +SVC_BOT_PROVIDER_URL$/m,
    );
  });

  it('conform hooks takes its URL from SVC_HOOK_URL', async () => {
    const cwd = dirWith({ version: 1 });
    // nothing listens on port 9: the run gets as far as calling the URL it was given
    const r = await runCli(['conform', 'hooks'], {
      cwd,
      env: { SVC_HOOK_URL: 'http://127.0.0.1:9/hooks' },
    });
    expect(r.stderr + r.stdout).toContain('127.0.0.1:9');
    expect(r.stderr).not.toContain('--url is required');
    expect(r.code).toBe(3);
  });

  it('an out-of-range value names the flag and the source', async () => {
    const cwd = dirWith({ version: 1, commands: { listen: { faultRate: 2 } } });
    const r = await runCli(['listen'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      `Could not use --fault-rate (from "faultRate" in ${join(cwd, 'svc.config.json')}) 2: must be at most 1.`,
    );
    const rate = await runCli(['listen', '--fault-rate', '0.5'], { cwd: dirWith({ version: 1 }) });
    expect(rate.code).toBe(2);
    expect(rate.stderr).toContain('no --fault is given');
  });
});
