import { describe, expect, it } from 'vitest';
import { conversationSchema } from '../../src/conversation/format.js';
import { replayConversation } from '../../src/conversation/runner.js';

/** A chat across the channel and the hooks, then one expectation under test. */
function chat(...last: unknown[]) {
  return conversationSchema.parse({
    version: 1,
    name: 'cross-interface expectations',
    setup: { hooks: {} },
    steps: [
      { customer: { text: 'Hello', sender: { id: 'c-x' } } },
      { name: 'answer', agent: { text: 'Hi.' } },
      { advance: 5000 },
      { name: 'closed', close: {} },
      ...last,
    ],
  });
}

async function run(...last: unknown[]) {
  const result = await replayConversation({ conversation: chat(...last) });
  const failed = result.steps.filter((s) => s.status === 'failed');
  return { ok: result.ok, steps: result.steps, failed: failed.flatMap((s) => s.details) };
}

describe('cross-interface expectations in fixtures', () => {
  it('after: a payload sent during an earlier step fails, though the clock did not move', async () => {
    // on the virtual clock the whole chat is at protocol 0: chat_accepted came with `answer`,
    // before `thanks` began, and "after thanks" held by the time alone
    const result = await replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'after, at protocol 0',
        setup: { hooks: {} },
        steps: [
          { customer: { text: 'Hello', sender: { id: 'c-x' } } },
          { name: 'answer', agent: { text: 'Hi.' } },
          { name: 'thanks', customer: { text: 'Thanks', sender: { id: 'c-x' } } },
          { expect: { hook: 'chat_accepted', after: 'thanks', within: '1s' } },
        ],
      }),
    });
    expect(result.protocolMs).toBe(0);
    expect(result.ok).toBe(false);
    expect(result.steps.at(-1)?.details).toContain(
      'it came at 0.000 s, during step answer, before step thanks began',
    );
    const fine = await run({ expect: { hook: 'chat_finished', after: 'closed', within: '1s' } });
    expect(fine.failed).toEqual([]);
  });

  it('an expectation on a party the conversation has not set up fails, absent or not', async () => {
    // without setup.hooks no hook is ever sent: "no chat_accepted" passed for no reason
    for (const expectation of [
      { hook: 'chat_accepted', absent: true, within: '1s' },
      { hook: 'chat_accepted' },
      { bot: { event: 'CLIENT_MESSAGE' }, absent: true },
    ]) {
      const result = await replayConversation({
        conversation: conversationSchema.parse({
          version: 1,
          name: 'no receiver',
          steps: [
            { customer: { text: 'Hello', sender: { id: 'c-x' } } },
            { agent: { text: 'Hi.' } },
            { expect: expectation },
          ],
        }),
      });
      expect(result.ok).toBe(false);
      expect(result.steps.at(-1)?.details[0]).toMatch(
        /^this conversation has no (hook receiver|bot): the platform .* only with "setup": \{"(hooks|bot)": \{\}\}/,
      );
    }
  });

  it('a hook after a named step, within a budget, where a path holds a value', async () => {
    const passed = await run({
      expect: {
        hook: 'chat_finished',
        after: 'closed',
        within: '2s',
        where: { 'chat.messages.length': 2, 'chat.messages.1.type': 'agent' },
      },
    });
    expect(passed.failed).toEqual([]);
    expect(passed.steps.at(-1)?.name).toBe('5. expect hook chat_finished after closed');
  });

  it('fails on the budget, saying how late it came', async () => {
    const late = await run({ expect: { hook: 'chat_finished', after: 'answer', within: '1s' } });
    expect(late.ok).toBe(false);
    expect(late.failed).toEqual([
      'expected hook {"event_name":"chat_finished"} within 1000 ms of the end of step answer',
      'it came 5.000 s after step answer ended; the budget is 1.000 s',
    ]);
  });

  it('fails on a where path, naming it and what came', async () => {
    const wrong = await run({
      expect: { hook: 'chat_finished', within: 0, where: { 'chat.messages.length': 3 } },
    });
    expect(wrong.failed).toContain('  where chat.messages.length: expected 3, got 2');
  });

  it('fails on an after that names no earlier step', async () => {
    const unknown = await run({ expect: { hook: 'chat_finished', after: 'step-9' } });
    expect(unknown.failed).toEqual(['after: no earlier step is named "step-9"']);
  });

  it('the order things came in across the interfaces', async () => {
    const inOrder = await run({
      expect: { order: ['hook:chat_accepted', 'integrator:agent-message', 'hook:chat_finished'] },
    });
    expect(inOrder.failed).toEqual([]);
    expect(inOrder.steps.at(-1)?.name).toBe(
      '5. expect order hook:chat_accepted → integrator:agent-message → hook:chat_finished',
    );
    const reversed = await run({
      expect: { order: ['hook:chat_finished', 'integrator:text'], within: 0 },
    });
    expect(reversed.failed).toEqual([
      'expected hook:chat_finished → integrator:text; integrator:text came before hook:chat_finished',
      expect.stringMatching(/^in the order they were sent: .*integrator:text.*hook:chat_finished/),
    ]);
    const never = await run({
      expect: { order: ['hook:chat_accepted', 'bot:CLIENT_MESSAGE'], within: 0 },
    });
    expect(never.failed).toEqual([
      'expected hook:chat_accepted → bot:CLIENT_MESSAGE within 0 ms; never seen: bot:CLIENT_MESSAGE',
    ]);
  });

  it('the fixture schema refuses a budget it cannot read and an order label without a party', () => {
    const step = (e: unknown) =>
      conversationSchema.safeParse({ version: 1, name: 'x', steps: [{ expect: e }] }).success;
    expect(step({ hook: 'chat_finished', within: '2 seconds' })).toBe(false);
    expect(step({ order: ['chat_accepted', 'integrator:text'] })).toBe(false);
    expect(step({ hook: 'chat_finished', within: '1.5s' })).toBe(true);
  });
});
