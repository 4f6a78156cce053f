/**
 * Every command that takes a recording reads it through one reader: `-` for stdin and a saved
 * `GET /_sim/journal` answer work for each of them as they do for `coverage` (a newcomer's
 * `cat session.ndjson | svc-cli trace -` read a file named `-`, and a saved journal answer
 * was "none of its 1 line is a journal record").
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let recording: string;
let text: string;
/** the recording as `GET /_sim/journal` answers it: one line, no newline at its end */
let journal: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-inputs-e2e-'));
  recording = join(dir, 'session.ndjson');
  const replay = await runCli([
    'replay',
    'fixtures/conversations/text-both-ways.json',
    '--record',
    recording,
  ]);
  expect(replay.code, replay.stderr).toBe(0);
  text = readFileSync(recording, 'utf8');
  const entries = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown);
  journal = join(dir, 'journal.json');
  writeFileSync(
    journal,
    JSON.stringify({
      count: entries.length,
      recording: { state: 'off', sync: 'batched', written: 0, notWritten: 0 },
      entries,
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('- reads the recording from stdin', () => {
  it('trace -', async () => {
    const run = await runCli(['trace', '-'], { input: text });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('#2 agent.text attempt 1');
    expect(run.stderr).toContain('1 conversation, 2 exchanges');
  });

  it('report -', async () => {
    const out = join(dir, 'stdin.html');
    const run = await runCli(['report', '-', '--out', out], { input: text });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('svc-cli report: stdin');
  });

  it('record to-fixture -', async () => {
    const run = await runCli(['record', 'to-fixture', '-'], { input: text });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'recorded stdin' });
  });

  it('record diff - b, and record profile - b; - twice is a usage error', async () => {
    const diff = await runCli(['record', 'diff', '-', recording], { input: text });
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('a: stdin (2 exchanges, 2 kinds)');
    const profile = await runCli(['record', 'profile', '-', recording], { input: text });
    expect(profile.code, profile.stderr).toBe(0);
    expect(JSON.parse(profile.stdout)).toMatchObject({ name: 'stdin' });
    const twice = await runCli(['record', 'diff', '-', '-'], { input: text });
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain(
      'error [SVC_E_USAGE] Could not read - twice: stdin holds one recording.',
    );
  });
});

describe('a saved GET /_sim/journal answer is a recording', () => {
  it('trace, record to-fixture and record diff read it as coverage does', async () => {
    const trace = await runCli(['trace', journal]);
    expect(trace.code, trace.stderr).toBe(0);
    expect(trace.stderr).toContain('1 conversation, 2 exchanges');
    const fixture = await runCli(['record', 'to-fixture', journal]);
    expect(fixture.code, fixture.stderr).toBe(0);
    const diff = await runCli(['record', 'diff', journal, recording]);
    expect(diff.code, diff.stderr).toBe(0);
    expect(diff.stdout).toContain('no differences');
    const coverage = await runCli(['coverage', journal]);
    expect(coverage.code, coverage.stderr).toBe(0);
  });

  it('from stdin too', async () => {
    const run = await runCli(['trace', '-', '--json'], { input: readFileSync(journal, 'utf8') });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"type":"summary","conversations":1');
  });
});

describe('a recording with no conversation in it', () => {
  it('report says why the page draws none, and what to record instead', async () => {
    // only a status read: before, the page stood empty with "0 conversations"
    const status = join(dir, 'status.ndjson');
    writeFileSync(
      status,
      `${JSON.stringify({
        type: 'exchange',
        seq: 1,
        run: 'r1',
        at: '2026-01-01T00:00:00.000Z',
        protocolMs: 0,
        iface: 'control',
        direction: 'in',
        kind: 'control',
        request: { method: 'GET', url: 'http://127.0.0.1:8800/_sim/state' },
        response: { status: 200, body: '{}' },
      })}\n`,
    );
    const out = join(dir, 'status.html');
    const run = await runCli(['report', status, '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('(1 exchange outside any chat: nothing to draw)');
    expect(readFileSync(out, 'utf8')).toContain(
      'No conversation to draw: its 1 exchange is outside any chat',
    );
    // trace of the same file printed nothing but "0 conversations, 0 exchanges (1 outside
    // any chat)": it says what report's page says
    const traced = await runCli(['trace', status]);
    expect(traced.code, traced.stderr).toBe(0);
    expect(traced.stdout).toBe('');
    expect(traced.stderr).toContain('0 conversations, 0 exchanges (1 outside any chat)');
    expect(traced.stderr).toContain(
      'nothing to draw: its 1 exchange is outside any chat (status checks, control requests, refused messages)',
    );
    expect(traced.stderr).toContain('svc-cli platform --record session.ndjson');
  });
});
