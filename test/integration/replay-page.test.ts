/**
 * Page steps in fixtures (interface C, spec 4.5, 6.4): the page-script double attached to the
 * embedded simulator's widget channel in process; its callback reports are journaled in the
 * push's chat, so the callback-order invariant runs at the end of the replay. A planted bad
 * page (setup.page.hold) is caught naming both callback exchanges; the bundled page passes.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationSchema } from '../../src/conversation/format.js';
import { loadConversation } from '../../src/conversation/load.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { lateAcceptPage, PAGE_FIXTURE } from '../helpers/late-accept-page.js';

describe('replay with page steps', () => {
  it('the correct page passes: its callbacks are expectations and follow the pushes', async () => {
    const conversation = await loadConversation(PAGE_FIXTURE);
    const result = await replayConversation({ conversation, file: PAGE_FIXTURE });
    expect(result.ok, JSON.stringify(result.steps.filter((s) => s.status === 'failed'))).toBe(true);
    expect(result.steps.map((s) => [s.kind, s.status])).toEqual([
      ['page', 'passed'],
      ['expect', 'passed'],
      ['agent', 'passed'],
      ['expect', 'passed'],
      ['page', 'passed'],
      ['expect', 'passed'],
      ['expect', 'passed'],
    ]);
    expect(result.steps[4]!.value).toEqual({ result: 'ok' });
  });

  it('catches a page whose svc_onAccept runs after the call ended, naming both callbacks', async () => {
    const conversation = conversationSchema.parse(lateAcceptPage());
    const result = await replayConversation({ conversation });
    expect(result.ok).toBe(false);
    const last = result.steps.at(-1)!;
    expect(last).toMatchObject({ name: 'invariants', status: 'failed' });
    expect(last.details).toEqual([
      expect.stringMatching(
        /^callback-order \(spec 6\.4\): #(\d+) callback svc_onAccept at \+40\.000 s reflects pushed event \d+ \(agent_accepted, #\d+\) yet came after #(\d+) callback svc_onCallEnd at \+40\.000 s, which reflects the later push \d+ \(call_status, #\d+\) \[exchanges #\d+ and #\d+; --no-invariant callback-order switches it off\]$/,
      ),
    ]);
    // every step before passed: no single expectation sees it
    expect(result.steps.slice(0, -1).every((s) => s.status === 'passed')).toBe(true);
    const off = await replayConversation({
      conversation,
      invariants: { disabled: ['callback-order'] },
    });
    expect(off.ok).toBe(true);
  });

  it('an expectation on a callback the page never ran fails with what it did run', async () => {
    const conversation = conversationSchema.parse({
      version: 1,
      name: 'no call, no svc_onCallEnd',
      steps: [{ page: { say: 'Hello?' } }, { expect: { page: 'svc_onCallEnd', within: '1s' } }],
    });
    const result = await replayConversation({ conversation });
    expect(result.ok).toBe(false);
    expect(result.steps[1]!.details).toEqual([
      'expected page {"name":"svc_onCallEnd"} within 1000 ms',
      expect.stringMatching(/^closest of \d+ received:$/),
      expect.stringMatching(/^ {2}name: expected "svc_onCallEnd", got "svc_on\w+"$/),
    ]);
  });

  it('is skipped against a running simulator (--platform-url), which keeps its journal', async () => {
    const { createPlatform } = await import('../../src/platform/index.js');
    const platform = createPlatform({ channels: [{ id: 'shop' }] });
    const server = await platform.listen({ port: 0 });
    try {
      const conversation = await loadConversation(PAGE_FIXTURE);
      const result = await replayConversation({ conversation, platformUrl: server.url });
      expect(result.skipped).toMatch(/page steps .* replay it without --platform-url/);
    } finally {
      await platform.close();
    }
  });
});

describe('page steps call any svc_api method and fill the contacts form (spec 4.5, 6.4)', () => {
  const run = (steps: unknown[]) =>
    replayConversation({
      conversation: conversationSchema.parse({
        version: 1,
        name: 'page api',
        setup: { hooks: {} },
        steps,
      }),
    });

  it('gives each result as the step value, and the platform hears of each call', async () => {
    const result = await run([
      { page: { say: 'Hello' } },
      { page: { api: 'setUserToken', args: ['u-42'], result: { result: 'ok', token: 'u-42' } } },
      { page: { contacts: { name: 'Ann', email: 'ann@example.com' } } },
      { expect: { page: 'svc_onIntroduction' } },
      { page: { api: 'getVisitorNumber' } },
      // agents are online: the offline form is refused, and this step expects it
      {
        page: {
          api: 'sendOfflineMessage',
          args: [{ message: 'hi', email: 'a@b.co' }],
          result: { result: 'fail' },
        },
      },
      { expect: { hook: 'chat_updated', where: { visitor: { name: 'Ann' } } } },
    ]);
    expect(result.ok, JSON.stringify(result.steps.filter((s) => s.status === 'failed'))).toBe(true);
    expect(result.steps.map((s) => s.name)).toEqual([
      '1. the visitor writes "Hello" in the widget',
      '2. the page calls svc_api.setUserToken("u-42")',
      '3. the visitor fills the contacts form',
      '4. expect page svc_onIntroduction',
      '5. the page calls svc_api.getVisitorNumber()',
      '6. the page calls svc_api.sendOfflineMessage({"message":"hi","email":"a@b.co"})',
      '7. expect hook chat_updated',
    ]);
    expect(result.steps[4]!.value).toBe(1);
  });

  it('fails a call the page was refused, unless the step expects the refusal', async () => {
    const result = await run([{ page: { api: 'startCall', args: ['call me'] } }]);
    expect(result.steps[0]).toMatchObject({
      status: 'failed',
      details: [
        'svc_api.startCall answered {"result":"fail","reason":"invalid phone number"} (spec 4.5; give "result" to expect it)',
      ],
    });
    const other = await run([
      { page: { api: 'getVisitorNumber', result: 2 } }, // it is visitor 1
    ]);
    expect(other.steps[0]).toMatchObject({
      status: 'failed',
      details: ['(root): expected 2, got 1'],
    });
  });

  it('refuses a step doing two things, args without api, and names a method typed wrong', async () => {
    const parse = (page: unknown) =>
      conversationSchema.safeParse({ version: 1, name: 'x', steps: [{ page }] });
    expect(parse({ say: 'Hi', api: 'chatMode' }).success).toBe(false);
    expect(parse({ say: 'Hi', args: [1] }).success).toBe(false);
    expect(parse({}).success).toBe(true); // the page opens
    const dir = mkdtempSync(join(tmpdir(), 'svc-page-'));
    const file = join(dir, 'typo.json');
    writeFileSync(
      file,
      JSON.stringify({ version: 1, name: 'x', steps: [{ page: { api: 'startcall' } }] }),
    );
    await expect(loadConversation(file)).rejects.toThrow(
      'steps.0.page.api: "startcall" is not one of the names it takes (did you mean "startCall"?)',
    );
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        name: 'x',
        steps: [{ page: { api: 'chatMode' }, result: 'online' }],
      }),
    );
    await expect(loadConversation(file)).rejects.toThrow(
      'steps.0: unknown key "result" (it belongs inside "page")',
    );
  });
});
