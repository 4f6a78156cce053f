import { describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/main.js';
import { createTestContext } from '../../helpers/cli-context.js';

describe('a mistyped argument choice gets a suggestion, as commands and flags do', () => {
  it('conform integratr: (Did you mean integrator?), exit 2', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runCli(['conform', 'integratr'], t.ctx);
    expect(code).toBe(2);
    expect(t.stderr()).toMatch(/'integratr' is invalid[\s\S]*\(Did you mean integrator\?\)/);
  });

  it('--json: the suggestion is in the error line', async () => {
    const t = createTestContext({ cwd: process.cwd() });
    const code = await runCli(['--json', 'conform', 'hoks'], t.ctx);
    expect(code).toBe(2);
    expect(t.stdout()).toContain('(Did you mean hooks?)');
  });
});
