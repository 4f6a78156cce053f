/** The built CLI, spawned: init --yes, config, completion bash, doctor, chat over stdin. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFakePlatform } from '../helpers/fake-platform.js';
import { freePort } from '../helpers/free-port.js';
import { runCli } from '../helpers/run-cli.js';

const freshDir = () => mkdtempSync(join(tmpdir(), 'svc-e2e-'));

describe('svc-cli init / config / doctor (e2e)', () => {
  it('init --yes writes the file, config shows where values came from, doctor checks them', async () => {
    const cwd = freshDir();
    const init = await runCli(['init', '--yes', '--role', 'integrator'], { cwd });
    expect(init).toMatchObject({ code: 0 });
    expect(init.stderr).toContain('init: not asking (--yes); using the flags and defaults');
    expect(init.stdout).toContain('✓ wrote svc.config.json for the role integrator');
    const written = JSON.parse(readFileSync(join(cwd, 'svc.config.json'), 'utf8')) as {
      $schema: string;
    };
    expect(written).toMatchObject({ version: 1, role: 'integrator' });
    // without svc-cli in the project, $schema points at this svc-cli's own file
    expect(existsSync(resolve(cwd, written.$schema))).toBe(true);

    const config = await runCli(['config', 'listen', '--port', '9100'], {
      cwd,
      env: { SVC_HOST: '127.0.0.2' },
    });
    expect(config.code).toBe(0);
    expect(config.stdout).toMatch(/^host +"127\.0\.0\.2" +env +SVC_HOST$/m);
    expect(config.stdout).toMatch(/^port +9100 +flag$/m);
    expect(config.stdout).toMatch(/^bodyLimit +1048576 +default$/m);
    const whole = await runCli(['config'], { cwd });
    expect(whole.stdout).toMatch(/^role +"integrator" +file +\S+svc\.config\.json$/m);
    // right after init: what the file sets, no command's required keys as errors (exit 0)
    expect(whole.code).toBe(0);
    expect(whole.stdout).not.toContain('is required');
    expect(whole.stdout).toMatch(/^\d+ more keys at their defaults; .*svc-cli config listen\)$/m);

    // integratorUrl from init points at 127.0.0.1:9000: probably nothing listens there
    const doctor = await runCli(['doctor', '--timeout', '500'], { cwd });
    expect([0, 3]).toContain(doctor.code);
    expect(doctor.stdout).toMatch(/^✓ node /m);
    expect(doctor.stdout).toMatch(/^✓ config +\S+svc\.config\.json is valid$/m);
    expect(doctor.stdout).toMatch(/^[✓✗] integrator +http:\/\/127\.0\.0\.1:9000/m);
    expect(doctor.stderr).toBe('');
  });

  it('init without a TTY refuses to overwrite (exit 2, hint on stderr)', async () => {
    const cwd = freshDir();
    expect((await runCli(['init'], { cwd })).code).toBe(0);
    const again = await runCli(['init'], { cwd });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('[SVC_E_CONFIG_EXISTS]');
    expect(again.stdout).toBe('');
  });

  it('completion bash prints a script', async () => {
    const run = await runCli(['completion', 'bash']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('complete -o default -F _svc_cli svc-cli');
    expect(run.stderr).toBe('');
    // hook-fire's events, which the program (the start-up bundle) attached for completion
    expect(run.stdout).toMatch(
      /hook-fire:\*\) if [^\n]*compgen -W 'call_event chat_accepted chat_assigned chat_finished chat_updated offline_message'/,
    );
    const bad = await runCli(['completion', 'tcsh']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("error [SVC_E_USAGE] command-argument value 'tcsh' is invalid");
  });
});

describe('svc-cli chat driven through stdin (e2e)', () => {
  it('sends each line, prints the agent reply, exits 0 at the end of input', async () => {
    const run = await runCli(['--time-scale', '0.2', 'chat', '--name', 'Ann'], {
      cwd: freshDir(),
      input: 'Hello\n/typing on\n/location 55.75 37.61\n/agent Hi Ann!\n/quit\nnever sent\n',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('svc chat with the embedded simulator at http://127.0.0.1:');
    // the banner fits an 80-column terminal: two of its lines ran 81 and 82
    const banner = run.stdout.slice(0, run.stdout.indexOf('Ctrl-D leaves.') + 14).split('\n');
    expect(banner.length).toBeGreaterThan(4);
    for (const line of banner) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(run.stdout).toMatch(/✓ 200 text \d+ms/);
    expect(run.stdout).toMatch(/✓ 200 typing \d+ms/);
    expect(run.stdout).toMatch(/✓ 200 location \d+ms/);
    expect(run.stdout).toContain('Alice Agent: Hi Ann!');
    expect(run.stdout.match(/✓ 200/g)).toHaveLength(3);
    expect(run.stderr).toBe('');
  });

  it('a line refused before sending is shown at once and leaves the exit code 0', async () => {
    const local = await runCli(['chat'], {
      cwd: freshDir(),
      input: 'Hi\n/photo notaurl cat.jpg 48213\n/quit\n',
    });
    // exit 1 means the platform refused a message (docs/integrator.md); this one never left
    expect(local.code).toBe(0);
    expect(local.stdout).toMatch(/✓ 200 text \d+ms/);
    expect(local.stderr).toContain('the payload breaks the contract (1 error). Not sent:');
    expect(local.stderr).toContain('  • message.file: must be an http(s) URL (spec 2.4)');
    expect(local.stderr).not.toContain('pass --force'); // chat has no --force
    expect(local.stderr).not.toContain('did not go through');
  });

  it('--help says what the exit code counts: a platform refusal, not a line chat refused', async () => {
    const help = await runCli(['chat', '--help']);
    const exitCodes = /^Exit codes:[\s\S]*?(?=\n\n)/m.exec(help.stdout)?.[0].replace(/\s+/g, ' ');
    expect(exitCodes).toMatchInlineSnapshot(
      `"Exit codes: 0 after /quit or end of input when every message went through, 1 the platform refused a message, 2 invalid flags, 3 the platform was unreachable, 130 Ctrl-C; also 4 a bug in svc-cli, 5 the machine failed under the run (disk full, too many open files)."`,
    );
    expect(help.stdout.replace(/\s+/g, ' ')).toContain(
      'A line chat refuses itself before sending (the contract, a mistyped command) is shown at once and leaves the exit code as it is.',
    );
    // the case the help is about: a location the contract refuses, then a regular session
    const run = await runCli(['--json', 'chat'], {
      cwd: freshDir(),
      input: 'Hello\n/location 91 0\n/agent Hi\n',
    });
    expect(run.stderr).toContain('Not sent: latitude \\"91\\" must be at most 90');
    expect(run.code).toBe(0);
  });

  it('a message that did not go through is listed and sets the exit code: 1 refused, 3 unreachable', async () => {
    const platform = await startFakePlatform({ refuse: { status: 404, body: 'no such channel' } });
    try {
      const refused = await runCli(['chat', '--channel-url', platform.channelUrl], {
        cwd: freshDir(),
        input: 'Hi\n/photo notaurl cat.jpg 48213\n',
      });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/1 message did not go through \(listed above\): exit 1\n$/);
    } finally {
      await platform.close();
    }
    const port = await freePort();
    const unreachable = await runCli(
      ['chat', '--channel-url', `http://127.0.0.1:${port}/r4nd0m/ch-1`],
      { cwd: freshDir(), input: 'Hi\n/photo notaurl\n' },
    );
    expect(unreachable.code).toBe(3);
    expect(unreachable.stderr).toContain('connection refused');
  });

  it("/photo without a size sends the file server's Content-Length, or nothing", async () => {
    const files = createServer((req, res) => {
      if (req.url === '/cat.jpg') res.setHeader('content-length', '48213');
      else res.writeHead(404);
      res.end();
    });
    await new Promise<void>((done) => files.listen(0, '127.0.0.1', done));
    const platform = await startFakePlatform();
    try {
      const base = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
      const run = await runCli(['chat', '--channel-url', platform.channelUrl], {
        cwd: freshDir(),
        input: `/photo ${base}/cat.jpg\n/photo ${base}/gone.jpg\n`,
      });
      expect(platform.received).toEqual([
        {
          sender: { id: expect.any(String) as string },
          message: {
            type: 'photo',
            file: `${base}/cat.jpg`,
            file_name: 'cat.jpg',
            file_size: 48213,
          },
        },
      ]);
      expect(run.stderr).toContain(
        `Not sent: could not learn the size of ${base}/gone.jpg (HTTP 404). Give it: /photo <url> [name] <size in bytes>`,
      );
      expect(run.stderr).toContain('asking 127.0.0.1:');
      // refused before sending, at once: no platform refused anything
      expect(run.code).toBe(0);
    } finally {
      await platform.close();
      await new Promise((done) => files.close(done));
    }
  });

  it('--json: one object per line', async () => {
    const run = await runCli(['--json', 'chat'], { cwd: freshDir(), input: 'Hi\n/agent Hello\n' });
    expect(run.code).toBe(0);
    const types = run.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { type: string }).type);
    expect(types).toEqual(['chat-ready', 'chat-sent', 'chat-agent']);
  });
});
