import { describe, expect, it } from 'vitest';
import { DEFAULT_REPLAY_CONCURRENCY } from '../../../src/conversation/replay-all.js';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

describe('replay --concurrency', () => {
  it('is in --help with its default, the real-peer rule and an example', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runInProcess(t, ['replay', '--help'])).toBe(0);
    const help = t.stdout().replace(/\s+/g, ' ');
    expect(help).toContain(`--concurrency <n> conversations replayed at once`);
    expect(help).toContain(`(default ${DEFAULT_REPLAY_CONCURRENCY}; 1 with a real peer)`);
    expect(help).toContain('a real peer may not handle parallel conversations');
    expect(help).toContain('$ svc-cli replay --concurrency 1');
  });

  it.each([
    ['0', 'must be at least 1'],
    ['-1', 'must be at least 1'],
    ['2.5', 'must be a whole number'],
    ['four', 'must be a number'],
    ['', 'must be a number'],
  ])('rejects %j with exit 2 before replaying', async (value, problem) => {
    const t = createTestContext({ cwd: process.cwd() });
    expect(await runInProcess(t, ['replay', '--concurrency', value])).toBe(2);
    expect(t.stderr()).toContain(`Could not use --concurrency "${value}": ${problem}.`);
    expect(t.stdout()).toBe('');
  });
});
