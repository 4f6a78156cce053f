/** A recording cut short (a kill mid-write): every command reading it says so, once, and goes on. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
let cut: string;
/** the number of the cut line, counted from 1 */
let cutLine: number;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-cut-recording-'));
  const whole = join(dir, 'whole.ndjson');
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

const warnings = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => line.startsWith('warning: '));

describe('a recording whose last line was cut', () => {
  it.each([
    ['trace', () => ['trace', cut]],
    ['report', () => ['report', cut, '--out', join(dir, 'report.html')]],
    ['coverage', () => ['coverage', cut]],
    ['record to-fixture', () => ['record', 'to-fixture', cut, '--out', join(dir, 'fx.json')]],
  ])('%s: one warning naming the lines skipped and the first, exit 0', async (_, args) => {
    const run = await runCli(args());
    expect(run.code, run.stderr).toBe(0);
    expect(warnings(run.stderr)).toEqual([
      `warning: ${cut}: skipped 1 line not a journal record, the first at line ${cutLine} (a recording cut short, by a kill or a full disk, ends in a partial line)`,
    ]);
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
});
