/**
 * What CI publishes: the HTML report lists every replayed run, an empty recording fails
 * trace / report / coverage (exit 2), and an unreachable --file server is exit 3.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { freePort } from '../helpers/free-port.js';

const dir = () => mkdtempSync(path.join(tmpdir(), 'svc-ci-reports-'));

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
