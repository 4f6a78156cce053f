import { describe, expect, it } from 'vitest';
import type { Conversation } from '../../src/conversation/format.js';
import { loadConversations } from '../../src/conversation/load.js';
import { replayAll } from '../../src/conversation/replay-all.js';
import type { ConversationResult, ReplayOptions } from '../../src/conversation/runner.js';

const bundled = (await loadConversations(['fixtures/conversations'])).map(
  ({ file, conversation }): ReplayOptions => ({ conversation, file }),
);
// slow-integrator makes a dozen clock jumps (each a short real wait): the quick ones after it
// end first when they run at once.
const slow = bundled.find((b) => b.file?.includes('slow-integrator')) as ReplayOptions;
const quick = bundled.filter((b) => b !== slow);

const broken: Conversation = {
  version: 1,
  name: 'broken on purpose',
  steps: [{ customer: { text: 'x', sender: { id: 'c' } }, response: { status: 201 } }],
};

/** What must not depend on concurrency: statuses, details and protocol times. */
const outcome = (r: ConversationResult) => ({
  name: r.name,
  ok: r.ok,
  protocolMs: r.protocolMs,
  steps: r.steps.map((s) => [s.name, s.status, s.protocolMs, s.details]),
});

describe('replayAll on the embedded world', () => {
  it('reports in input order what a sequential run reports', async () => {
    const items = [slow, ...quick];
    const sequential = await replayAll(items, { concurrency: 1 });
    const order: number[] = [];
    const concurrent = await replayAll(items, {
      concurrency: 4,
      onResult: (_r, index) => order.push(index),
    });
    expect(order).toEqual(items.map((_, i) => i));
    expect(concurrent.map(outcome)).toEqual(sequential.map(outcome));
    expect(concurrent.every((r) => r.ok)).toBe(true);
  });

  it('with bail ends at the first failing conversation in input order', async () => {
    const items = [slow, { conversation: broken }, ...quick.slice(0, 4)];
    const reported: string[] = [];
    const results = await replayAll(items, {
      concurrency: 4,
      bail: true,
      onResult: (r) => reported.push(r.name),
    });
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      [slow.conversation.name, true],
      ['broken on purpose', false],
    ]);
    expect(reported).toEqual([slow.conversation.name, 'broken on purpose']);
  });

  it('stays deterministic over repeated concurrent passes', async () => {
    const sequential = (await replayAll(bundled, { concurrency: 1 })).map(outcome);
    for (let pass = 0; pass < 3; pass++)
      expect((await replayAll(bundled)).map(outcome)).toEqual(sequential); // the default, 4
  });
});
