import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, repoRoot, runCli } from '../helpers/run-cli.js';

const project = join(repoRoot, 'test/examples/mutate-project');
/** the example's own suites run as its users would: `vitest run <file>` in its folder */
const vitest = [process.execPath, join(repoRoot, 'node_modules/vitest/vitest.mjs'), 'run'];

/**
 * A handful of the catalogue, one per family the example's bridge touches and one it never
 * does (hooks): the full run over every mutant is bench/mutate.js's.
 */
const SAMPLE = [
  'customer-500-once',
  'status-inverted',
  'duplicate-agent-message',
  'redeliver-early',
  'cut-at-1001',
  'no-chat-finished',
];

interface MutantLine {
  type: string;
  name: string;
  outcome: 'killed' | 'survived' | 'timeout';
}

function outcomes(stdout: string): {
  by: Record<string, string>;
  summary: Record<string, unknown>;
} {
  const lines = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as MutantLine & Record<string, unknown>);
  const by = Object.fromEntries(
    lines.filter((l) => l.type === 'mutant-result').map((l) => [l.name, l.outcome]),
  );
  return { by, summary: lines.find((l) => l.type === 'summary') ?? {} };
}

describe('svc-cli mutate', () => {
  it('--list prints the catalogue with each spec section and survivor meaning', async () => {
    const text = await runCli(['mutate', '--list']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('redeliver-early  redelivery, spec 8');
    expect(text.stdout).toMatch(
      /survivor: your tests would not notice the platform delivering an agent message twice/,
    );
    const json = await runCli(['--json', 'mutate', '--list', '--only', 'hooks']);
    const names = json.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { name: string }).name);
    expect(names).toContain('no-chat-finished');
    expect(names.length).toBeGreaterThan(3);
    // a section, less a name and a family
    const section = await runCli([
      '--json',
      'mutate',
      '--list',
      '--only',
      'spec 8',
      '--skip',
      'redeliver-early,limits',
    ]);
    expect(
      section.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { name: string }).name),
    ).toEqual(['skip-third-attempt', 'extra-attempt', 'no-redelivery', 'bot-redeliver-early']);
  });

  it('kills and spares by name: an integrator script that starts svc-cli platform', async () => {
    const result = await runCli(
      [
        '--json',
        'mutate',
        '--only',
        'customer-500-once,status-inverted,unknown-channel-200',
        '--jobs',
        '3',
        '--min-score',
        '80',
        '--',
        'node',
        'platform-check.mjs',
      ],
      { cwd: project },
    );
    expect(result.stderr).toContain('below --min-score 80%');
    expect(result.code).toBe(1);
    const { by, summary } = outcomes(result.stdout);
    expect(by).toEqual({
      'customer-500-once': 'killed',
      'status-inverted': 'killed',
      'unknown-channel-200': 'survived',
    });
    expect(summary).toMatchObject({
      score: 66.6,
      killed: 2,
      survived: 1,
      total: 3,
      survivors: ['unknown-channel-200'],
    });
  });

  it('the vitest + msw example, weak suite: a low score that names its survivors', async () => {
    const result = await runCli(
      [
        '--json',
        'mutate',
        '--only',
        SAMPLE.join(','),
        '--jobs',
        '2',
        '--',
        ...vitest,
        'weak.test.mjs',
      ],
      { cwd: project },
    );
    expect(result.code).toBe(0);
    const { by, summary } = outcomes(result.stdout);
    // it sends a message, sees an answer arrive and the chat button shown, and checks no more
    expect(by).toEqual({
      'customer-500-once': 'killed',
      'status-inverted': 'killed',
      'duplicate-agent-message': 'survived',
      'redeliver-early': 'survived',
      'cut-at-1001': 'survived',
      'no-chat-finished': 'survived',
    });
    expect(summary).toMatchObject({
      score: 33.3,
      survivors: ['redeliver-early', 'duplicate-agent-message', 'cut-at-1001', 'no-chat-finished'],
    });
  });

  it('the vitest + msw example, strong suite: every channel mutant killed; what its recording never reached unrun; JUnit and HTML', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mutate-'));
    const recording = join(dir, 'strong.ndjson');
    // the suite run once as usual, writing what the msw handlers journaled (harness.mjs)
    const recorded = await new Promise<number | null>((done) =>
      spawn(vitest[0]!, [...vitest.slice(1), 'strong.test.mjs'], {
        cwd: project,
        env: { ...process.env, SHOP_RECORD: recording },
        stdio: 'ignore',
      }).on('exit', done),
    );
    expect(recorded).toBe(0);
    const result = await runCli(
      [
        'mutate',
        '--only',
        SAMPLE.join(','),
        '--jobs',
        '2',
        '--coverage',
        recording,
        '--min-score',
        '100',
        '--junit',
        join(dir, 'mutants.xml'),
        '--report',
        join(dir, 'mutants.html'),
        '--',
        ...vitest,
        'strong.test.mjs',
      ],
      { cwd: project },
    );
    expect(result.stderr).toContain(`JUnit written to ${join(dir, 'mutants.xml')}: 6 mutants`);
    expect(result.stderr).toMatch(/HTML report written to .*: 6 mutants, \d+ conversations of the/);
    expect(result.code).toBe(0);
    for (const name of SAMPLE.slice(0, -1))
      expect(result.stdout).toMatch(new RegExp(`^killed {4}${name} `, 'm'));
    // the bridge takes no hooks: the recording has no chat_finished to lose
    expect(result.stdout).toContain(
      'no-chat-finished (spec 6.2): never exercised by the recorded run',
    );
    expect(result.stdout).toContain(
      'mutation score 100.0% (5 killed, 0 timed out, 0 survived of 5; 1 never exercised, not run)',
    );
    const xml = readFileSync(join(dir, 'mutants.xml'), 'utf8');
    expect(xml).toContain('<property name="mutation.score" value="100"/>');
    expect(xml).toMatch(
      /<testcase name="redeliver-early \(spec 8\)" classname="svc-cli mutate.redelivery" time="[\d.]+"><\/testcase>/,
    );
    expect(xml).toContain('<skipped message="never exercised by the recorded run: not run"/>');
    expect(xml).toMatch(
      /<testcase name="mutation score &gt;= 100%" classname="svc-cli mutate"><\/testcase>/,
    );
    expect(xml).not.toContain('<failure');
    // the trace report's page: a card per mutant, then the recorded run's conversations
    const html = readFileSync(join(dir, 'mutants.html'), 'utf8');
    expect(html.match(/<section class="conv mutant/g)).toHaveLength(6);
    expect(html).toContain('data-outcome="not-exercised"');
    expect(html).toMatch(/<section class="conv" id="c-/);
    expect(html).toContain('mutation score <b>100.0%</b>');
  });

  it('--junit fails each survivor with what it means; a report that cannot be written stops first', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-mutate-'));
    const result = await runCli(
      [
        'mutate',
        '--only',
        'customer-500-once,unknown-channel-200',
        '--min-score',
        '80',
        '--junit',
        join(dir, 'mutants.xml'),
        '--',
        'node',
        'platform-check.mjs',
      ],
      { cwd: project },
    );
    expect(result.code).toBe(1);
    const xml = readFileSync(join(dir, 'mutants.xml'), 'utf8');
    expect(xml).toContain('tests="3" failures="2"');
    expect(xml).toContain(
      '<failure message="your tests never send to a wrong channel URL and expect the 404" type="MutantSurvived">',
    );
    expect(xml).toContain('type="MutationScoreBelowMinimum"');
    const nowhere = await runCli(
      ['mutate', '--report', join(dir, 'no-such-folder/r.html'), '--', 'node', '-e', '0'],
      { cwd: project },
    );
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toContain('Could not use --report');
    expect(nowhere.stderr).not.toContain('clean run');
  });

  const pytest =
    spawnSync('python3', ['-m', 'pytest', '--version'], { stdio: 'ignore' }).status === 0;
  it.skipIf(!pytest)(
    pytest
      ? 'the pytest example starting svc-cli platform: killed and survived by name'
      : 'the pytest example: skipped, `python3 -m pytest` is not available on this machine',
    async () => {
      const result = await runCli(
        [
          '--json',
          'mutate',
          '--only',
          'customer-500-once,status-inverted,flip-chunked,redeliver-early,drop-agent-photo,cut-at-1001',
          '--jobs',
          '2',
          '--',
          'python3',
          '-m',
          'pytest',
          '-q',
        ],
        { cwd: join(project, 'python'), env: { PYTHONDONTWRITEBYTECODE: '1' } },
      );
      expect(result.code).toBe(0);
      const { by, summary } = outcomes(result.stdout);
      expect(by).toEqual({
        'customer-500-once': 'killed',
        'status-inverted': 'killed',
        // the bridge reads only Content-Length bodies: the bug the example shows
        'flip-chunked': 'killed',
        'redeliver-early': 'survived',
        'drop-agent-photo': 'survived',
        'cut-at-1001': 'survived',
      });
      expect(summary).toMatchObject({
        score: 50,
        survivors: ['redeliver-early', 'drop-agent-photo', 'cut-at-1001'],
      });
    },
  );

  it('a replayed conversation kills what it pins; --coverage leaves the unexercised unrun', async () => {
    const fixture = join(repoRoot, 'fixtures/conversations/redelivery-recovered.json');
    const recording = join(mkdtempSync(join(tmpdir(), 'svc-mutate-')), 'run.ndjson');
    expect((await runCli(['replay', '--record', recording, fixture])).code).toBe(0);
    const result = await runCli([
      'mutate',
      '--only',
      'skip-third-attempt,extra-attempt,drop-agent-typing',
      '--coverage',
      recording,
      '--min-score',
      '90',
      '--',
      process.execPath,
      bin,
      'replay',
      fixture,
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^clean run passed in/);
    expect(result.stdout).toMatch(/killed {4}skip-third-attempt \(spec 8\)/);
    // the series recovers on attempt 3 and no agent types: neither can be seen by this run
    expect(result.stdout).toContain('extra-attempt (spec 8): never exercised by the recorded run');
    expect(result.stdout).toContain('drop-agent-typing (spec 2.3): never exercised');
    expect(result.stdout).toContain(
      'mutation score 100.0% (1 killed, 0 timed out, 0 survived of 1; 2 never exercised, not run)',
    );
  });

  it('replay --mutant runs the conversations against it; an unknown name exits 2', async () => {
    const fixture = join(repoRoot, 'fixtures/conversations/redelivery-recovered.json');
    const mutated = await runCli(['replay', '--mutant', 'skip-third-attempt', fixture]);
    expect(mutated.code).toBe(1);
    const unknown = await runCli(['replay', '--mutant', 'skip-3rd-attempt', fixture]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('SVC_E_UNKNOWN_MUTANT');
  });

  it('refuses to run mutants when the clean run fails (exit 2)', async () => {
    const result = await runCli(['mutate', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_MUTATE_CLEAN_RUN');
  });
});
