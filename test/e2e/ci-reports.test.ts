/**
 * What CI publishes: a run a signal stops still writes its JUnit and HTML reports (each run
 * that did not finish marked) and conform platform's recording of what it saw, the HTML report lists every replayed run, an empty recording
 * fails trace / report / coverage (exit 2), and an unreachable --file server is exit 3.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, it } from 'vitest';
import { bin, repoRoot, runCli } from '../helpers/run-cli.js';
import { freePort } from '../helpers/free-port.js';
import { closePeers, startPeer } from '../helpers/broken-peers.js';

const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  await closePeers();
});

const dir = () => mkdtempSync(path.join(tmpdir(), 'svc-ci-reports-'));

function spawnCli(args: string[]): ChildProcess {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  children.push(child);
  return child;
}

/** Resolves with the first `count` stdout lines of `child`, parsed. */
function linesOf(child: ChildProcess, count: number): Promise<Record<string, unknown>[]> {
  const seen: Record<string, unknown>[] = [];
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      seen.push(JSON.parse(line) as Record<string, unknown>);
      if (seen.length === count) resolve(seen);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} after ${seen.length} lines`)));
  });
}

/** Resolves once `child` prints the JSON case line of `name` (its exchanges were seen). */
function caseDone(child: ChildProcess, name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const event = JSON.parse(line) as { type?: unknown; name?: unknown };
      if (event.type === 'case' && event.name === name) resolve();
    });
    child.once('exit', (code) => reject(new Error(`exited ${code} before the case ${name}`)));
  });
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout!.resume();
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

const count = (text: string, pattern: RegExp): number => text.match(pattern)?.length ?? 0;

describe('a run stopped by a signal still writes its reports', () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'replay --reporter junit --out --report on %s: every conversation listed (exit %i)',
    async (signal, code) => {
      const listen = spawnCli(['listen', '--port', '0', '--json']);
      const [listening] = await linesOf(listen, 1);
      const heard = linesOf(listen, 3);
      const folder = dir();
      const xml = path.join(folder, 'x.xml');
      const html = path.join(folder, 'x.html');
      const replay = spawnCli([
        'replay',
        '--integrator-url',
        `${String(listening!.url)}/agent-messages`,
        '--reporter',
        'junit',
        '--out',
        xml,
        '--report',
        html,
      ]);
      const exited = exitOf(replay);
      await heard; // agent messages reached listen: the run is under way, in real time
      replay.kill(signal);
      const run = await exited;
      expect(run.code, run.stderr).toBe(code);
      expect(run.stderr).toMatch(/interrupted: \d+ of 26 conversations finished/);
      const junit = readFileSync(xml, 'utf8');
      expect(count(junit, /<testcase /g)).toBe(26);
      const errors = Number(/<testsuite [^>]*errors="(\d+)"/.exec(junit)?.[1]);
      expect(errors).toBeGreaterThan(0);
      expect(
        count(junit, /<error message="interrupted before it finished" type="Interrupted"\/>/g),
      ).toBe(errors);
      expect(run.stderr).toMatch(
        new RegExp(`report written to .*x\\.xml: .*, ${errors} interrupted`),
      );
      // the run id the pretty summary prints, for --run-id: in the note and the JUnit file
      const runId = /; run id (\d+) \(--run-id \1 repeats its chat ids\)/.exec(run.stderr)?.[1];
      expect(runId, run.stderr).toBeDefined();
      expect(junit).toContain(`<property name="svc.runId" value="${runId}"/>`);
      const page = readFileSync(html, 'utf8');
      expect(count(page, /interrupted before it finished/g)).toBe(errors);
    },
    60_000,
  );

  it('replay --report on SIGINT mid-chat: the conversation drawn once, with its chat, counted interrupted', async () => {
    // an integrator that never answers: the agent's message waits on it, the chat already open
    let reached!: () => void;
    const delivering = new Promise<void>((resolve) => (reached = resolve));
    const url = await startPeer(() => reached());
    const html = path.join(dir(), 'cut.html');
    const replay = spawnCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--integrator-url',
      url,
      '--report',
      html,
    ]);
    const exited = exitOf(replay);
    await delivering;
    replay.kill('SIGINT');
    const run = await exited;
    expect(run.code, run.stderr).toBe(130);
    expect(run.stderr).toContain(
      `HTML report written to ${html}: 1 interrupted, 1 conversation, 0 invariant violations\n`,
    );
    const page = readFileSync(html, 'utf8');
    expect(count(page, /<section /g)).toBe(1);
    expect(count(page, /<h[23]>text both ways · /g)).toBe(1);
    expect(page).toContain('<span class="badge bad">interrupted</span>');
    expect(count(page, /interrupted before it finished/g)).toBe(1);
    expect(page).not.toContain('without a chat');
    expect(page).toContain(
      '<span><b class="bad">1</b> interrupted</span><span><b>1</b> conversation</span>',
    );
  }, 60_000);

  it('conform --fuzz --reporter junit --out on SIGINT: the times run until the signal', async () => {
    // the peer under test is this process: it sees the run under way, and when it began
    let requests = 0;
    let firstMs = 0;
    let signalledMs = 0;
    // the child, once spawned: the peer signals it
    const spawned: { child?: ChildProcess } = {};
    const url = await startPeer((_req, res) => {
      if (++requests === 1) firstMs = performance.now();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"result":"ok"}');
      if (requests === 40) {
        signalledMs = performance.now();
        spawned.child?.kill('SIGINT');
      }
    });
    const xml = path.join(dir(), 'fuzz.xml');
    const spawnedMs = performance.now();
    const conform = spawnCli([
      'conform',
      'integrator',
      '--url',
      url,
      '--fuzz',
      '100000',
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    spawned.child = conform;
    const run = await exitOf(conform);
    const exitedMs = performance.now();
    expect(run.code, run.stderr).toBe(130);
    const junit = readFileSync(xml, 'utf8');
    const seconds = (pattern: RegExp): number => Number(pattern.exec(junit)?.[1]);
    const suite = seconds(/<testsuite [^>]*time="([\d.]+)"/);
    const underWay = seconds(/<testcase name="fuzz: survives[^"]*" [^>]*time="([\d.]+)"/);
    // bounds from the order of events, not from how fast the machine is: the run began before
    // the peer's first request and ended after the signal, within the process's life
    // the file's times are rounded to the millisecond
    const atLeast = (signalledMs - firstMs) / 1000 - 0.0005;
    expect(suite).toBeGreaterThanOrEqual(atLeast);
    expect(suite).toBeLessThanOrEqual((exitedMs - spawnedMs) / 1000);
    expect(underWay).toBeGreaterThanOrEqual(atLeast);
    expect(underWay).toBeLessThanOrEqual(suite);
    // the properties that never started took no time
    expect(junit).toContain('<testcase name="fuzz: answers a redelivery the same way"');
    expect(seconds(/<testcase name="fuzz: answers a redelivery[^"]*" [^>]*time="([\d.]+)"/)).toBe(
      0,
    );
  }, 60_000);

  it('conform platform --reporter junit --out on SIGTERM: the finished cases and the rest marked (exit 143)', async () => {
    const platform = spawnCli(['platform', '--port', '0', '--json', '--no-console']);
    const [listening] = await linesOf(platform, 1);
    const channelUrl = (listening!.channels as { url: string }[])[0]!.url;
    const heard = linesOf(platform, 6);
    const xml = path.join(dir(), 'c.xml');
    const conform = spawnCli([
      'conform',
      'platform',
      '--channel-url',
      channelUrl,
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    const exited = exitOf(conform);
    await heard; // the platform has seen the suite's first requests
    conform.kill('SIGTERM');
    const run = await exited;
    expect(run.code, run.stderr).toBe(143);
    const junit = readFileSync(xml, 'utf8');
    const tests = Number(/<testsuite [^>]*tests="(\d+)"/.exec(junit)?.[1]);
    const errors = Number(/<testsuite [^>]*errors="(\d+)"/.exec(junit)?.[1]);
    expect(tests).toBeGreaterThan(1);
    expect(errors).toBeGreaterThan(0);
    expect(count(junit, /<error message="interrupted before it finished"/g)).toBe(errors);
    expect(run.stderr).toMatch(/interrupted: \d+ cases? finished/);
    // a case cut short keeps the classname it has when it finishes, e.g. "spec 4.2, 8"
    expect(junit).not.toContain('classname="conversation"');
    expect(junit).toContain(
      '<testcase name="redelivery schedule seen from the integrator (0, 3, 6 s)" classname="spec 4.2, 8" time="0.000">',
    );
  }, 60_000);

  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const)(
    'conform platform --record --report on %s: the recording and the conversations it saw kept (exit %i)',
    async (signal, code) => {
      const platform = spawnCli(['platform', '--port', '0', '--json', '--no-console']);
      const [listening] = await linesOf(platform, 1);
      const channelUrl = (listening!.channels as { url: string }[])[0]!.url;
      platform.stdout!.resume();
      const folder = dir();
      const recording = path.join(folder, 'run.ndjson');
      const html = path.join(folder, 'out.html');
      const conform = spawnCli([
        'conform',
        'platform',
        '--channel-url',
        channelUrl,
        '--json',
        '--record',
        recording,
        '--report',
        html,
      ]);
      // the first case that opens a chat: the report has a conversation to draw
      await caseDone(conform, 'text message accepted');
      const exited = exitOf(conform);
      conform.kill(signal);
      const run = await exited;
      expect(run.code, run.stderr).toBe(code);
      expect(run.stderr).toMatch(/interrupted: \d+ cases? finished/);
      const lines = readFileSync(recording, 'utf8').split('\n');
      expect(lines.pop()).toBe(''); // whole lines, the last one ended
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines)
        expect((JSON.parse(line) as { type?: unknown }).type, line).toBe('exchange');
      // the cases cut short counted first, then the conversations drawn
      const drawn = Number(
        /HTML report written to .*: (?:\d+ interrupted, )?(\d+) conversations?/.exec(
          run.stderr,
        )?.[1],
      );
      expect(drawn, run.stderr).toBeGreaterThan(0);
      const page = readFileSync(html, 'utf8');
      expect(count(page, /<section class="conv" id="c-/g)).toBe(drawn);
    },
    60_000,
  );
});

describe('replay --report lists every conversation', () => {
  it('names the runs with no chat to draw, with their verdict and why', async () => {
    const html = path.join(dir(), 'report.html');
    const run = await runCli(['replay', 'fixtures/conversations', '--report', html]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/21 conversations, .*, 5 runs without a chat to draw/);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('5 runs without a chat to draw');
    for (const name of [
      'channel status follows agent availability',
      'empty sender.id: not delivered, reported as a contract violation',
      'callback call that ends: the last call_event carries the recording',
      'offline form while agents are offline becomes an offline_message hook',
    ])
      expect(page).toContain(
        `<h3>${name} · <b class="">passed</b></h3><p class="brief">no chat to draw`,
      );
  }, 60_000);
});

describe('trace, report and coverage on a recording that was never written', () => {
  it.each([
    ['trace', (f: string) => ['trace', f]],
    ['report', (f: string) => ['report', f, '--out', path.join(path.dirname(f), 'r.html')]],
    ['coverage', (f: string) => ['coverage', f]],
  ])('%s on an empty or blank file exits 2 with SVC_E_RECORDING', async (_name, args) => {
    for (const text of ['', '\n  \n\n']) {
      const file = path.join(dir(), 'session.ndjson');
      writeFileSync(file, text);
      const run = await runCli(args(file));
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(/SVC_E_RECORDING.*holds no exchanges: was it recorded\?/);
      // a listen that nothing reached recorded all along: the hint says why the file is empty
      expect(run.stderr).toContain(
        'a listen, hook-target or bot-sim that nothing reached leaves its file empty',
      );
      expect(existsSync(path.join(path.dirname(file), 'r.html'))).toBe(false);
    }
  });

  it('a journal with exchanges but no conversation stays exit 0', async () => {
    const file = path.join(dir(), 'status.ndjson');
    const recorded = await runCli([
      'replay',
      'fixtures/conversations/agents-offline-status.json',
      '--record',
      file,
    ]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const trace = await runCli(['trace', file]);
    expect(trace.code, trace.stderr).toBe(0);
  });
});

describe('send-media --file on a server that cannot be reached', () => {
  it('exits 3 as an unreachable platform does', async () => {
    const port = await freePort();
    const run = await runCli([
      'send-media',
      'photo',
      '--file',
      `http://127.0.0.1:${port}/cat.jpg`,
      '--sender-id',
      'c-1',
      '--channel-url',
      `http://127.0.0.1:${port}/abc/def`,
    ]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toMatch(
      /SVC_E_UNREACHABLE.*Could not learn the size of http:\/\/127\.0\.0\.1:\d+\/cat\.jpg: connection refused/,
    );
  });
});

describe('send-media --file given a local path', () => {
  it('says the platform fetches a link, not to pass --file-size (exit 2)', async () => {
    const port = await freePort();
    const run = await runCli([
      'send-media',
      'photo',
      '--file',
      './cat.jpg',
      '--sender-id',
      'c-1',
      '--channel-url',
      `http://127.0.0.1:${port}/abc/def`,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('--file ./cat.jpg is not a URL.');
    expect(run.stderr).toContain('give its http(s) URL');
    expect(run.stderr).not.toContain('--file-size');
  });
});

describe('a report written to --out', () => {
  it('conform still prints each failed case and why on stdout, for the CI log', async () => {
    // a receiver that answers {"ok":true}: no result, which spec 6.2 requires
    const url = await startPeer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    const xml = path.join(dir(), 'hooks.xml');
    const run = await runCli([
      'conform',
      'hooks',
      '--url',
      `${url}/hooks`,
      '--events',
      'chat_accepted',
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain('✗ chat_accepted');
    expect(run.stdout).toMatch(/result: required.*\(spec 6\.2\)/);
    expect(run.stderr).toContain(`report written to ${xml}: 0 passed, 1 failed`);
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toContain('<testcase name="chat_accepted"');
    // a conform case is no conversation: its failure type says so
    expect(junit).toContain('type="ConformCaseFailed"');
    expect(junit).not.toContain('ConversationStepFailed');
  });
});

describe('a peer that never listens', () => {
  it('conform --reporter junit --out still writes the report: one error saying why (exit 3)', async () => {
    // the CI page's publish step runs if: always(): a missing file would hide the reason
    const port = await freePort();
    const xml = path.join(dir(), 'unreachable.xml');
    const url = `http://127.0.0.1:${port}/agent-messages`;
    const run = await runCli([
      'conform',
      'integrator',
      '--url',
      url,
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    expect(run.code, run.stderr).toBe(3);
    expect(run.stderr).toContain('SVC_E_PEER_UNREACHABLE');
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toContain(
      '<testsuite name="svc-cli conform integrator" tests="1" failures="0" errors="1"',
    );
    expect(junit).toContain(
      `<error message="Could not run the conformance suite: the integrator endpoint at ${url} is unreachable (connection refused)." type="PeerUnreachable"/>`,
    );
  });

  it('replay --reporter junit --out lists every conversation as that error (exit 3)', async () => {
    const port = await freePort();
    const xml = path.join(dir(), 'unreachable-replay.xml');
    const url = `http://127.0.0.1:${port}/agent-messages`;
    const run = await runCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      'fixtures/conversations/media-agent.json',
      '--integrator-url',
      url,
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    expect(run.code, run.stderr).toBe(3);
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toContain('<testsuite name="svc-cli replay" tests="2" failures="0" errors="2"');
    expect(count(junit, /type="PeerUnreachable"\/>/g)).toBe(2);
    expect(junit).toContain(`Could not replay: the integrator endpoint at ${url} is unreachable`);
  });

  it.each([
    ['conform', 'integrator', '--url'],
    ['replay', 'fixtures/conversations/text-both-ways.json', '--integrator-url'],
  ])(
    '%s --reporter junit on stdout says the same (> report.xml is no empty file)',
    async (...args) => {
      const url = `http://127.0.0.1:${await freePort()}/agent-messages`;
      const run = await runCli([...args, url, '--reporter', 'junit']);
      expect(run.code, run.stderr).toBe(3);
      expect(run.stdout).toMatch(/^<\?xml /);
      expect(count(run.stdout, /type="PeerUnreachable"\/>/g)).toBe(1);
      expect(run.stderr).toContain('SVC_E_PEER_UNREACHABLE');
    },
  );
});

describe('an error that stops conform once it has begun', () => {
  it('an input error found once conform has begun (exit 2) is written to --out as the error', async () => {
    // the bot answers; the port conform's embedded platform is told to take is the bot's own
    const botUrl = await startPeer((_req, res) => res.end('{}'));
    const port = new URL(botUrl).port;
    const xml = path.join(dir(), 'port-in-use.xml');
    const run = await runCli([
      'conform',
      'bot',
      '--url',
      botUrl,
      '--token',
      't0k',
      '--platform-listen-port',
      port,
      '--reporter',
      'junit',
      '--out',
      xml,
    ]);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('SVC_E_PORT_IN_USE');
    const junit = readFileSync(xml, 'utf8');
    expect(junit).toContain(
      '<testsuite name="svc-cli conform bot" tests="1" failures="0" errors="1"',
    );
    expect(junit).toMatch(new RegExp(`<error message="[^"]*${port}[^"]*" type="InputError"/>`));
    expect(run.stderr).toContain(
      `report written to ${xml}: SVC_E_PORT_IN_USE stopped the run: no case ran`,
    );
    // a profile that cannot be read, found after the flags: the same
    const profiled = path.join(dir(), 'profile.xml');
    const missing = await runCli([
      'conform',
      'hooks',
      '--url',
      `${botUrl}/hooks`,
      '--profile',
      path.join(dir(), 'missing.profile.json'),
      '--reporter',
      'junit',
      '--out',
      profiled,
    ]);
    expect(missing.code, missing.stderr).toBe(2);
    expect(readFileSync(profiled, 'utf8')).toContain('type="InputError"/>');
  });
});

describe('--json beside a --reporter typed on the command line', () => {
  it('replay writes the JUnit report to --out, not NDJSON', async () => {
    const out = path.join(dir(), 'report.xml');
    const result = await runCli([
      '--json',
      '--time-scale',
      '0.02',
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--reporter',
      'junit',
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toMatch(/^<\?xml/);
    // and NDJSON stays on stdout, as the refusal below promises: a line per conversation
    const types = result.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type);
    expect(types).toEqual(['conversation', 'summary']);
  });

  it('conform and load without --out are refused: both would print to stdout (exit 2)', async () => {
    const result = await runCli([
      '--json',
      'conform',
      'hooks',
      '--url',
      'http://127.0.0.1:9/hooks',
      '--reporter',
      'junit',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('"code":"SVC_E_OPTIONS"');
    expect(result.stdout).toContain('--reporter junit --out report.xml');
    const load = await runCli([
      '--json',
      'load',
      'hooks',
      '--url',
      'http://127.0.0.1:9/hooks',
      '--reporter',
      'junit',
    ]);
    expect(load.code).toBe(2);
    expect(load.stdout).toContain('"code":"SVC_E_OPTIONS"');
  });
});
