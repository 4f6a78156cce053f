/** replay's and conform's line per conversation at a terminal's width (reporters/pretty.ts). */
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { formatConversation, formatStep } from '../../../src/cli/render/reporters/pretty.js';
import type { ConversationResult, StepResult } from '../../../src/conversation/runner.js';

const result = {
  name: 'redelivery exhausted: the agent sees an error at 9 s',
  file: 'fixtures/conversations/redelivery-exhausted.json',
  ok: true,
  steps: [],
  protocolMs: 9000,
  wallMs: 26,
} as unknown as ConversationResult;
const chalk = new Chalk({ level: 0 });

describe('formatConversation', () => {
  it('is one line where it fits, or no width is known (a pipe)', () => {
    const line = formatConversation(result, chalk);
    expect(line).toBe(
      '✓ redelivery exhausted: the agent sees an error at 9 s  (fixtures/conversations/redelivery-exhausted.json · 0 steps · protocol 9.000s · wall 26 ms)',
    );
    expect(formatConversation(result, chalk, line.length)).toBe(line);
  });

  it('puts the file and figures under the name in a narrower terminal', () => {
    expect(formatConversation(result, chalk, 100).split('\n')).toEqual([
      '✓ redelivery exhausted: the agent sees an error at 9 s',
      '    (fixtures/conversations/redelivery-exhausted.json · 0 steps · protocol 9.000s · wall 26 ms)',
    ]);
  });

  it('at 80 columns, the file and the figures take a line each: none breaks', () => {
    const lines = formatConversation(result, chalk, 80).split('\n');
    expect(lines).toEqual([
      '✓ redelivery exhausted: the agent sees an error at 9 s',
      '    fixtures/conversations/redelivery-exhausted.json',
      '    (0 steps · protocol 9.000s · wall 26 ms)',
    ]);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
  });
});

describe('a conform case that judged the run of the case above (fuzz properties)', () => {
  it('says so instead of its own times, which are none', () => {
    const judged = { ...result, file: 'spec 8', judgedOnEarlierRun: true as const };
    expect(formatConversation(judged, chalk)).toBe(
      '✓ redelivery exhausted: the agent sees an error at 9 s  (spec 8 · 0 steps · judged on the run above)',
    );
  });

  it('prints its steps without a time', () => {
    const step: StepResult = {
      index: 0,
      name: '50 generated payloads (seed 7)',
      kind: 'expect',
      status: 'passed',
      details: [],
      protocolMs: 0,
      wallMs: 0,
    };
    expect(formatStep(step, chalk, { untimed: true })).toBe('    ✓ 50 generated payloads (seed 7)');
    expect(formatStep(step, chalk)).toBe('    ✓ 50 generated payloads (seed 7) [0.000s]');
  });
});

describe('the step count of a conversation', () => {
  const step = (index: number, more: object = {}): object => ({
    index,
    name: `${index + 1}. step`,
    kind: 'expect',
    status: 'passed',
    details: [],
    protocolMs: 0,
    wallMs: 0,
    ...more,
  });

  it('is the conversation steps alone: a failed invariant check is listed but counted as none', () => {
    const failed = {
      ...result,
      ok: false,
      file: undefined,
      steps: [
        step(0),
        step(1, { status: 'failed' }),
        step(2, { name: 'invariants', status: 'failed', invariants: true }),
      ],
    } as unknown as ConversationResult;
    expect(formatConversation(failed, chalk)).toBe(
      '✗ redelivery exhausted: the agent sees an error at 9 s  (2 steps · protocol 9.000s · wall 26 ms)',
    );
  });

  it('says how many steps a pass could not check, beside the mark', () => {
    const partly = {
      ...result,
      file: undefined,
      steps: [step(0), step(1, { status: 'skipped' })],
    } as unknown as ConversationResult;
    expect(formatConversation(partly, chalk)).toContain('✓ redelivery');
    expect(formatConversation(partly, chalk)).toContain('(2 steps, 1 skipped · ');
  });

  it('counts the steps as record to-fixture wrote them: the note on a setup left out is none', () => {
    // a recorded session's hook replies are not applied in replay: a "setup" line with index -1
    const recorded = {
      ...result,
      file: undefined,
      steps: [step(-1, { name: 'setup', status: 'skipped' }), step(0), step(1), step(2), step(3)],
    } as unknown as ConversationResult;
    expect(formatConversation(recorded, chalk)).toContain('(4 steps · ');
  });

  it('says one step in the singular', () => {
    const one = { ...result, file: undefined, steps: [step(0)] } as unknown as ConversationResult;
    expect(formatConversation(one, chalk)).toContain('(1 step · ');
  });
});
