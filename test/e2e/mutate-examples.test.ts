/**
 * The example projects under `svc-cli mutate` at full size (`npm run test:slow`): six mutants
 * each, one per family the bridge touches and one it never does, through the vitest + msw
 * suites (weak and strong, with the strong suite's recording, JUnit and HTML) and the pytest
 * one. About 20 runs of the examples' own suites: `npm test` keeps one small run of each in
 * test/e2e/mutate.test.ts, and the scoring, reports and refusals in-process in
 * test/integration/mutate.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exampleVitest,
  expectFullScoreReports,
  hasPytest,
  mutateProject,
  outcomes,
} from '../helpers/mutate.js';
import { runCli } from '../helpers/run-cli.js';

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

describe('svc-cli mutate on the example projects, full sample', () => {
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
        ...exampleVitest,
        'weak.test.mjs',
      ],
      { cwd: mutateProject },
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
      spawn(exampleVitest[0]!, [...exampleVitest.slice(1), 'strong.test.mjs'], {
        cwd: mutateProject,
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
        ...exampleVitest,
        'strong.test.mjs',
      ],
      { cwd: mutateProject },
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
    expectFullScoreReports(dir, { name: 'redeliver-early', spec: '8', family: 'redelivery' }, 6);
  });

  const pytest = hasPytest();
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
        { cwd: join(mutateProject, 'python'), env: { PYTHONDONTWRITEBYTECODE: '1' } },
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
});
