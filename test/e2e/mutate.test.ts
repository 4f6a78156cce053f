import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bin, repoRoot, runCli } from '../helpers/run-cli.js';

const project = join(repoRoot, 'test/examples/mutate-project');

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
        '--',
        'node',
        'platform-check.mjs',
      ],
      { cwd: project },
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
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

  it('a replayed conversation kills the redelivery mutants it pins; --min-score gates', async () => {
    const fixture = join(repoRoot, 'fixtures/conversations/redelivery-recovered.json');
    const result = await runCli([
      'mutate',
      '--only',
      'skip-third-attempt,extra-attempt',
      '--jobs',
      '2',
      '--min-score',
      '90',
      '--',
      process.execPath,
      bin,
      'replay',
      fixture,
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^clean run passed in/);
    expect(result.stdout).toMatch(/killed {4}skip-third-attempt \(spec 8\)/);
    // the series recovers on attempt 3: a fourth attempt is never reached
    expect(result.stdout).toMatch(/survived {2}extra-attempt \(spec 8\)/);
    expect(result.stdout).toContain('do they count the attempts of a failed series?');
    expect(result.stdout).toContain(
      'mutation score 50.0% (1 killed, 0 timed out, 1 survived of 2)',
    );
    expect(result.stderr).toContain('below --min-score 90%');
  });

  it('refuses to run mutants when the clean run fails (exit 2)', async () => {
    const result = await runCli(['mutate', '--', process.execPath, '-e', 'process.exit(3)']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('SVC_E_MUTATE_CLEAN_RUN');
  });
});
