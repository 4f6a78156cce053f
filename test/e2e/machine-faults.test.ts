/**
 * The machine failing under a serving command, for real: a full disk (a tmpfs of 1 MB), a low
 * file limit (`ulimit -n` in the child's shell) and a SIGKILL mid-load. Every assertion
 * counts exchanges; none times them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, utimesSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { tmpfsOrSkip } from '../helpers/tmpfs.js';
import { runCli } from '../helpers/run-cli.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');

interface Run {
  child: ChildProcess;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `platform --json` in a shell that may lower the file limit first; resolves once it listens. */
async function startPlatform(args: string[], fileLimit?: number): Promise<Run> {
  const command = `${fileLimit === undefined ? '' : `ulimit -n ${fileLimit}; `}exec "$0" bin/svc-cli.js platform --port 0 --json --quiet --no-console "$@"`;
  const child = spawn('bash', ['-c', command, process.execPath, ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((done, fail) => {
    lines.once('line', done);
    void exited.then((code) => fail(new Error(`svc-cli exited ${code}: ${stderr}`)));
  });
  return { child, url: (JSON.parse(first) as { url: string }).url, stderr: () => stderr, exited };
}

/** One POST on `agent`; resolves true when answered, false when the connection failed. */
function post(url: string, body: string, agent?: http.Agent): Promise<boolean> {
  return new Promise((done) => {
    const req = http.request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'text/plain' } },
      (res) => {
        res.resume();
        res.on('end', () => done(true));
        res.on('error', () => done(false));
      },
    );
    req.on('error', () => done(false));
    req.end(body);
  });
}

/** Every line of an NDJSON file parses (the last one ends in a newline); their seqs. */
function wholeLines(file: string): Array<{ seq: number; request: { url: string } }> {
  const text = readFileSync(file, 'utf8');
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as { seq: number; request: { url: string } });
}

/** The records of a file whose last line may be cut (a SIGKILL mid-write): all others whole. */
function linesBeforeACut(file: string): Array<{ seq: number; request: { url: string } }> {
  const lines = readFileSync(file, 'utf8').split('\n');
  const last = lines.pop()!; // '' when the file ends with a newline, else the cut line
  if (last !== '') expect(() => JSON.parse(last) as unknown).toThrow();
  return lines.map((line) => JSON.parse(line) as { seq: number; request: { url: string } });
}

const noStackTrace = (stderr: string): void => expect(stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);

const disk = tmpfsOrSkip('1m');
afterAll(() => disk?.unmount());

describe.skipIf(disk === undefined)('a full disk under --record', () => {
  it('keeps serving, says so in one line, leaves whole lines and exits 5', async () => {
    const file = join(disk!.dir, 'keep.ndjson');
    const run = await startPlatform(['--record', file]);
    const body = 'x'.repeat(60_000);
    let answered = 0;
    // 40 x 60 KB cannot fit in 1 MB: the recording stops on the way
    for (let i = 0; i < 40; i++) if (await post(`${run.url}/nothing`, body)) answered++;
    expect(answered).toBe(40);
    const page = (await (await fetch(`${run.url}/_sim/journal?limit=0`)).json()) as {
      count: number;
      recording: { state: string; written: number; failure: { code: string } };
    };
    expect(page.count).toBe(40);
    expect(page.recording).toMatchObject({ state: 'stopped', failure: { code: 'ENOSPC' } });
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(5);
    const stopped = notices(run.stderr()).filter((l) => l.startsWith('recording stopped'));
    expect(stopped).toEqual([
      `recording stopped: the disk is full after ${page.recording.written} records; the simulator keeps serving. ${file} holds those ${page.recording.written} records, each line whole (ENOSPC); free space or record to another disk, then run it again. Exit code 5 at the end.`,
    ]);
    noStackTrace(run.stderr());
    expect(wholeLines(file).map((r) => r.seq)).toEqual(
      Array.from({ length: page.recording.written }, (_, i) => i + 1),
    );
  });

  it('with --record-on-error exit, stops at once with exit code 5', async () => {
    const file = join(disk!.dir, 'exit.ndjson');
    const run = await startPlatform(['--record', file, '--record-on-error', 'exit']);
    const body = 'x'.repeat(60_000);
    // until the process is gone (bounded: 1 MB holds fewer than 20 such records)
    for (let i = 0; i < 40 && run.child.exitCode === null; i++)
      await post(`${run.url}/nothing`, body);
    expect(await run.exited).toBe(5);
    expect(run.stderr()).toContain('svc-cli exits now (--record-on-error exit)');
    noStackTrace(run.stderr());
    wholeLines(file);
  });
});

// a disk of its own: the tests above leave theirs full
const small = tmpfsOrSkip('32k');
afterAll(() => small?.unmount());

describe.skipIf(small === undefined)('a full disk under replay --record', () => {
  it('says the recording stopped and exits 5, not 0 over a cut recording', async () => {
    // the bundled conversations record about 100 KB
    const file = join(small!.dir, 'replay.ndjson');
    const run = await runCli(['replay', 'fixtures/conversations', '--record', file]);
    expect(run.code, run.stderr).toBe(5);
    expect(run.stdout).toContain('26 passed, 0 failed');
    expect(notices(run.stderr)).toEqual([
      `recording stopped: the disk is full (ENOSPC); ${file} holds the exchanges written before it and misses the rest; free space or record to another disk, then run it again. Exit code 5.`,
    ]);
  });
});

describe.skipIf(small === undefined)('a full disk under replay --report', () => {
  it('leaves no half page, names the file and exits 5', async () => {
    // whatever the test above left: fill the disk to the last byte
    try {
      appendFileSync(join(small!.dir, 'filler'), Buffer.alloc(64 * 1024));
    } catch {
      // ENOSPC: full now
    }
    const page = join(small!.dir, 'report.html');
    const run = await runCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--report',
      page,
    ]);
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toContain(
      `Could not write ${page}: the disk is full (ENOSPC); nothing was written to it.`,
    );
    noStackTrace(run.stderr);
    expect(existsSync(page)).toBe(false);
  });
});

describe('a low file limit', () => {
  it('names the limit in one line at every limit too low to start', async () => {
    // Where the limit stops a start depends on what Node itself opens, so the limits are
    // walked up from where Node cannot boot to the first one svc-cli serves at: each one in
    // between must end with exit 5 and the one line (Node's own failures below, a crash
    // or its own EMFILE on the entry script, are no svc-cli run: it never loaded)
    const said: number[] = [];
    for (let limit = 16; limit <= 64; limit++) {
      const run = await startAtLimit(limit);
      if (run.started) break;
      if (run.signal !== null || /open '[^']*bin\/svc-cli\.js'/.test(run.stderr)) continue;
      expect(run.code, run.stderr).toBe(5);
      expect(run.stderr.trim().split('\n')[0]).toMatch(
        new RegExp(`too many open files \\(EMFILE: the limit, ulimit -n, is ${limit}\\); raise it`),
      );
      noStackTrace(run.stderr);
      said.push(limit);
    }
    expect(said.length).toBeGreaterThan(0);
  });

  it('serves 200 concurrent clients under ulimit -n 128, counting what it refused', async () => {
    const run = await startPlatform([], 128);
    let answered = 0;
    let refused = 0;
    // 200 clients with a connection each; a refused connection is tried again (bounded)
    await Promise.all(
      Array.from({ length: 200 }, async (_, client) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        for (let i = 0; i < 3; i++) {
          let tries = 0;
          while (!(await post(`${run.url}/c${client}/${i}`, '{}', agent))) {
            refused++;
            if (++tries > 500) throw new Error('never served');
          }
          answered++;
        }
        agent.destroy();
      }),
    );
    expect(answered).toBe(600);
    expect(await post(`${run.url}/after`, '{}')).toBe(true);
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    if (refused > 0) {
      const said = notices(run.stderr());
      expect(said).toContainEqual(
        expect.stringMatching(/^refusing new connections beyond 64 open ones/),
      );
      expect(said).toContainEqual(expect.stringMatching(/^\d+ connections? refused/));
    }
    noStackTrace(run.stderr());
  });
});

/** `platform` under `ulimit -n <limit>`: it started (then stopped), or its exit and stderr. */
async function startAtLimit(
  limit: number,
): Promise<{ started: boolean; code: number | null; signal: string | null; stderr: string }> {
  const child = spawn(
    'bash',
    [
      '-c',
      `ulimit -n ${limit}; exec "$0" bin/svc-cli.js platform --port 0 --no-console`,
      process.execPath,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  let started = false;
  child.stdout.once('data', () => {
    started = true;
    child.kill('SIGINT');
  });
  const [code, signal] = await new Promise<[number | null, string | null]>((done) =>
    child.once('exit', (exitCode, exitSignal) => done([exitCode, exitSignal])),
  );
  return { started, code, signal: started ? null : signal, stderr };
}

/** What stderr said, line by line: with --json each note is a typed `notice` object. */
function notices(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      try {
        const parsed = JSON.parse(l) as { type?: string; message?: string };
        return parsed.type === 'notice' && typeof parsed.message === 'string' ? parsed.message : l;
      } catch {
        return l;
      }
    });
}

describe('a record file an earlier run left with a cut last line', () => {
  it('drops the cut part, says so in one line, and appends on a new line', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-cut-')), 'run.ndjson');
    const first = await startPlatform(['--record', file]);
    expect(await post(`${first.url}/before`, '{}')).toBe(true);
    first.child.kill('SIGINT');
    expect(await first.exited).toBe(130);
    const whole = readFileSync(file, 'utf8');
    // what a kill inside a write leaves: the start of a record, no newline
    appendFileSync(file, whole.slice(0, 40));
    const then = new Date(Date.now() - 60_000); // left by a run killed a minute ago
    utimesSync(file, then, then);
    const next = await startPlatform(['--record', file]);
    expect(await post(`${next.url}/after`, '{}')).toBe(true);
    next.child.kill('SIGINT');
    expect(await next.exited).toBe(130);
    expect(notices(next.stderr())).toContainEqual(
      `${file} ended in a cut line (40 bytes: an earlier run was killed while it wrote); it was dropped, and the records before it are kept.`,
    );
    expect(wholeLines(file).map((r) => new URL(r.request.url).pathname)).toEqual([
      '/before',
      '/after',
    ]);
  });
});

describe('SIGKILL mid-load', () => {
  for (const mode of ['batched', 'write'] as const) {
    it(`leaves whole lines but a cut last one, which the next run drops${mode === 'write' ? ' and every acknowledged exchange (--record-sync)' : ''}`, async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'svc-kill-')), 'run.ndjson');
      const args = ['--record', file, ...(mode === 'write' ? ['--record-sync'] : [])];
      const run = await startPlatform(args);
      const acknowledged: string[] = [];
      let stop = false;
      const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
      const clients = Array.from({ length: 20 }, async (_, client) => {
        for (let i = 0; !stop; i++) {
          const path = `/k/${client}/${i}`;
          if (await post(`${run.url}${path}`, `{"n":${i}}`, agent)) acknowledged.push(path);
          // the kill comes once 2,000 exchanges were acknowledged
          if (acknowledged.length === 2000) {
            run.child.kill('SIGKILL');
            stop = true;
          }
        }
      });
      await Promise.all(clients);
      agent.destroy();
      await run.exited;
      // the kill may land inside a write, which Linux stops between pages: the last line may
      // be cut (never one before it), and that line was not acknowledged
      const records = linesBeforeACut(file);
      expect(records.length).toBeGreaterThan(0);
      if (mode === 'write') {
        const recorded = new Set(records.map((r) => new URL(r.request.url).pathname));
        expect(acknowledged.filter((p) => !recorded.has(p))).toEqual([]);
      }
      // the next run appending to the file drops a cut line first: then every line is whole
      // (a run a second or more later: a fresher tail may be another writer's write in progress)
      const then = new Date(Date.now() - 60_000);
      utimesSync(file, then, then);
      const next = await startPlatform(['--record', file]);
      expect(await post(`${next.url}/after-the-kill`, '{}')).toBe(true);
      next.child.kill('SIGINT');
      expect(await next.exited).toBe(130);
      const after = wholeLines(file);
      expect(after.slice(0, records.length)).toEqual(records);
      expect(new URL(after.at(-1)!.request.url).pathname).toBe('/after-the-kill');
    });
  }
});
