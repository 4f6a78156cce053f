/**
 * What a newcomer trips on in the first minutes, each pinned from the outside:
 * the built CLI, its stdout, stderr and exit code.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startCliServer } from '../helpers/cli-server.js';
import { freePort } from '../helpers/free-port.js';
import { bin, repoRoot, runCli } from '../helpers/run-cli.js';

describe('--out, --record and --report are checked before the run', () => {
  it.each([
    ['replay', ['replay', '--reporter', 'junit', '--out', '/nonexistent/dir/r.xml']],
    [
      'conform',
      [
        'conform',
        'hooks',
        '--url',
        'http://127.0.0.1:9',
        '--reporter',
        'junit',
        '--out',
        '/nonexistent/dir/r.xml',
      ],
    ],
  ])('%s: a missing folder is exit 2 at once, nothing run', async (_name, args) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'Could not use --out /nonexistent/dir/r.xml: the folder /nonexistent/dir does not exist.',
    );
    expect(r.stdout).toBe('');
  });

  it.each([
    ['replay --record', ['replay', 'fixtures/conversations/text-both-ways.json'], '--record'],
    ['replay --report', ['replay', 'fixtures/conversations/text-both-ways.json'], '--report'],
    [
      'conform platform --record',
      ['conform', 'platform', '--channel-url', 'http://127.0.0.1:9/s/c'],
      '--record',
    ],
    [
      'conform platform --report',
      ['conform', 'platform', '--channel-url', 'http://127.0.0.1:9/s/c'],
      '--report',
    ],
    ['load --report', ['load', 'hooks', '--url', 'http://127.0.0.1:9'], '--report'],
  ])('%s into a missing folder is exit 2 at once, nothing run', async (_name, args, flag) => {
    const r = await runCli([...args, flag, '/nonexistent/dir/r.x']);
    expect(r.code).toBe(2);
    expect(r.stderr.split('\n')[0]).toBe(
      `error [SVC_E_FLAG] Could not use ${flag} /nonexistent/dir/r.x: the folder /nonexistent/dir does not exist.`,
    );
    expect(r.stdout).toBe('');
  });

  it('--out with the pretty reporter is refused, never ignored', async () => {
    const r = await runCli(['replay', '--out', 'report.txt']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the pretty reporter prints to the terminal');
    expect(r.stderr).toContain('--reporter junit --out report.txt');
  });

  // the readers of recordings refused, created or half-refused a missing folder each their own
  // way: one rule now, said before the recording is read (it does not exist here either)
  it.each([
    ['trace --out', ['trace', 'missing.ndjson', '--out']],
    ['report --out', ['report', 'missing.ndjson', '--out']],
    ['record to-fixture --out', ['record', 'to-fixture', 'missing.ndjson', '--out']],
    ['record profile --out', ['record', 'profile', 'missing.ndjson', '--out']],
    ['coverage --junit', ['coverage', 'missing.ndjson', '--junit']],
  ])('%s into a missing folder is refused with how to make it (exit 2)', async (_name, args) => {
    const r = await runCli([...args, '/nonexistent/dir/r.x']);
    expect(r.code).toBe(2);
    const flag = args.at(-1)!;
    expect(r.stderr.split('\n').slice(0, 2)).toEqual([
      `error [SVC_E_FLAG] Could not use ${flag} /nonexistent/dir/r.x: the folder /nonexistent/dir does not exist.`,
      '  Create the folder first (mkdir -p /nonexistent/dir), or name a file in an existing one.',
    ]);
    expect(r.stdout).toBe('');
  });
});

describe('npm start output', () => {
  it('a green conversation is one line; --verbose shows its steps', async () => {
    const r = await runCli(['replay', '--grep', 'hook lifecycle']);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^✓ hook lifecycle.* {2}\(fixtures\/conversations\/hook-lifecycle\.json · 10 steps · /,
    );
    expect(lines.at(-1)).toBe('1 passed, 0 failed');
    expect(lines).toHaveLength(4);
    const verbose = await runCli(['replay', '--grep', 'hook lifecycle', '--verbose']);
    expect(verbose.stdout).toContain('✓ 6. expect hook chat_updated');
    expect(verbose.stdout).toContain('✓ 7. POST /_sim/chats/1/assign');
    expect(verbose.stdout).not.toContain('${');
  });
});

describe('fixture errors', () => {
  it('every broken file is named with line and column or the unknown key; the good ones run; exit 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-fixtures-'));
    writeFileSync(
      join(dir, 'a-typo.json'),
      JSON.stringify({ version: 1, name: 'typo', steps: [{ custmer: { text: 'hi' } }] }),
    );
    writeFileSync(join(dir, 'b-broken.json'), '{"version": 1,\n "name": "y",\n "steps": [ }\n');
    copyFileSync(
      join(repoRoot, 'fixtures/conversations/text-both-ways.json'),
      join(dir, 'c-good.json'),
    );
    const r = await runCli(['replay', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('1 passed, 0 failed');
    expect(r.stderr).toContain('steps.0: unknown key "custmer" (did you mean "customer"?)');
    expect(r.stderr).toMatch(/b-broken\.json:3:13: /);
    expect(r.stderr).toContain(
      '2 conversation files could not be loaded (see above), so they were not run',
    );
    // in the JSON summary too: "1 passed, 0 failed" alone read as green beside exit 2
    const json = await runCli(['--json', 'replay', dir]);
    expect(json.code).toBe(2);
    expect(json.stdout.trim().split('\n').at(-1)).toBe(
      '{"type":"summary","passed":1,"failed":0,"skipped":0,"total":1,"notLoaded":2}',
    );
    // in JUnit: a dashboard that reads only the XML must not show a green suite
    const xml = join(dir, 'out.xml');
    const junit = await runCli(['replay', dir, '--reporter', 'junit', '--out', xml]);
    expect(junit.code).toBe(2);
    const report = readFileSync(xml, 'utf8');
    expect(report).toContain('tests="3" failures="0" errors="2"');
    expect(report).toMatch(
      /<testcase name="[^"]*a-typo\.json"[^>]*>\s*<error message="[^"]*custmer/,
    );
    expect(report).toContain('type="SVC_E_CONVERSATION"');
  });

  it("a folder's payloads and bot scripts are skipped in one line; a conversation missing its version is not; a named one is loaded", async () => {
    // `svc-cli replay fixtures` printed 298 errors (payloads, bot scripts) and exited 2
    const dir = mkdtempSync(join(tmpdir(), 'svc-fixtures-'));
    copyFileSync(join(repoRoot, 'fixtures/bots/shop.json'), join(dir, 'a-bot.json'));
    writeFileSync(join(dir, 'b-payload.json'), JSON.stringify({ event: 'CLIENT_MESSAGE' }));
    writeFileSync(join(dir, 'c-answer.json'), '42');
    copyFileSync(
      join(repoRoot, 'fixtures/conversations/text-both-ways.json'),
      join(dir, 'd-good.json'),
    );
    const r = await runCli(['replay', dir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1 passed, 0 failed');
    expect(r.stderr).toMatch(
      /skipped 3 JSON files that are not a conversation \(no "steps"\): \S*a-bot\.json, \S*b-payload\.json, and 1 more/,
    );
    expect(r.stderr).not.toContain('Could not load');

    // steps without a version is a conversation with a fault: named, exit 2
    writeFileSync(join(dir, 'e-unversioned.json'), JSON.stringify({ name: 'x', steps: [] }));
    const unversioned = await runCli(['replay', dir]);
    expect(unversioned.code).toBe(2);
    expect(unversioned.stderr).toMatch(
      /Could not load \S*e-unversioned\.json: it has no "version"/,
    );

    // named on the command line, a bot script is read as the conversation it was said to be
    const named = await runCli(['replay', join(dir, 'a-bot.json')]);
    expect(named.code).toBe(2);
    expect(named.stderr).toMatch(/Could not load \S*a-bot\.json: /);
  });

  it('a misplaced key is named alone: the valid steps around it are not blamed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-fixtures-'));
    const file = join(dir, 'misplaced.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'misplaced',
        steps: [
          { agent: { text: 'Hello' }, delivery: { result: 'delivered' } },
          { customer: { text: 'hi' }, response: { status: 200 } },
          { bot: { event: 'BOT_MESSAGE' } },
          { expect: { event: { type: 'delivery-attempt' } }, within: 100 },
        ],
      }),
    );
    const r = await runCli(['replay', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('steps.3: unknown key "within" (it belongs inside "expect")');
    expect(r.stderr).not.toContain('steps.0');
    expect(r.stderr).not.toContain('steps.1');
    expect(r.stderr).not.toContain('steps.2');
    expect(r.stderr).not.toContain('Unrecognized key');
  });

  it('a step that fits no shape names the field, not "Invalid input" of the whole step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-fixtures-'));
    const file = join(dir, 'edited.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'edited',
        steps: [{ customer: { text: 'hi', sender: { id: 42 } } }],
      }),
    );
    const r = await runCli(['replay', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('steps.0.customer.sender.id: must be a string, not a number');
    expect(r.stderr).not.toContain('Invalid input');
  });
});

describe('time', () => {
  it('--json: a timed line carries the wall-clock time beside protocol time', async () => {
    const before = Date.now();
    const r = await runCli(['--json', 'replay', '--grep', 'text both ways']);
    const line = JSON.parse(r.stdout.split('\n')[0]!) as { protocolMs: number; at: string };
    expect(typeof line.protocolMs).toBe('number');
    expect(Date.parse(line.at)).toBeGreaterThanOrEqual(before - 1000);
    expect(line.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe('--json: every line is one object with a type', () => {
  it.each([
    ['an unknown command', ['--json', 'bogus'], 2],
    ['an unknown option', ['--json', 'validate', '--bogus'], 2],
    ['schema --kind', ['--json', 'schema', '--kind', 'channel.status'], 0],
    ['doctor', ['--json', 'doctor'], 0],
  ])('%s', async (_name, args, code) => {
    const r = await runCli(args);
    expect(r.code).toBe(code);
    const lines = r.stdout.trim().split('\n');
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ type: expect.any(String) });
    }
    if (code === 2)
      expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'error', code: 'SVC_E_USAGE' });
    if (args.includes('doctor'))
      expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: 'summary', failed: 0 });
  });
});

describe('conform platform', () => {
  it('names the platform without its channel random string', async () => {
    // the redaction is what this test is about, not the schedule: a machine with other work
    // is late by more than 1000 protocol ms, so the redelivery case gets all the slack it can
    // have (2900 ms), at 0.5: 1.45 s of wall time. At 0.2 (580 ms) a run beside a CPU hog on
    // both cores failed it once in three.
    const scale = ['--time-scale', '0.5'];
    const platform = await startCliServer([
      '--json',
      ...scale,
      'platform',
      '--port',
      '0',
      '--no-console',
    ]);
    try {
      const channel = (platform.listening.channels as { url: string }[])[0]!.url;
      const secret = channel.split('/').at(-2)!;
      const r = await runCli([
        ...scale,
        'conform',
        'platform',
        '--channel-url',
        channel,
        '--tolerance',
        '2900',
      ]);
      expect(r.code, r.stdout).toBe(0);
      expect(r.stdout).toContain('conform platform against http://127.0.0.1:');
      expect(r.stdout).not.toContain(secret);
    } finally {
      await platform.stop();
    }
  }, 120_000);
});

describe('system errors in plain words', () => {
  it('a taken port, a missing file and a missing folder say what happened, no errno text', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as AddressInfo;
    try {
      const busy = await runCli(['listen', '--port', String(port)]);
      expect(busy.code).toBe(2);
      expect(busy.stderr).toContain(
        `Could not listen on 127.0.0.1:${port}: another program already listens on that port.`,
      );
      expect(busy.stderr).toContain('--port 0 for any free port');
      // a tour's background job is the usual holder
      expect(busy.stderr).toContain('An earlier `svc-cli … &` may still hold it: `jobs`');
      // the flag that named the port, not --port (newcomer pass)
      const simulator = await runCli(['widget', '--port', '0', '--platform-port', String(port)]);
      expect(simulator.code).toBe(2);
      expect(simulator.stderr).toContain(
        'Pick another --platform-port, or --platform-port 0 for any free port. An earlier',
      );
      // SVC_PORT set for another serving command: the hint says where the port came from
      const fromEnv = await runCli(['listen'], { env: { SVC_PORT: String(port) } });
      expect(fromEnv.code).toBe(2);
      expect(fromEnv.stderr).toContain(
        `That port came from SVC_PORT=${port}, which every serving command reads`,
      );
      // SVC_PORT names the page's port, --platform-port the same one: refused before either
      // binds, saying where the page's port came from (a second reader)
      const platformPort = await runCli(['widget', '--platform-port', String(port)], {
        env: { SVC_PORT: String(port) },
      });
      expect(platformPort.code).toBe(2);
      expect(platformPort.stderr).toContain(
        `Could not use --port ${port} (from SVC_PORT=${port}) and --platform-port ${port}: the demo page and the simulator started here need a port each.`,
      );
      expect(platformPort.stderr).not.toContain('another program');
    } finally {
      taken.close();
    }
    const plan = await runCli(['listen', '--fault-plan', 'no-such-plan.json']);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toContain(
      'Could not read the fault plan no-such-plan.json: no such file or folder.',
    );
    const record = await runCli(['listen', '--record', 'no-such-dir/x.ndjson']);
    expect(record.stderr).toContain(
      'Could not open the record file no-such-dir/x.ndjson: no such file or folder.',
    );
    for (const r of [plan, record]) expect(r.stderr).not.toMatch(/ENOENT|EADDRINUSE|open '/);
  });

  it.each([['platform', '--no-console'], ['widget'], ['bot-sim']])(
    '%s --record into a folder that does not exist: exit 2, not an internal error',
    async (...command) => {
      const run = await runCli([...command, '--port', '0', '--record', 'no-such-dir/x.ndjson']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        'Could not open the record file no-such-dir/x.ndjson: no such file or folder.',
      );
      expect(run.stderr).not.toMatch(/SVC_E_INTERNAL|ENOENT/);
    },
  );
});

describe('widget --platform-url', () => {
  it('refuses a simulator that does not answer: exit 3 with the reason, not a page saying online', async () => {
    const taken = createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const { port } = taken.address() as AddressInfo;
    try {
      const notSvc = await runCli([
        'widget',
        '--port',
        '0',
        '--platform-url',
        `http://127.0.0.1:${port}`,
      ]);
      expect(notSvc.code).toBe(3);
      expect(notSvc.stderr).toContain('answered HTTP 404: not an svc simulator');
      // not "start one on that port", which the program there holds
      expect(notSvc.stderr).toContain(
        `Another program listens on port ${port}: give --platform-url the simulator's address`,
      );
      expect(notSvc.stderr).not.toContain('Start one with');
    } finally {
      taken.close();
    }
    const down = await runCli([
      'widget',
      '--port',
      '0',
      '--platform-url',
      `http://127.0.0.1:${port}`,
      '--platform-wait',
      '0',
    ]);
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('nothing listens there (connection refused)');
    // the hint starts a simulator where --platform-url looks, not on a fixed 8800
    expect(down.stderr).toContain(`Start one with \`svc-cli platform --web --port ${port}\``);
    // a port the fetch standard blocks: said in words, not "bad port" (newcomer pass)
    const blocked = await runCli([
      'widget',
      '--port',
      '0',
      '--platform-url',
      'http://127.0.0.1:6000',
    ]);
    expect(blocked.code).toBe(3);
    expect(blocked.stderr).toContain(
      'port 6000 is one that browsers and fetch refuse to connect to',
    );
  });

  it('refuses the flags of the simulator it would start, before reaching the given one', async () => {
    const run = await runCli([
      'widget',
      '--port',
      '0',
      '--agents',
      'offline',
      '--hook-url',
      'http://127.0.0.1:9/hooks',
      '--platform-url',
      'http://127.0.0.1:9',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'error [SVC_E_FLAG] Could not use --agents offline, --hook-url with --platform-url: they set up the simulator widget starts',
    );
  });

  it('says a simulator serves no console from its state, not by a request failing there', async () => {
    const platform = await startCliServer(['--json', 'platform', '--port', '0', '--no-console']);
    let platformOut = '';
    platform.child.stdout?.on('data', (chunk: Buffer) => (platformOut += chunk.toString()));
    const widget = spawn(
      process.execPath,
      [bin, 'widget', '--port', '0', '--platform-url', platform.listening.url],
      { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    try {
      let out = '';
      await new Promise<void>((done, fail) => {
        widget.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('Ctrl-C stops.')) done();
        });
        widget.once('exit', (code) => fail(new Error(`widget exited ${code}`)));
      });
      expect(out).toContain(
        'agent console  none there: the simulator serves it with --web (svc-cli platform --web)',
      );
      expect(out).not.toContain('/_sim/console/');
    } finally {
      widget.kill('SIGINT');
      await platform.stop();
    }
    // the platform's terminal had no failed request of widget's own to show
    expect(platformOut).not.toContain('/_sim/console');
  });

  it('waits for a simulator started in the same line (`platform --web & widget`)', async () => {
    const port = await freePort();
    const platformUrl = `http://127.0.0.1:${port}`;
    const widget = spawn(
      process.execPath,
      // a generous wait: the test must not depend on how fast this machine starts a platform
      [
        bin,
        '--json',
        'widget',
        '--port',
        '0',
        '--platform-url',
        platformUrl,
        '--platform-wait',
        '120',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let stderr = '';
      const waiting = new Promise<void>((done) =>
        widget.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          if (stderr.includes('waiting for the simulator')) done();
        }),
      );
      const listening = new Promise<string>((done, fail) => {
        createInterface({ input: widget.stdout }).once('line', done);
        widget.once('exit', (code) => fail(new Error(`widget exited ${code}: ${stderr}`)));
      });
      listening.catch(() => undefined); // awaited below; a failure before then is not unhandled
      await waiting;
      expect(stderr).toContain(
        `waiting for the simulator at ${platformUrl} (nothing listens there`,
      );
      const platform = await startCliServer([
        'platform',
        '--web',
        '--json',
        '--port',
        String(port),
      ]);
      try {
        expect(JSON.parse(await listening)).toMatchObject({ type: 'listening', platformUrl });
      } finally {
        await platform.stop();
      }
    } finally {
      widget.kill('SIGINT');
    }
  });
});
