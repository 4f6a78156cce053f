/**
 * Replay catches a planted cross-interface bug for the invariants no other replay test plants
 * (test/integration/invariant-table.test.ts lists them all): each conversation fails the
 * `invariants` step naming the rule and both exchanges, and passes once the bug is gone.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { conversationSchema, type ConversationInput } from '../../src/conversation/format.js';
import { loadConversation } from '../../src/conversation/load.js';
import { replayConversation, type ReplayOptions } from '../../src/conversation/runner.js';
import { SPEC_PROFILE, settingsOf } from '../../src/platform/profile.js';
import type { MutantName } from '../../src/platform/mutants.js';
import { createTestContext, runInProcess } from '../helpers/cli-context.js';
import { LATE_HOOK } from '../helpers/late-hook.js';
import { repoRoot } from '../helpers/run-cli.js';

const replay = (input: ConversationInput, more: Partial<ReplayOptions> = {}) =>
  replayConversation({ conversation: conversationSchema.parse(input), ...more });

const invariantsStep = (result: Awaited<ReturnType<typeof replay>>) =>
  result.steps.find((s) => s.name === 'invariants');

describe('replay: planted bugs the invariants catch, and pass when fixed', () => {
  it('bot-after-close: the platform sends the bot its next attempt after CHAT_CLOSED', async () => {
    const steps = (redeliverAfterClose: boolean): ConversationInput['steps'] => [
      { customer: { text: 'hello', sender: { id: 'c-close' } } },
      { expect: { bot: { event: 'CLIENT_MESSAGE' } } },
      ...(redeliverAfterClose ? [] : [{ redeliver: { to: 'bot' as const } }]),
      { close: {} },
      { expect: { bot: { event: 'CHAT_CLOSED' } } },
      { advance: 1000 },
      // the planted bug: a redelivery of the CLIENT_MESSAGE once the bot was told it closed
      ...(redeliverAfterClose ? [{ redeliver: { to: 'bot' as const } }] : []),
    ];
    const conversation = (bug: boolean): ConversationInput => ({
      version: 1,
      name: 'a bot event after CHAT_CLOSED',
      setup: { bot: { events: 'docs' } },
      steps: steps(bug),
    });
    const broken = await replay(conversation(true));
    expect(invariantsStep(broken)).toMatchObject({
      status: 'failed',
      details: [
        'bot-after-close (spec 2.5): #6 CLIENT_MESSAGE attempt 2 at +1.000 s went to the bot after #5 CHAT_CLOSED at +0.000 s [exchanges #5 and #6; --no-invariant bot-after-close switches it off]',
      ],
    });
    expect((await replay(conversation(false))).ok).toBe(true);
  });

  it('hook-after-finish: the platform still assigns a closed chat; without it, it passes', async () => {
    const broken = await replay(LATE_HOOK as ConversationInput);
    expect(invariantsStep(broken)?.details).toEqual([
      expect.stringMatching(
        /^hook-after-finish \(spec 6\.2\): #6 chat_assigned .* after #4 chat_finished/,
      ),
    ]);
    const fixed = { ...LATE_HOOK, steps: LATE_HOOK.steps.slice(0, -1) } as ConversationInput;
    expect((await replay(fixed)).ok).toBe(true);
  });

  it('handover-budget: a platform that asks a silent bot for 9 s instead of 6', async () => {
    const silentBot: ConversationInput = {
      version: 1,
      name: 'a silent bot',
      setup: { bot: { faults: { fault: 'hang' } } },
      steps: [
        { customer: { text: 'hello?', sender: { id: 'c-budget' } } },
        { expect: { event: { type: 'bot-handover' } } },
      ],
    };
    const spec = settingsOf(SPEC_PROFILE);
    // the planted bug: the embedded platform's bot policy makes 3 attempts, judged by spec 8's 6 s
    const broken = await replay(silentBot, {
      settings: { ...spec, botPolicy: { ...spec.botPolicy, attempts: 3, failAfterMs: 9000 } },
      invariants: { botBudgetMs: 6000 },
    });
    expect(invariantsStep(broken)).toMatchObject({
      status: 'failed',
      details: [
        expect.stringMatching(
          /^handover-budget \(spec 8\): the bot was asked for 9\.000 s, from #(\d+) CLIENT_MESSAGE at \+0\.000 s to \+9\.000 s, the end of #(\d+) CLIENT_MESSAGE attempt 3 \(sent at \+6\.000 s\); the hand-over is due within 6\.000 s \[exchanges #\d+ and #\d+; --no-invariant handover-budget switches it off\]$/,
        ),
      ],
    });
    expect((await replay(silentBot)).ok).toBe(true);
  });

  it('agent-joined: the agent takes over a bot chat with no INVITE_AGENT or hand-over', async () => {
    const conversation = (invited: boolean): ConversationInput => ({
      version: 1,
      name: 'an agent in a bot chat',
      setup: { bot: {} },
      steps: [
        { customer: { text: 'hello', sender: { id: 'c-joined' } } },
        { name: 'asked', expect: { bot: { event: 'CLIENT_MESSAGE' } } },
        ...(invited
          ? [
              {
                bot: {
                  event: 'INVITE_AGENT',
                  id: 'invite-1',
                  client_id: '${asked.client_id}',
                  chat_id: '${asked.chat_id}',
                },
              },
            ]
          : []),
        { advance: 1000 },
        // without an invitation, this is the planted bug: the platform tells the bot an agent
        // joined a chat the bot never handed over
        { agent: { text: 'I take over' } },
      ],
    });
    const broken = await replay(conversation(false));
    expect(invariantsStep(broken)).toMatchObject({
      status: 'failed',
      details: [
        expect.stringMatching(
          /^agent-joined \(spec 3\): #(\d+) AGENT_JOINED at \+1\.000 s without an INVITE_AGENT or a hand-over before it \(the exchange before: #(\d+) CLIENT_MESSAGE at \+0\.000 s\) \[exchanges #\d+ and #\d+; --no-invariant agent-joined switches it off\]$/,
        ),
      ],
    });
    const fixed = await replay(conversation(true));
    expect(fixed.ok, JSON.stringify(fixed.steps.filter((s) => s.status === 'failed'))).toBe(true);
  });

  describe('simulator mutants on a bundled fixture: an agent message delivered on attempt 3', () => {
    const file = join(repoRoot, 'fixtures/conversations/transcript-redelivered.json');
    const replayFixture = async (mutant?: MutantName) =>
      replayConversation({
        conversation: await loadConversation(file),
        file,
        ...(mutant ? { mutant } : {}),
      });

    it('transcript: chat_finished lists the redelivered message once per attempt', async () => {
      const broken = await replayFixture('transcript-repeats-redelivered');
      expect(broken.ok).toBe(false);
      expect(invariantsStep(broken)).toMatchObject({
        status: 'failed',
        details: [
          expect.stringMatching(
            /^transcript \(spec 2\.6\): chat_finished #(\d+) chat_finished at \+6\.000 s logs the agent message #(\d+) agent\.text at \+0\.000 s "Checking now\." 3 times; it was sent once \[exchanges #\2 and #\1; --no-invariant transcript switches it off\]$/,
          ),
        ],
      });
      const fixed = await replayFixture();
      expect(fixed.ok, JSON.stringify(fixed.steps.filter((s) => s.status === 'failed'))).toBe(true);
    });

    it('redelivery-id: each redelivery to the integrator carries a new message id', async () => {
      const broken = await replayFixture('redeliver-new-id');
      expect(broken.ok).toBe(false);
      const details = invariantsStep(broken)?.details ?? [];
      expect(details).toEqual([
        expect.stringMatching(
          /^redelivery-id \(spec 8\): #(\d+) agent\.text attempt 2 at \+3\.000 s carries id (\S+)-retry-2; the attempt before, #(\d+) agent\.text at \+0\.000 s, carried \2 \[exchanges #\3 and #\1; --no-invariant redelivery-id switches it off\]$/,
        ),
        expect.stringMatching(
          /^redelivery-id \(spec 8\): #(\d+) agent\.text attempt 3 at \+6\.000 s carries id \S+-retry-3; the attempt before, #(\d+) agent\.text attempt 2 at \+3\.000 s, carried \S+-retry-2 \[exchanges #\2 and #\1; --no-invariant redelivery-id switches it off\]$/,
        ),
      ]);
      const fixed = await replayFixture();
      expect(fixed.ok).toBe(true);
    });

    it.each([
      ['transcript-repeats-redelivered', 'transcript'],
      ['redeliver-new-id', 'redelivery-id'],
    ])('replay --mutant %s exits 1 naming %s and both exchanges; 0 without it', async (m, rule) => {
      const run = async (argv: string[]) => {
        const test = createTestContext({ cwd: repoRoot });
        return { code: await runInProcess(test, ['replay', ...argv, file]), out: test.stdout() };
      };
      const broken = await run(['--mutant', m]);
      expect(broken.code).toBe(1);
      expect(broken.out).toMatch(
        new RegExp(
          `${rule} \\(spec [\\d.]+\\): .*\\[exchanges #\\d+ and #\\d+; --no-invariant ${rule}`,
        ),
      );
      expect((await run([])).code).toBe(0);
    });
  });
});
