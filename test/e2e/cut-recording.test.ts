/** A recording cut short (a kill mid-write): every command reading it says so, once, and goes on. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let whole: string;
let cut: string;
/** the number of the cut line, counted from 1 */
let cutLine: number;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cut-recording-'));
  whole = join(dir, 'whole.ndjson');
  const replay = await runCli([
    'replay',
    'fixtures/conversations/text-both-ways.json',
    '--record',
    whole,
  ]);
  expect(replay.code, replay.stderr).toBe(0);
  const lines = readFileSync(whole, 'utf8').trimEnd().split('\n');
  expect(lines.length).toBeGreaterThan(1);
  // the last record half written, as a kill leaves it
  const last = lines.at(-1) ?? '';
  cutLine = lines.length;
  cut = join(dir, 'cut.ndjson');
  writeFileSync(cut, [...lines.slice(0, -1), last.slice(0, last.length / 2)].join('\n'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The warnings, but for record profile's that a replay's recording is the simulator's own (this
 * one is; test/e2e/record-profile-sources.test.ts pins it): here only the cut line counts.
 */
const warnings = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('warning: ') && !line.includes("svc-cli's own simulator"));

describe('a recording whose last line was cut', () => {
  it.each([
    ['trace', () => ['trace', cut]],
    ['report', () => ['report', cut, '--out', join(dir, 'report.html')]],
    ['coverage', () => ['coverage', cut]],
    ['record to-fixture', () => ['record', 'to-fixture', cut, '--out', join(dir, 'fx.json')]],
    ['record profile', () => ['record', 'profile', cut, '--out', join(dir, 'profile.json')]],
  ])('%s: one warning naming the lines skipped and the first, exit 0', async (_, args) => {
    const run = await runCli(args());
    expect(run.code, run.stderr).toBe(0);
    expect(warnings(run.stderr)).toEqual([
      `warning: ${cut}: skipped 1 line not a journal record, the first at line ${cutLine} (a recording cut short, by a kill or a full disk, ends in a partial line)`,
    ]);
  });

  it('record diff: one warning for each side it was given, exit 0', async () => {
    const run = await runCli(['record', 'diff', cut, cut]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('no differences');
    const warning = `warning: ${cut}: skipped 1 line not a journal record, the first at line ${cutLine} (a recording cut short, by a kill or a full disk, ends in a partial line)`;
    expect(warnings(run.stderr)).toEqual([warning, warning]);
  });

  it('coverage --json says it as a notice object', async () => {
    const run = await runCli(['coverage', cut, '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stderr.trim())).toMatchObject({
      type: 'notice',
      level: 'warning',
      message: expect.stringContaining(
        `skipped 1 line not a journal record, the first at line ${cutLine}`,
      ),
    });
  });

  it.each([
    ['trace', (f: string) => ['trace', f]],
    ['report', (f: string) => ['report', f, '--out', join(dir, 'first-report.html')]],
    ['record profile', (f: string) => ['record', 'profile', f, '--out', join(dir, 'first.json')]],
  ])('%s: a bad first line is not called a cut end, exit 0', async (_, args) => {
    const first = join(dir, 'first-line.ndjson');
    writeFileSync(first, `${'x'.repeat(4096)}\n${readFileSync(whole, 'utf8')}`);
    const run = await runCli(args(first));
    expect(run.code, run.stderr).toBe(0);
    expect(warnings(run.stderr)).toEqual([
      `warning: ${first}: skipped 1 line not a journal record, the first at line 1 (a journal record comes after it, so the file was not just cut short: it was edited, joined to another, or appended to after a kill)`,
    ]);
  });

  it('record diff and record profile refuse a file with no record in it as trace does (exit 2)', async () => {
    const garbage = join(dir, 'garbage.ndjson');
    writeFileSync(garbage, 'not a recording\n');
    const says = `${garbage} as a journal: its one line is not a journal record.`;
    for (const args of [
      ['trace', garbage],
      ['record', 'diff', garbage, whole],
      ['record', 'diff', whole, garbage],
      ['record', 'profile', garbage],
    ]) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(says);
    }
  });
});
