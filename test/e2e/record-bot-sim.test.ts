/** `record to-fixture` on a recording of svc-cli's own bot-sim, and a replay where nothing ran. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-record-bot-sim-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** replay `fixture --record`, then `record to-fixture` of that recording */
async function convert(fixture: string, name: string): Promise<{ out: string; stderr: string }> {
  const recording = join(dir, `${name}.ndjson`);
  const replay = await runCli(['replay', fixture, '--record', recording]);
  expect(replay.code, replay.stderr).toBe(0);
  const out = join(dir, `${name}.json`);
  const converted = await runCli(['record', 'to-fixture', recording, '--out', out]);
  expect(converted.code, converted.stderr).toBe(0);
  return { out, stderr: converted.stderr };
}

describe('a recording of the embedded bot-sim', () => {
  it('converts into a fixture that runs against the embedded bot-sim, and passes', async () => {
    const { out } = await convert('fixtures/conversations/bot-text.json', 'bot-text');
    const fixture = JSON.parse(readFileSync(out, 'utf8')) as { tags: string[] };
    expect(fixture.tags).toEqual(['recorded']);
    const replay = await runCli(['replay', out]);
    expect(replay.code, replay.stderr).toBe(0);
    expect(replay.stdout).toMatch(/^✓ recorded bot-text {2}\(.* · 6 steps · /m);
    expect(replay.stdout).toContain('1 passed, 0 failed');
    expect(replay.stdout).not.toContain('skipped');
  });

  it('that failed attempts is said at conversion, and a replay of it says nothing ran', async () => {
    const { out, stderr } = await convert('fixtures/conversations/bot-timeout.json', 'bot-timeout');
    expect(stderr).toContain(
      'warning: the bot in ' +
        join(dir, 'bot-timeout.ndjson') +
        " was svc-cli's bot-sim, but it failed some attempts",
    );
    const replay = await runCli(['replay', out]);
    // checked nothing: a CI job must not go green on it
    expect(replay.code, replay.stderr).toBe(2);
    expect(replay.stdout).toContain('0 passed, 0 failed, 1 skipped');
    expect(replay.stderr.trim()).toBe(
      'warning: nothing ran: the conversation was skipped, so this replay checked nothing (exit 2); each says why',
    );
    // one that ran beside it: the run checked something, and its verdict is theirs
    const both = await runCli(['replay', out, 'fixtures/conversations/bot-text.json']);
    expect(both.code, both.stderr).toBe(0);
    expect(both.stderr).not.toContain('nothing ran');
  });

  it('--json with --out: to-fixture and profile say on stderr notice objects, not plain lines', async () => {
    const recording = join(dir, 'json-notes.ndjson');
    expect(
      (await runCli(['replay', 'fixtures/conversations/bot-text.json', '--record', recording]))
        .code,
    ).toBe(0);
    for (const args of [
      ['record', 'to-fixture', recording, '--out', join(dir, 'json-notes.json')],
      ['record', 'profile', recording, '--out', join(dir, 'json-notes.profile.json')],
    ]) {
      const run = await runCli(['--json', ...args]);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stderr.trim().split('\n');
      const notices = lines.map((line) => JSON.parse(line) as { type: string; message: string });
      expect(notices.every((n) => n.type === 'notice')).toBe(true);
      expect(notices.at(-1)?.message).toMatch(/^(conversation|profile) written to /);
    }
  });

  it('counts each answer to its own message when the bot answered one and handed over at the next', async () => {
    // on replay's virtual clock both messages and both answers are at protocol 0: each
    // message's answer count took the other's answer too (2 and 2), so a recording made in
    // real time (1 and 1) replayed red
    const fixture = join(dir, 'answer-then-handover.json');
    writeFileSync(
      fixture,
      JSON.stringify({
        version: 1,
        name: 'answer, then hand-over',
        setup: { bot: {} },
        steps: [
          { customer: { text: 'hello there', sender: { id: 'c-1' } } },
          { expect: { event: { type: 'bot-message', text: 'You said: hello there' } } },
          { customer: { text: 'I want an operator', sender: { id: 'c-1' } } },
          { expect: { event: { type: 'bot-handover' } } },
        ],
      }),
    );
    const { out } = await convert(fixture, 'answer-then-handover');
    const steps = (JSON.parse(readFileSync(out, 'utf8')) as { steps: Array<{ expect?: unknown }> })
      .steps;
    const counts = steps.flatMap((s) => {
      const answers = (s.expect as { answers?: { count: number } } | undefined)?.answers;
      return answers ? [answers.count] : [];
    });
    expect(counts).toEqual([1, 1]);
    const replay = await runCli(['replay', out]);
    expect(replay.stdout).toContain('1 passed, 0 failed');
    expect(replay.code, replay.stdout).toBe(0);
  });
});
