/**
 * record profile warns when its recordings are not one real platform's: two that disagree on a
 * learned figure (the real platform's and the simulator's, given as to record diff) would be
 * averaged into a schedule neither keeps, and a replay's recording is the simulator's own.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOT_DELIVERY_POLICY } from '../../src/platform/delivery.js';
import { recordDriftSession } from '../helpers/drift-session.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'svc-profile-sources-'));
  await recordDriftSession(join(dir, 'two.ndjson'));
  await recordDriftSession(join(dir, 'three.ndjson'), {
    bot: { policy: { ...BOT_DELIVERY_POLICY, attempts: 3, failAfterMs: 9000 } },
  });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('svc-cli record profile: recordings of more than one platform (e2e)', () => {
  it('two recordings that disagree: a warning naming the figure and both files', async () => {
    const run = await runCli(['record', 'profile', 'two.ndjson', 'three.ndjson'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(
      'warning: the recordings disagree on bot.attempts: two.ndjson 2, three.ndjson 3; the profile averages them',
    );
    const json = await runCli(['--json', 'record', 'profile', 'two.ndjson', 'three.ndjson'], {
      cwd: dir,
    });
    const profile = JSON.parse(json.stdout.trim()) as { warnings?: unknown[] };
    expect(profile.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          reason: 'disagree',
          figure: 'bot.attempts',
          files: ['two.ndjson', 'three.ndjson'],
          values: [2, 3],
        }),
      ]),
    );
    // recordings that agree: no warning
    const same = await runCli(['record', 'profile', 'two.ndjson', 'two.ndjson'], { cwd: dir });
    expect(same.stderr).not.toContain('warning');
  });

  it("a replay's recording is named as the simulator's", async () => {
    const replay = await runCli(
      [
        'replay',
        join(repoRoot, 'fixtures/conversations/bot-timeout.json'),
        '--record',
        'sim.ndjson',
      ],
      { cwd: dir },
    );
    expect(replay.code, replay.stderr).toBe(0);
    const run = await runCli(['record', 'profile', 'sim.ndjson'], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("warning: sim.ndjson was recorded by svc-cli's own simulator");
  });

  it("a replay's own profile agrees with itself: the hand-over ends its attempts, and replays green", async () => {
    const fixture = join(repoRoot, 'fixtures/conversations/bot-timeout.json');
    const replay = await runCli(['replay', fixture, '--record', 'own.ndjson'], { cwd: dir });
    expect(replay.code, replay.stderr).toBe(0);
    const run = await runCli(['record', 'profile', 'own.ndjson', '--out', 'own.profile.json'], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    // the AGENT_JOINED the conversation's end cut short is no give-up after one attempt
    expect(run.stderr).toContain('bot attempts 2, hand-over after 6000 ms');
    expect(run.stderr).not.toContain('comes before its last attempt ends');
    const again = await runCli(['replay', fixture, '--profile', 'own.profile.json'], { cwd: dir });
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });
});
