import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bin, runCli } from '../helpers/run-cli.js';

/** One recording of the bundled fixtures, replayed on the virtual clock (about a second). */
const dir = mkdtempSync(join(tmpdir(), 'svc-coverage-'));
const recording = join(dir, 'run.ndjson');

describe('svc-cli coverage', () => {
  beforeAll(async () => {
    const replay = await runCli(['replay', '--record', recording]);
    expect(replay.code).toBe(0);
  });

  it('prints a table per interface with a figure, and exits 0 without a floor', async () => {
    const result = await runCli(['coverage', recording]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^contract coverage of \d+ exchanges \(1 recording\)/);
    // the bundled page fixture records widget traffic, so every interface has a figure
    for (const head of ['A chat channel', 'B bot', 'C widget', 'D event hooks', 'overall'])
      expect(result.stdout).toMatch(new RegExp(`${head}\\s+\\d+\\.\\d%`));
    expect(result.stdout).not.toContain('not recorded (not counted)');
  });

  it('--uncovered lists each gap under its own category, not after the last one', async () => {
    const result = await runCli(['coverage', recording, '--uncovered']);
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const categoryOver = (label: string): string | undefined => {
      const at = lines.findIndex((l) => l.startsWith(`    - ${label}`));
      expect(at, label).toBeGreaterThan(0);
      return lines
        .slice(0, at)
        .reverse()
        .find((l) => /^ {2}\S/.test(l))
        ?.trim()
        .split(/\s{2,}/)[0];
    };
    // a kind the replay never sends, and a field form: each under its category's line
    expect(categoryOver('channel.agent.video (platform -> integrator)')).toBe('kinds');
    expect(categoryOver('channel.customer: sender.id as a number')).toBe('forms');
  });

  it('says an interface the recording never touched is not counted', async () => {
    const one = join(dir, 'one.ndjson');
    const replay = await runCli([
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--record',
      one,
    ]);
    expect(replay.code).toBe(0);
    const result = await runCli(['coverage', one]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/C widget\s+-\s+not recorded \(not counted\)/);
  });

  it('says how to gate on the channel when a run exercised nothing of the bot or the hooks', async () => {
    // an integrator's session: one customer message, as platform --record journals it
    const one = join(dir, 'integrator.ndjson');
    const record = {
      type: 'exchange',
      seq: 1,
      run: 'r1',
      at: new Date(1_700_000_000_000).toISOString(),
      protocolMs: 0,
      iface: 'channel',
      direction: 'in',
      kind: 'channel.customer.text',
      chat: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:1/r/ch',
        body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    };
    writeFileSync(one, `${JSON.stringify(record)}\n`);
    const result = await runCli(['coverage', one]);
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toBe(
      'nothing of B, D was exercised: a party that faces only A gates on it with --interface A',
    );
    const gated = await runCli(['coverage', one, '--interface', 'A']);
    expect(gated.stdout).not.toContain('nothing of');
  });

  it('gates with --min (exit 1 below, 0 at or above) and writes JUnit properties', async () => {
    const junit = join(dir, 'coverage.xml');
    const below = await runCli(['coverage', recording, '--min', '99', '--junit', junit]);
    expect(below.code).toBe(1);
    expect(below.stderr).toContain('is below --min 99%');
    const xml = readFileSync(junit, 'utf8');
    expect(xml).toMatch(/<property name="coverage.overall" value="[\d.]+"\/>/);
    expect(xml).toContain('<property name="coverage.B.timing"');
    expect(xml).toContain('type="CoverageBelowMinimum"');
    // the gate keeps its name when --min changes (CI keeps history by name): --min is a property
    expect(xml).toContain('<testcase name="contract coverage" classname="svc-cli coverage">');
    expect(xml).toContain('<property name="coverage.min" value="99"/>');
    const above = await runCli(['coverage', recording, '--min', '1']);
    expect(above.code).toBe(0);
  });

  it('2>&1 on one pipe: the table, then the notes after it, in the order they were written', async () => {
    const junit = join(dir, 'order.xml');
    // stdout and stderr on one pipe, as a CI log or `| less` shows them
    const child = spawn(
      'sh',
      [
        '-c',
        `exec "${process.execPath}" "${bin}" coverage "${recording}" --min 99 --junit "${junit}" 2>&1`,
      ],
      {
        env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    const [code] = (await once(child, 'close')) as [number];
    expect(code).toBe(1);
    const lines = output.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^contract coverage of \d+ exchanges \(1 recording\)$/);
    expect(lines.slice(-3)).toEqual([
      expect.stringMatching(/^overall\s+[\d.]+%/),
      `JUnit properties written to ${junit}`,
      expect.stringMatching(/^coverage [\d.]+% \(\d+\/\d+\) is below --min 99%$/),
    ]);
  });

  it('--interface keeps the interfaces named: the table, the overall figure and --min', async () => {
    const hooks = await runCli(['--json', 'coverage', recording, '--interface', 'hooks']);
    expect(hooks.code).toBe(0);
    const report = JSON.parse(hooks.stdout) as {
      groups: Array<{ iface: string; covered: number; total: number }>;
      overall: { covered: number; total: number };
    };
    expect(report.groups.map((g) => g.iface)).toEqual(['D']);
    expect(report.overall).toMatchObject({
      covered: report.groups[0]!.covered,
      total: report.groups[0]!.total,
    });
    const two = await runCli(['coverage', recording, '--interface', 'A', '--interface', 'd']);
    expect(two.stdout).toMatch(/A chat channel/);
    expect(two.stdout).not.toMatch(/B bot|C widget/);
    const wrong = await runCli(['coverage', recording, '--interface', 'E']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Could not use --interface: "E" is not an interface.');
  });

  it('refuses a --junit file in a missing folder before reading anything (exit 2)', async () => {
    const result = await runCli(['coverage', recording, '--junit', join(dir, 'nodir', 'c.xml')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_FLAG');
    expect(result.stderr).toContain('Create the folder first');
    // no table printed and then a failed write: the run stops before it starts
    expect(result.stdout).toBe('');
  });

  it('gates --min on the exact ratio, not the one-decimal figure the table shows', async () => {
    const json = await runCli(['--json', 'coverage', recording]);
    const { overall } = JSON.parse(json.stdout) as {
      overall: { covered: number; total: number; percent: number };
    };
    const exact = (overall.covered / overall.total) * 100;
    // a minimum the exact ratio reaches that its one-decimal figure does not
    const min = Math.floor(exact * 1000) / 1000;
    expect(overall.percent).toBeLessThan(min);
    const at = await runCli(['coverage', recording, '--min', String(min)]);
    expect(at.code).toBe(0);
    const above = Number((min + 0.001).toFixed(3));
    const below = await runCli(['coverage', recording, '--min', String(above)]);
    expect(below.code).toBe(1);
    // the figure to the minimum's decimals: never printed equal to the minimum or above it
    const said = new RegExp(
      `coverage (\\d+\\.\\d+)% \\(${overall.covered}/${overall.total}\\) is below --min ${above}%`,
    ).exec(below.stderr);
    expect(said?.[1]?.split('.')[1]?.length).toBe(String(above).split('.')[1]?.length);
    expect(Number(said?.[1])).toBeLessThan(above);
  });

  it('prints one typed JSON object with --json, and reads stdin', async () => {
    const result = await runCli(['--json', 'coverage', '-'], {
      input: readFileSync(recording, 'utf8'),
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!) as {
      type: string;
      overall: { percent: number };
      items: Array<{ id: string; hits: number }>;
    };
    expect(report.type).toBe('coverage');
    expect(report.overall.percent).toBeGreaterThan(20);
    const hit = (id: string): number => report.items.find((i) => i.id === id)?.hits ?? -1;
    // the bundled fixtures redeliver, exhaust a series, chunk and hand over
    expect(hit('timing:channel:attempt-3')).toBeGreaterThan(0);
    expect(hit('timing:channel:failed')).toBeGreaterThan(0);
    expect(hit('timing:channel:chunked')).toBeGreaterThan(0);
    expect(hit('kind:bot.event.AGENT_UNAVAILABLE')).toBeGreaterThan(0);
    expect(hit('value:hook events:event_name="offline_messages"')).toBe(0);
  });

  it('exits 2 on a file that is no recording', async () => {
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"hello":1}\n');
    const result = await runCli(['coverage', bad]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_RECORDING');
    // named as typed, as a missing or an empty one is, not as the absolute path read
    const relative = await runCli(['coverage', 'bad.ndjson'], { cwd: dir });
    expect(relative.stderr).toContain(
      'Could not read bad.ndjson line 1: it is not an exchange record.',
    );
    writeFileSync(join(dir, 'text.ndjson'), 'not json\n');
    const text = await runCli(['coverage', 'text.ndjson'], { cwd: dir });
    expect(text.code).toBe(2);
    expect(text.stderr).toContain(
      'Could not read text.ndjson: it is neither NDJSON records nor a HAR or journal document.',
    );
  });

  it('names a conversation fixture given for a recording, and how to record one', async () => {
    const result = await runCli(['coverage', 'fixtures/conversations/bot-text.json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'this is a conversation fixture, not a recording: replay it with --record <file> and measure that',
    );
  });

  it('exits 2 on a folder, saying it is one', async () => {
    const result = await runCli(['coverage', dir]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_READ');
    expect(result.stderr).toContain('it is a folder, not a file');
  });
});
