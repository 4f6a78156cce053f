import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConversationResult, ReplayOptions } from '../../../src/conversation/runner.js';

// Each replay waits until the test finishes it, so the test picks the completion order.
interface Pending {
  name: string;
  finish: (ok: boolean) => void;
  fail: (error: Error) => void;
}
const pending: Pending[] = [];
const started: string[] = [];

vi.mock('../../../src/conversation/runner.js', () => ({
  replayConversation: (options: ReplayOptions): Promise<ConversationResult> =>
    new Promise((resolve, reject) => {
      const name = options.conversation.name;
      started.push(name);
      pending.push({
        name,
        finish: (ok) => resolve({ name, ok, steps: [], protocolMs: 0, wallMs: 0 }),
        fail: reject,
      });
    }),
}));

const { replayAll, DEFAULT_REPLAY_CONCURRENCY } =
  await import('../../../src/conversation/replay-all.js');

const items = (...names: string[]): ReplayOptions[] =>
  names.map((name) => ({ conversation: { version: 1, name, steps: [] } }));

/** Lets the pool react (start the next replay, report) to what was finished. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

async function finish(name: string, ok = true): Promise<void> {
  const i = pending.findIndex((p) => p.name === name);
  expect(i, `${name} is running`).toBeGreaterThanOrEqual(0);
  pending.splice(i, 1)[0]!.finish(ok);
  await turn();
}

beforeEach(() => {
  pending.length = 0;
  started.length = 0;
});

describe('replayAll', () => {
  it('runs at most `concurrency` at once and reports in input order', async () => {
    const reported: Array<[string, number]> = [];
    const run = replayAll(items('a', 'b', 'c', 'd', 'e'), {
      concurrency: 3,
      onResult: (r, i) => reported.push([r.name, i]),
    });
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('c');
    await finish('b');
    expect(started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(reported).toEqual([]); // a is still running
    await finish('e');
    await finish('a');
    expect(reported).toEqual([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ]);
    await finish('d');
    expect((await run).map((r) => r.name)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(reported.map(([name]) => name)).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('with bail: starts nothing after a failure and ends at the first failing in input order', async () => {
    const reported: string[] = [];
    const run = replayAll(items('a', 'b', 'c', 'd', 'e', 'f'), {
      concurrency: 3,
      bail: true,
      onResult: (r) => reported.push(r.name),
    });
    await turn();
    await finish('c', false); // fails first in time
    expect(started).toEqual(['a', 'b', 'c']); // d is never started
    await finish('b', false); // fails earlier in input order
    await finish('a');
    const results = await run;
    expect(results.map((r) => [r.name, r.ok])).toEqual([
      ['a', true],
      ['b', false],
    ]);
    expect(reported).toEqual(['a', 'b']);
    expect(pending).toEqual([]);
  });

  it('with bail: the conversations before a failure still run and are reported', async () => {
    const run = replayAll(items('a', 'b', 'c', 'd'), { concurrency: 2, bail: true });
    await turn();
    await finish('b', false);
    expect(started).toEqual(['a', 'b']);
    await finish('a');
    expect((await run).map((r) => r.name)).toEqual(['a', 'b']);
  });

  it('with bail: what ends after the failing one is not reported', async () => {
    const reported: string[] = [];
    const run = replayAll(items('a', 'b', 'c'), {
      concurrency: 2,
      bail: true,
      onResult: (r) => reported.push(r.name),
    });
    await turn();
    await finish('a', false);
    expect(reported).toEqual(['a']);
    await finish('b');
    expect(started).toEqual(['a', 'b']);
    expect(reported).toEqual(['a']);
    expect((await run).map((r) => r.name)).toEqual(['a']);
  });

  it('without bail: a failure changes nothing', async () => {
    const run = replayAll(items('a', 'b', 'c'), { concurrency: 2 });
    await turn();
    await finish('a', false);
    await finish('c');
    await finish('b', false);
    expect((await run).map((r) => [r.name, r.ok])).toEqual([
      ['a', false],
      ['b', false],
      ['c', true],
    ]);
  });

  it('throws what a replay threw after reporting the results before it, once the running ones end', async () => {
    const reported: string[] = [];
    const run = replayAll(items('a', 'b', 'c', 'd'), {
      concurrency: 3,
      onResult: (r) => reported.push(r.name),
    });
    const outcome = run.then(
      () => 'resolved',
      (error: Error) => error.message,
    );
    await turn();
    pending.splice(1, 1)[0]!.fail(new Error('unreachable'));
    await turn();
    expect(started).toEqual(['a', 'b', 'c']);
    await finish('c');
    await finish('a');
    expect(await outcome).toBe('unreachable');
    expect(reported).toEqual(['a']);
  });

  it('runs one at a time with concurrency 1 (and by default with a real peer)', async () => {
    for (const start of [
      () => replayAll(items('a', 'b'), { concurrency: 1 }),
      () => replayAll(items('a', 'b').map((i) => ({ ...i, integratorUrl: 'http://127.0.0.1:9' }))),
      () => replayAll(items('a', 'b').map((i) => ({ ...i, platformUrl: 'http://127.0.0.1:9' }))),
    ]) {
      const run = start();
      await turn();
      expect(started).toEqual(['a']);
      await finish('a');
      expect(started).toEqual(['a', 'b']);
      await finish('b');
      await run;
      started.length = 0;
    }
  });

  it(`runs ${DEFAULT_REPLAY_CONCURRENCY} at once by default on the embedded world`, async () => {
    const names = Array.from({ length: DEFAULT_REPLAY_CONCURRENCY + 2 }, (_, i) => `c${i}`);
    const run = replayAll(items(...names));
    await turn();
    expect(started).toEqual(names.slice(0, DEFAULT_REPLAY_CONCURRENCY));
    while (pending.length > 0) await finish(pending[0]!.name);
    expect(await run).toHaveLength(names.length);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects concurrency %s as an input error', async (n) => {
    await expect(replayAll(items('a'), { concurrency: n })).rejects.toMatchObject({
      code: 'SVC_E_CONCURRENCY',
      category: 'input',
    });
    expect(started).toEqual([]);
  });

  const stalling = (name: string): ReplayOptions => ({
    conversation: {
      version: 1,
      name,
      setup: { integrator: { faults: { sequence: [{ kind: 'slow-body', durationMs: 3500 }] } } },
      steps: [],
    },
  });

  it('starts conversations that stall on the clock first and still reports in input order', async () => {
    const reported: string[] = [];
    const run = replayAll([...items('a', 'b', 'c'), stalling('slow')], {
      concurrency: 2,
      onResult: (r) => reported.push(r.name),
    });
    await turn();
    expect(started).toEqual(['slow', 'a']);
    await finish('a');
    await finish('slow');
    expect(reported).toEqual(['a']); // b and c come before slow in input order
    await finish('b');
    await finish('c');
    expect(await run).toHaveLength(4);
    expect(reported).toEqual(['a', 'b', 'c', 'slow']);
  });

  it('with bail: a stalling conversation that fails first still lets the ones before it report', async () => {
    const reported: string[] = [];
    const run = replayAll([...items('a', 'b'), stalling('slow'), ...items('d')], {
      concurrency: 2,
      bail: true,
      onResult: (r) => reported.push(r.name),
    });
    await turn();
    expect(started).toEqual(['slow', 'a']);
    await finish('slow', false);
    expect(started).toEqual(['slow', 'a', 'b']); // d comes after the failure: never started
    await finish('a');
    await finish('b');
    expect((await run).map((r) => [r.name, r.ok])).toEqual([
      ['a', true],
      ['b', true],
      ['slow', false],
    ]);
    expect(started).not.toContain('d');
  });

  it('runs one after another in input order with concurrency 1', async () => {
    const run = replayAll([stalling('slow'), ...items('a')].reverse(), { concurrency: 1 });
    await turn();
    expect(started).toEqual(['a']);
    await finish('a');
    await finish('slow');
    expect(await run).toHaveLength(2);
  });
});
