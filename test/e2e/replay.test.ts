import { execFile, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { StepResult } from '../../src/conversation/runner.js';
import { startedAfter } from '../helpers/cli-server.js';
import { freePort } from '../helpers/free-port.js';
import { bin, repoRoot, runCli } from '../helpers/run-cli.js';

const run = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', ['bin/svc-cli.js', ...args], {
      env: { ...process.env, NO_COLOR: '1' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
};

/** A conversation whose one step expects 201 where the simulator answers 200: it fails. */
function writeBrokenConversation(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'svc-replay-')), 'broken.json');
  writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      name: 'broken',
      steps: [{ customer: { text: 'x', sender: { id: 'c' } }, response: { status: 201 } }],
    }),
  );
  return file;
}

describe('svc-cli replay', () => {
  it('replays the conversations shipped in the package from a folder without fixtures', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-replay-empty-'));
    const result = await runCli(['replay', '--grep', 'typing'], { cwd: empty });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    const named = await runCli(['replay', 'fixtures/conversations'], { cwd: empty });
    expect(named.code).toBe(2); // only the default falls back; a named path must exist
  });

  it('a shipped fixture named by its path in the docs: the hint says how to run it', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'svc-replay-empty-'));
    const r = await runCli(['replay', 'fixtures/conversations/bot-timeout.json'], { cwd: empty });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file or folder');
    expect(r.stderr).toContain(
      'svc-cli ships bot-timeout.json; run it with: svc-cli replay --grep bot-timeout.json, or svc-cli replay /',
    );
    const hint = await runCli(['replay', '--grep', 'bot-timeout.json'], { cwd: empty });
    expect(hint.stdout.trim().split('\n').at(-1)).toBe('1 passed, 0 failed');
    const other = await runCli(['replay', 'fixtures/conversations/mine.json'], { cwd: empty });
    expect(other.stderr).not.toContain('svc-cli ships mine.json');
    expect(other.stderr).toContain(
      'Could not read the conversation fixtures/conversations/mine.json: no such file or folder.',
    );
    expect(other.stderr).toContain('svc-cli replay without a path runs');
    // a path of the user's own: what replay reads, and how to run the shipped ones
    const typo = await runCli(['replay', 'nosuch.yaml'], { cwd: empty });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain(
      'svc-cli replay without a path runs ./fixtures/conversations, else the ones svc-cli ships',
    );
  });

  it('replays every bundled conversation green and ends with the count line', async () => {
    const { code, stdout } = await run(['replay']);
    expect(code).toBe(0);
    expect(stdout.trim().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    expect(stdout).toContain('✓ redelivery exhausted: the agent sees an error at 9 s');
  });

  it('writes a JUnit report with one testcase per conversation', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-replay-'));
    const out = join(dir, 'report.xml');
    const { code, stderr } = await run([
      'replay',
      'fixtures/conversations',
      '--grep',
      'redelivery',
      '--reporter',
      'junit',
      '--out',
      out,
    ]);
    expect(code).toBe(0);
    expect(stderr).toContain('2 passed, 0 failed');
    const xml = readFileSync(out, 'utf8');
    expect(xml.match(/<testcase /g)).toHaveLength(2);
    expect(xml).toContain('failures="0"');
  });

  it('exits 1 with the diff when a step fails, and NDJSON with --json', async () => {
    const file = writeBrokenConversation();
    const pretty = await run(['replay', file]);
    expect(pretty.code).toBe(1);
    expect(pretty.stdout).toContain('status: expected 201, got 200');
    const json = await run(['--json', 'replay', file]);
    expect(json.code).toBe(1);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(lines.map((l) => l.type)).toEqual(['conversation', 'summary']);
  });

  it('--reporter json --out writes the lines stdout would: the conversations, then summary', async () => {
    const file = writeBrokenConversation();
    const paths = [file, 'fixtures/conversations/text-both-ways.json'];
    const out = join(mkdtempSync(join(tmpdir(), 'svc-replay-')), 'r.ndjson');
    const written = await run(['replay', ...paths, '--reporter', 'json', '--out', out]);
    const printed = await run(['replay', ...paths, '--reporter', 'json']);
    expect(written.code).toBe(1);
    expect(written.stdout).toBe('');
    const lines = (text: string) =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; name?: string });
    const inFile = lines(readFileSync(out, 'utf8'));
    expect(inFile.map((l) => [l.type, l.name])).toEqual(
      lines(printed.stdout).map((l) => [l.type, l.name]),
    );
    expect(inFile.at(-1)).toEqual({ type: 'summary', passed: 1, failed: 1, skipped: 0, total: 2 });
  });

  it('exits 2 for a missing path, an unknown version and a bad step', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-replay-'));
    const missing = await run(['replay', join(dir, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no such file or folder');
    writeFileSync(join(dir, 'v2.json'), JSON.stringify({ version: 2, name: 'x', steps: [] }));
    const v2 = await run(['replay', join(dir, 'v2.json')]);
    expect(v2.code).toBe(2);
    expect(v2.stderr).toContain('"version" is 2; this svc-cli reads version 1');
    expect(v2.stderr).toContain('Upgrade svc-cli');
    writeFileSync(join(dir, 'array.json'), '[]');
    const array = await run(['replay', join(dir, 'array.json')]);
    expect(array.code).toBe(2);
    expect(array.stderr).toContain('it is a JSON array; a conversation fixture is one JSON object');
    expect(array.stderr).not.toContain('upgrade');
    writeFileSync(join(dir, 'none.json'), JSON.stringify({ name: 'x', steps: [] }));
    const none = await run(['replay', join(dir, 'none.json')]);
    expect(none.stderr).toContain('it has no "version"');
    expect(none.stderr).toContain('Add "version": 1');
    expect(none.stderr).not.toMatch(/upgrade/i);
    writeFileSync(
      join(dir, 'bad.json'),
      JSON.stringify({ version: 1, name: 'x', steps: [{ dance: true }] }),
    );
    const bad = await run(['replay', join(dir, 'bad.json')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('    at ');
  });

  it('prints the same report with --concurrency 1 as with the default (apart from wall times)', async () => {
    const wall = (text: string): string =>
      text.replace(/wall \d+ ms/g, 'wall N ms').replace(/in \d+ ms/g, 'in N ms');
    const one = await run(['replay', '--concurrency', '1']);
    const many = await run(['replay']);
    expect(many.code).toBe(0);
    expect(wall(many.stdout)).toBe(wall(one.stdout));
    // step values carry random ids, ports and wall-clock timestamps (as two sequential runs
    // do); statuses, details and protocol times must match
    const ndjson = (text: string): unknown[] =>
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown> & { steps?: StepResult[] })
        .map(({ wallMs: _w, at: _at, steps, ...rest }) => ({
          ...rest,
          steps: steps?.map((st) => [
            st.index,
            st.name,
            st.kind,
            st.status,
            st.protocolMs,
            st.details,
          ]),
        }));
    // one after the other: two full replays at once on 2 cores would only test the machine
    const jsonOne = await run(['--json', 'replay', '--concurrency', '1']);
    const jsonMany = await run(['--json', 'replay', '--concurrency', '8']);
    expect(ndjson(jsonMany.stdout)).toEqual(ndjson(jsonOne.stdout));
  });

  it('draws the --report page in input order at the default concurrency, as it prints', async () => {
    // the slow one starts first (it stalls on the clock) and ends last
    const names = ['text-both-ways', 'typing-both-ways', 'slow-integrator', 'bot-text'];
    const html = join(mkdtempSync(join(tmpdir(), 'svc-replay-')), 'r.html');
    const { code, stdout } = await run([
      'replay',
      ...names.map((n) => `fixtures/conversations/${n}.json`),
      '--report',
      html,
    ]);
    expect(code).toBe(0);
    const printed = stdout.split('\n').flatMap((l) => /^✓ (.+?) {2}\(/.exec(l)?.[1] ?? []);
    const drawn = [...readFileSync(html, 'utf8').matchAll(/<h2>(.+?) · chat \d/g)].map((m) => m[1]);
    expect(printed).toHaveLength(4);
    expect(drawn).toEqual(printed);
  });

  it('with --bail at any concurrency, stops at the first failing conversation in input order', async () => {
    const broken = writeBrokenConversation();
    // the slow one ends last; the passing ones after the broken one must not be reported
    const paths = [
      'fixtures/conversations/slow-integrator.json',
      broken,
      'fixtures/conversations/text-both-ways.json',
      'fixtures/conversations/typing-both-ways.json',
    ];
    for (const concurrency of ['1', '4']) {
      const { code, stdout, stderr } = await run([
        'replay',
        ...paths,
        '--bail',
        '--concurrency',
        concurrency,
      ]);
      expect(code).toBe(1);
      // the counts are of what ran: the rest is named, not silently dropped
      expect(stderr).toContain('--bail: 2 of 4 conversations not run after the failure');
      const names = stdout.split('\n').filter((l) => /^[✓✗] /.test(l));
      expect(names).toHaveLength(2);
      expect(names[0]).toMatch(/^✓ .*slow-integrator\.json/);
      expect(names[1]).toMatch(/^✗ broken /);
      expect(stdout.trim().split('\n').at(-1)).toBe('1 passed, 1 failed');
    }
  });

  it('exits 2 for a fixture that references a step no earlier step is named', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-replay-')), 'typo.json');
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'typo',
        steps: [
          { customer: { text: 'x', sender: { id: 'c' } } },
          { name: 'reply', agent: { text: 'y' } },
          { expect: { integrator: { message: { id: '${replay.deliveryId}' } } } },
        ],
      }),
    );
    const { code, stdout, stderr } = await run(['replay', file]);
    expect(code).toBe(2);
    expect(stderr).toContain(
      `typo.json: steps.2.expect.integrator.message.id: "\${replay.deliveryId}" names no step "replay" (did you mean "reply"?).`,
    );
    expect(stdout).not.toContain('expected integrator');
  });

  it('exits 2 for a --concurrency that is not a positive whole number', async () => {
    for (const value of ['0', '-2', '1.5', 'many']) {
      const { code, stderr } = await run(['replay', '--concurrency', value]);
      expect(code).toBe(2);
      expect(stderr).toContain(`Could not use --concurrency "${value}": must be`);
    }
  });
});

describe('replay --time-scale with no real peer', () => {
  it('says it changes nothing: the embedded clock is virtual', async () => {
    const r = await runCli([
      ...['--time-scale', '0.1', 'replay', 'fixtures/conversations/text-both-ways.json'],
    ]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'note: --time-scale 0.1 changes nothing here: with no real peer, replay runs on a virtual clock',
    );
    const plain = await runCli(['replay', 'fixtures/conversations/text-both-ways.json']);
    expect(plain.stderr).not.toContain('--time-scale');
    // a scale set for every command (the environment, a config file) is no newcomer's try
    const fromEnv = await runCli(['replay', 'fixtures/conversations/text-both-ways.json'], {
      env: { SVC_TIME_SCALE: '0.1' },
    });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stderr).not.toContain('changes nothing here');
  });
});

describe('replay --wait', () => {
  const fixture = 'fixtures/conversations/hook-lifecycle.json';

  it('replays against a receiver started after it; names one that never comes; needs a peer', async () => {
    const port = await freePort();
    const hookUrl = `http://127.0.0.1:${port}/hooks`;
    // replay first, the receiver second, with no wait between them: --wait covers its start
    const replay = runCli([
      '--time-scale',
      '0.2',
      'replay',
      fixture,
      '--hook-url',
      hookUrl,
      '--wait',
      '60s',
    ]);
    const done = await startedAfter(replay, ['--json', 'hook-target', '--port', String(port)]);
    expect(done.code, done.stderr + done.stdout).toBe(0);
    expect(done.stdout).toContain('1 passed, 0 failed');

    const dead = await runCli(['replay', fixture, '--hook-url', hookUrl, '--wait', '300ms']);
    expect(dead.code).toBe(3);
    expect(dead.stderr).toContain(
      `Could not replay: the hook receiver at ${hookUrl} is unreachable (connection refused, still after 300 ms).`,
    );

    const none = await runCli(['replay', fixture, '--wait', '1s']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Could not use --wait: it waits for a real peer');
  });
});

describe('replay against a real peer nothing listens at', () => {
  it('says so before the first conversation, naming the peer and --wait (exit 3)', async () => {
    const url = `http://127.0.0.1:${await freePort()}/agent-messages`;
    const r = await runCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--integrator-url',
      url,
    ]);
    expect(r.code, r.stderr + r.stdout).toBe(3);
    expect(r.stderr).toContain(
      `Could not replay: the integrator endpoint at ${url} is unreachable (connection refused).`,
    );
    expect(r.stderr).toContain('--wait 10s gives it time');
    // no conversation ran: no failed delivery to read the refusal from
    expect(r.stdout).not.toContain('expected "delivered"');
  });
});

describe('replay --wait cut short by Ctrl-C', () => {
  it('says it was interrupted, not unreachable, and writes --out and --report (exit 130)', async () => {
    // the integrator accepts at once; the hook receiver never comes, so replay waits for it
    // once the integrator's probe has connected: that connection is when to press Ctrl-C
    const integrator = createServer((_req, res) => res.end());
    await new Promise<void>((done) => integrator.listen(0, '127.0.0.1', done));
    const { port } = integrator.address() as AddressInfo;
    const hookUrl = `http://127.0.0.1:${await freePort()}/hooks`;
    const folder = mkdtempSync(join(tmpdir(), 'svc-replay-wait-'));
    const [xml, html] = [join(folder, 'w.xml'), join(folder, 'w.html')];
    const replay = spawn(
      process.execPath,
      [
        bin,
        'replay',
        'fixtures/conversations/text-both-ways.json',
        '--integrator-url',
        `http://127.0.0.1:${port}/agent-messages`,
        '--hook-url',
        hookUrl,
        '--wait',
        '60s',
        '--reporter',
        'junit',
        '--out',
        xml,
        '--report',
        html,
      ],
      { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    replay.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    replay.stdout.resume();
    const exited = new Promise<number | null>((done) => replay.once('close', done));
    integrator.once('connection', () => replay.kill('SIGINT'));
    try {
      expect(await exited, stderr).toBe(130);
    } finally {
      integrator.close();
    }
    expect(stderr).not.toContain('unreachable');
    expect(stderr).toContain(
      `interrupted while waiting for the hook receiver at ${hookUrl} (--wait): 0 of 1 conversation finished`,
    );
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toContain('<testcase name="text both ways"');
    expect(junit).toContain('<error message="interrupted before it finished" type="Interrupted"/>');
    expect(readFileSync(html, 'utf8')).toContain('interrupted before it finished');
  });
});

describe('replay --report cut short by Ctrl-C', () => {
  it('draws the conversation under way under its fixture name', async () => {
    // an integrator that never answers: Ctrl-C when the agent message reaches it, with the
    // customer's message recorded
    const integrator = createServer(() => undefined);
    await new Promise<void>((done) => integrator.listen(0, '127.0.0.1', done));
    const { port } = integrator.address() as AddressInfo;
    const html = join(mkdtempSync(join(tmpdir(), 'svc-replay-cut-')), 'r.html');
    const replay = spawn(
      process.execPath,
      [
        bin,
        'replay',
        'fixtures/conversations/text-both-ways.json',
        '--integrator-url',
        `http://127.0.0.1:${port}/agent-messages`,
        '--report',
        html,
      ],
      { cwd: repoRoot, env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    replay.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    replay.stdout.resume();
    const exited = new Promise<number | null>((done) => replay.once('close', done));
    integrator.once('request', () => replay.kill('SIGINT'));
    try {
      expect(await exited, stderr).toBe(130);
    } finally {
      integrator.closeAllConnections();
      integrator.close();
    }
    const headings = [...readFileSync(html, 'utf8').matchAll(/<h2>([^<]*)/g)].map((m) => m[1]);
    expect(headings).toHaveLength(1);
    expect(headings[0]).toMatch(/^text both ways · chat \d+ /);
  });
});

describe('record to-fixture on a recording --record appended to twice', () => {
  it('says it holds two runs and converts both; --run converts one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-runs-'));
    const file = join(dir, 'session.ndjson');
    const notes: string[] = [];
    for (const fixture of ['bot-text.json', 'agents-offline-status.json']) {
      const run = await runCli(['replay', `fixtures/conversations/${fixture}`, '--record', file]);
      expect(run.code).toBe(0);
      notes.push(run.stderr);
    }
    // the second replay says it appended after the run the file held; the first had none
    expect(notes[0]).not.toContain('held earlier runs');
    expect(notes[1]).toContain('session.ndjson held earlier runs: this run');
    const both = await runCli(['record', 'to-fixture', file]);
    expect(both.code).toBe(0);
    expect(both.stderr).toMatch(/session\.ndjson holds 2 runs, converted into one conversation/);
    const firstRun = String(
      (JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!) as { run: string }).run,
    );
    const one = await runCli(['record', 'to-fixture', file, '--run', firstRun.slice(0, 8)]);
    expect(one.code).toBe(0);
    expect(one.stderr).toBe('');
    expect(JSON.parse(one.stdout).steps.length).toBeLessThan(JSON.parse(both.stdout).steps.length);
    const wrong = await runCli(['record', 'to-fixture', file, '--run', 'nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('holds no such run');
  });
});
