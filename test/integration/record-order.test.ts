import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationSchema } from '../../src/conversation/format.js';
import { readRecording } from '../../src/conversation/record/read-recording.js';
import { convertRecording } from '../../src/conversation/record/to-fixture.js';
import { replayConversation } from '../../src/conversation/runner.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('record to-fixture writes the order the parties saw things in', () => {
  it('as an order expectation of what came well apart, which the fixture replays green', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-order-'));
    dirs.push(dir);
    const recordFile = join(dir, 'session.ndjson');
    const session = conversationSchema.parse({
      version: 1,
      name: 'a chat over 5 s',
      setup: { hooks: {} },
      steps: [
        { customer: { text: 'Hello', sender: { id: 'c-o' } } },
        { agent: { text: 'Hi.' } },
        { advance: 5000 },
        { close: {} },
      ],
    });
    expect((await replayConversation({ conversation: session, recordFile })).ok).toBe(true);
    const conversation = convertRecording({ records: await readRecording(recordFile) });
    const order = conversation.steps.at(-1);
    // chat_accepted and the agent's message came in the same moment: only the first is kept
    expect(order).toEqual({ expect: { order: ['hook:chat_accepted', 'hook:chat_finished'] } });
    const replayed = await replayConversation({
      conversation: conversationSchema.parse(conversation),
    });
    expect(replayed.steps.filter((s) => s.status !== 'passed')).toEqual([]);
  });
});
