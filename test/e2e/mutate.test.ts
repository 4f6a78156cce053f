/**
 * `svc-cli mutate` on the example projects (docs/coverage.md), one small run each: the user's
 * own suite, spawned with SVC_MUTANT, kills and spares simulator mutants by name. The scoring,
 * --coverage, JUnit, HTML, timeouts and refusals are test/integration/mutate.test.ts's (in
 * process, with cheap test commands); six mutants through each example, with the strong
 * suite's reports, are test/e2e/mutate-examples.test.ts's (`npm run test:slow`).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { exampleVitest, hasPytest, mutateProject, outcomes } from '../helpers/mutate.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';

describe('svc-cli mutate', () => {
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
      { cwd: mutateProject },
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

  it('the vitest + msw example, weak suite: SVC_MUTANT reaches the msw handlers', async () => {
    const result = await runCli(
      [
        '--json',
        'mutate',
        '--only',
        'customer-500-once,duplicate-agent-message',
        '--jobs',
        '2',
        '--',
        ...exampleVitest,
        'weak.test.mjs',
      ],
      { cwd: mutateProject },
    );
    expect(result.code, result.stderr).toBe(0);
    const { by, summary } = outcomes(result.stdout);
    // it sends a message and sees an answer arrive, and checks no more
    expect(by).toEqual({
      'customer-500-once': 'killed',
      'duplicate-agent-message': 'survived',
    });
    expect(summary).toMatchObject({ score: 50, survivors: ['duplicate-agent-message'] });
  });

  const pytest = hasPytest();
  it.skipIf(!pytest)(
    pytest
      ? 'the pytest example starting svc-cli platform: the bridge reads no chunked body'
      : 'the pytest example: skipped, `python3 -m pytest` is not available on this machine',
    async () => {
      const result = await runCli(
        ['--json', 'mutate', '--only', 'flip-chunked', '--', 'python3', '-m', 'pytest', '-q'],
        { cwd: join(mutateProject, 'python'), env: { PYTHONDONTWRITEBYTECODE: '1' } },
      );
      expect(result.code, result.stderr).toBe(0);
      // the bridge reads only Content-Length bodies: the bug the example shows
      expect(outcomes(result.stdout).by).toEqual({ 'flip-chunked': 'killed' });
    },
  );

  it('replay --mutant runs the conversations against it; an unknown name exits 2', async () => {
    const fixture = join(repoRoot, 'fixtures/conversations/redelivery-recovered.json');
    const mutated = await runCli(['replay', '--mutant', 'skip-third-attempt', fixture]);
    expect(mutated.code).toBe(1);
    const unknown = await runCli(['replay', '--mutant', 'skip-3rd-attempt', fixture]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('SVC_E_UNKNOWN_MUTANT');
  });
});
