/**
 * docs/drift.md says what `--record` writes on each command of the drift workflow as the
 * commands do it: `replay --record` refuses a `.har` name, so the page must not promise HAR
 * for the simulator's side, and it says which side of `record diff a b` is the real platform.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/run-cli.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';

const page = readFileSync(join(repoRoot, 'docs/drift.md'), 'utf8').replace(/\s+/g, ' ');

describe('docs/drift.md: recordings', () => {
  it('says replay --record writes NDJSON only, as replay does', async () => {
    expect(page).toContain('`replay --record` writes NDJSON only');
    expect(page).not.toContain('`.har` works too');
    const test = createTestContext({ cwd: repoRoot });
    const code = await runInProcess(test, [
      'replay',
      'fixtures/conversations/bot-text.json',
      '--record',
      'sim.har',
    ]);
    expect(code).toBe(2);
    expect(test.stderr()).toContain('SVC_E_FLAG');
  });

  it("says record profile cannot tell a replay against the user's own peer from a platform", () => {
    // the page's own sim.ndjson comes from `replay --integrator-url`: its simulator serves on a
    // socket, with no /_sim/ call nor in-process host, so no warning names the file
    expect(page).toContain("yes (warns when the file shows it is the simulator's, below)");
    expect(page).toContain(
      'nor can a `replay --integrator-url` (or `--bot-url`, `--hook-url`) run, whose simulator serves your peer on a socket, as `sim.ndjson` above: no warning names it',
    );
  });

  it('says where record profile --json --out puts its warnings, as it does', async () => {
    expect(page).toContain(
      'with `--out` too, the profile goes to its file and stdout stays empty, each warning a `{"type":"notice","level":"warning"}` line on stderr',
    );
    const dir = mkdtempSync(join(tmpdir(), 'svc-docs-drift-'));
    try {
      // an in-process replay's recording: a file record profile names as the simulator's
      const replayed = createTestContext({ cwd: dir });
      const fixture = join(repoRoot, 'fixtures/conversations/text-both-ways.json');
      expect(await runInProcess(replayed, ['replay', fixture, '--record', 'sim.ndjson'])).toBe(0);
      const test = createTestContext({ cwd: dir });
      const code = await runInProcess(test, [
        'record',
        'profile',
        'sim.ndjson',
        '--out',
        'sim.profile.json',
        '--json',
      ]);
      expect(code).toBe(0);
      expect(test.stdout()).toBe('');
      const notices = test
        .stderr()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(notices).toContainEqual(expect.objectContaining({ type: 'notice', level: 'warning' }));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says which side of record diff a b is the real platform', () => {
    expect(page).toContain(
      "Give the real platform's recording first (`a`) and the simulator's second (`b`)",
    );
  });
});
