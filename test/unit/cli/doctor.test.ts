import { createServer, type Server } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkNodeVersion } from '../../../src/cli/commands/doctor-run.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';
import { freePort } from '../../helpers/free-port.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

/** A fake platform + integrator on 127.0.0.1 port 0: status answers 1, anything else 200. */
async function startFake(statusBody = '1'): Promise<string> {
  const server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(req.url?.endsWith('/status') ? statusBody : 'ok');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nobody listens on: bound, then closed. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  await new Promise((r) => server.close(r));
  return `http://127.0.0.1:${port}`;
}

const dirWith = (config: unknown): string => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-doctor-'));
  writeFileSync(join(dir, 'svc.config.json'), JSON.stringify(config));
  return dir;
};

describe('svc-cli doctor', () => {
  it.each([
    ['20.19.0', true],
    ['20.18.9', false],
    ['22.1.0', true],
    ['18.20.0', false],
  ])('Node %s ok: %s', (version, ok) => {
    expect(checkNodeVersion(version).status).toBe(ok ? 'pass' : 'fail');
  });

  it('in the single binary, says the Node is built in', () => {
    expect(checkNodeVersion('20.20.2', true).detail).toBe(
      'Node 20.20.2, built into this single binary (no node on the PATH is needed)',
    );
  });

  it('all good: ✓ per check, exit 0, the channel random string redacted', async () => {
    const base = await startFake();
    const dir = dirWith({
      version: 1,
      channelUrl: `${base}/s3cr3t/ch-1`,
      integratorUrl: `${base}/agent`,
    });
    const t = createTestContext({ cwd: dir });
    // the fake answers at once; 1 s was too short for a machine shared with other work
    expect(await runInProcess(t, ['doctor', '--timeout', '30000'])).toBe(0);
    const out = t.stdout();
    expect(out).toMatch(/✓ node +Node \d+/);
    expect(out).toContain('✓ config');
    expect(out).toContain(`✓ channel      ${base}/***/ch-1/status answers 1 (online)`);
    expect(out).toContain(`✓ integrator   ${base}/agent answers (HTTP 200)`);
    expect(out).not.toContain('s3cr3t');
  });

  it('an unreachable URL: ✗ and exit 3', async () => {
    const dead = await closedPort();
    const t = createTestContext({ cwd: dirWith({ version: 1 }), env: { SVC_HOOK_URL: dead } });
    expect(await runInProcess(t, ['doctor', '--timeout', '1000'])).toBe(3);
    expect(t.stdout()).toContain(`✗ hook         ${dead}: could not connect (ECONNREFUSED)`);
    expect(t.stdout()).toContain('check the URL and that your hook receiver is up');
  });

  it('a peer that takes the request and never answers: no answer in time, not "could not connect"', async () => {
    const server = createServer(() => undefined); // never answers
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/bot`;
    const t = createTestContext({
      cwd: dirWith({ version: 1 }),
      env: { SVC_BOT_PROVIDER_URL: url },
    });
    expect(await runInProcess(t, ['doctor', '--timeout', '200'])).toBe(3);
    expect(t.stdout()).toContain(
      `${url}: no answer within 200 ms; check that your bot provider answers requests`,
    );
  });

  it('a URL flag that is not a URL fails once, without a "no URL configured" warning', async () => {
    const t = createTestContext({ cwd: dirWith({ version: 1 }) });
    expect(await runInProcess(t, ['doctor', '--integrator-url', 'notaurl'])).toBe(1);
    expect(t.stdout()).toContain('✗ integrator   integratorUrl "notaurl" is not a URL');
    expect(t.stdout()).not.toContain('no URL configured');
  });

  it('an invalid config file: ✗ and exit 1; unknown keys get a suggestion', async () => {
    const t = createTestContext({
      cwd: dirWith({ version: 1, channelUrl: 'not-a-url', senderID: 'x' }),
    });
    expect(await runInProcess(t, ['--json', 'doctor'])).toBe(1);
    const checks = t
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(checks).toContainEqual(
      expect.objectContaining({
        name: 'config',
        status: 'fail',
        detail: expect.stringContaining('channelUrl: must be an http(s) URL'),
      }),
    );
    expect(checks).toContainEqual({
      type: 'check',
      name: 'config',
      status: 'warn',
      detail: 'unknown key "senderID" is ignored. Did you mean "senderId"?',
    });
  });

  /** The details of the checks `doctor --json` warned of. */
  const warnings = (t: ReturnType<typeof createTestContext>): (string | undefined)[] =>
    t
      .stdout()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { status?: string; detail?: string })
      .filter((c) => c.status === 'warn')
      .map((c) => c.detail);

  it("warns of the commands section's typos, as each command does", async () => {
    const t = createTestContext({
      cwd: dirWith({ version: 1, commands: { lisen: { port: 1 }, 'send-text': { bogus: 1 } } }),
    });
    expect(await runInProcess(t, ['--json', 'doctor'])).toBe(0);
    const details = warnings(t);
    expect(details).toContain(
      'commands.lisen names no command with options. Did you mean "listen"?',
    );
    expect(details).toContainEqual(
      expect.stringContaining(
        'unknown key "commands.send-text.bogus" is ignored: not an option of send-text',
      ),
    );
  });

  it('names a global flag only at the top level as the flag, as each command does', async () => {
    const t = createTestContext({ cwd: dirWith({ version: 1, color: false, config: 'x.json' }) });
    expect(await runInProcess(t, ['--json', 'doctor'])).toBe(0);
    const details = warnings(t);
    expect(details).toContain(
      '"color" in the top level is --no-color, a flag only: the config file cannot set it; it is ignored. Give --no-color on the command line.',
    );
    expect(details).toContain(
      '"config" in the top level is --config, a flag only: the config file cannot set it; it is ignored. Give --config on the command line.',
    );
  });

  it('a channel status other than 0/1 fails the check (exit 1)', async () => {
    const base = await startFake('maybe');
    const t = createTestContext({ cwd: dirWith({ version: 1, channelUrl: `${base}/r/ch` }) });
    expect(await runInProcess(t, ['doctor'])).toBe(1);
    expect(t.stdout()).toContain('✗ channel');
  });

  it('an unreachable channel ends with what to look at, as the other URLs do', async () => {
    const port = await freePort(); // nothing listens there
    const t = createTestContext({
      cwd: dirWith({ version: 1, channelUrl: `http://127.0.0.1:${port}/r/ch` }),
    });
    expect(await runInProcess(t, ['doctor'])).toBe(3);
    expect(t.stdout()).toMatch(
      /✗ channel .*connection refused \(127\.0\.0\.1:\d+\)\. Check --channel-url and that the platform is up\./,
    );
  });
});

describe('svc-cli doctor: the active profile', () => {
  it('shows the profile platform and replay follow, and where it came from', async () => {
    const t = createTestContext({ cwd: dirWith({ version: 1 }), env: { SVC_PROFILE: 'docs' } });
    await runInProcess(t, ['doctor']);
    expect(t.stdout()).toContain(
      '✓ profile      docs (from env): channel 3 attempts 3000 ms apart, 3000 ms each, replies read by status class; bot 3 attempts 3000 ms apart, 3000 ms each, hand-over at 9000 ms, events docs; hook events docs; keep-alive 65 s; setClientAttributes 10/h',
    );
    const bad = createTestContext({ cwd: dirWith({ version: 1 }) });
    expect(await runInProcess(bad, ['doctor', '--profile', 'missing.json'])).toBe(1);
    expect(bad.stdout()).toContain('Could not read the profile missing.json');
  });
});
