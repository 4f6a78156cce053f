import { describe, expect, it } from 'vitest';
import { applicabilityOf } from '../../../src/conversation/world.js';
import { RECORDED_BOT_TAG, type Conversation } from '../../../src/conversation/format.js';

type Setup = NonNullable<Conversation['setup']>;
const conversationOf = (tags: string[], setup: Setup = {}): Conversation =>
  ({ version: 1, name: 'c', tags, setup, steps: [] }) as unknown as Conversation;
const hookFaults = { hooks: { faults: { status: 500 } } } as unknown as Setup;

describe('a fixture against real peers', () => {
  it('applies everywhere without faults or a recorded bot', () => {
    const conversation = conversationOf([], hookFaults);
    expect(applicabilityOf({ conversation }, hookFaults)).toEqual({});
  });

  it('does not apply when its faults would make the real peer misbehave', () => {
    const conversation = conversationOf([], hookFaults);
    expect(applicabilityOf({ conversation, hookUrl: 'http://h' }, hookFaults)).toEqual({
      notApplicable:
        'its setup.hooks.faults make the embedded hook-target misbehave; the real peer (--hook-url) answers as it does',
    });
  });

  it("keeps a recorded fixture's faults as the peer's own behaviour, not applied", () => {
    const conversation = conversationOf(['recorded'], hookFaults);
    expect(applicabilityOf({ conversation, hookUrl: 'http://h' }, hookFaults)).toEqual({
      ignoredSetup:
        'setup.hooks.faults not applied: they are what the real peer did when recorded, and its expectations check it does so again (a peer fixed since: `record to-fixture --peer-failures drop`)',
    });
  });

  it('does not offer --peer-failures drop for recorded hook replies, which it keeps', () => {
    const replies = { hooks: { replies: { chat_accepted: { result: 'ok' } } } } as unknown as Setup;
    const conversation = conversationOf(['recorded'], replies);
    expect(applicabilityOf({ conversation, hookUrl: 'http://h' }, replies)).toEqual({
      ignoredSetup:
        'setup.hooks.replies not applied: they are what the real peer did when recorded, and its expectations check it does so again',
    });
  });

  it('needs the real bot a bot side was recorded from', () => {
    const conversation = conversationOf(['recorded', RECORDED_BOT_TAG]);
    expect(applicabilityOf({ conversation }, {})).toEqual({
      notApplicable: expect.stringContaining('recorded from a real bot'),
    });
    expect(applicabilityOf({ conversation, botUrl: 'http://b' }, {})).toEqual({});
  });
});
