import { describe, expect, it } from 'vitest';
import { createTestContext, runInProcess } from '../../helpers/cli-context.js';

describe('replay --platform-url refuses what only the embedded platform does', () => {
  it('--record: exit 2 before replaying, pointing at the simulator own --record', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runInProcess(t, [
      'replay',
      'fixtures/conversations/text-both-ways.json',
      '--platform-url',
      'http://127.0.0.1:1',
      '--record',
      'session.ndjson',
    ]);
    expect(code).toBe(2);
    expect(t.stderr()).toContain(
      'Could not record to session.ndjson: --platform-url replaces the embedded platform, whose exchanges --record writes.',
    );
    expect(t.stderr()).toContain('svc-cli platform --record session.ndjson');
    expect(t.stdout()).toBe('');
  });
});
