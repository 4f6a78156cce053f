import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { detectKind } from '../../../src/contract/detect.js';
import {
  cutCustomerText,
  cutText,
  notCustomerMessage,
  TEXT_CUT_LIMIT,
} from '../../../src/platform/channel/channel-service.js';
import type { PlatformEvent } from '../../../src/platform/events.js';
import { createPlatformCore, type PlatformCore } from '../../../src/platform/index.js';
import { ProtocolError } from '../../../src/protocol-error.js';

const cores: PlatformCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.stop()));
});

function coreWithEvents(): { core: PlatformCore; events: PlatformEvent[] } {
  const core = createPlatformCore({
    clock: createVirtualClock(),
    channels: [{ id: 'ch', randomString: 'r' }],
  });
  cores.push(core);
  const events: PlatformEvent[] = [];
  core.on((event) => events.push(event));
  return { core, events };
}

describe('cutCustomerText (spec 2.1, 8: longer text is cut, no error)', () => {
  it('cuts a text over the limit in place and says from and to', () => {
    const message = { type: 'text', text: 'é'.repeat(TEXT_CUT_LIMIT + 5) };
    expect(cutCustomerText(message, undefined)).toEqual({ from: 1005, to: 1000 });
    expect(Array.from(message.text)).toHaveLength(1000);
  });

  it('leaves a text at the limit, a message without text, and the no-text-cut mutant alone', () => {
    const atLimit = { type: 'text', text: 'a'.repeat(TEXT_CUT_LIMIT) };
    expect(cutCustomerText(atLimit, undefined)).toBeUndefined();
    expect(cutCustomerText({ type: 'text' }, undefined)).toBeUndefined();
    const long = { type: 'text', text: 'a'.repeat(TEXT_CUT_LIMIT + 1) };
    expect(cutCustomerText(long, 'no-text-cut')).toBeUndefined();
    expect(long.text).toHaveLength(TEXT_CUT_LIMIT + 1);
  });

  it('cuts where a limits mutant moves the limit', () => {
    const message = { type: 'text', text: 'a'.repeat(TEXT_CUT_LIMIT) };
    expect(cutCustomerText(message, 'cut-at-999')).toEqual({ from: 1000, to: 999 });
  });

  it('never splits a surrogate pair', () => {
    expect(cutText('😀😀😀', 2)).toEqual({ text: '😀😀', from: 3 });
  });
});

describe('notCustomerMessage: what the channel URL does with a message that is not a customer one', () => {
  it('ignores a message of an unknown type with a warning (spec 2.3)', () => {
    const { core, events } = coreWithEvents();
    const channel = core.state.channels.get('ch')!;
    const json = { sender: { id: 'c-1' }, message: { type: 'sticker' } };
    const answer = notCustomerMessage(core, channel, json, detectKind(json), 5);
    expect(answer).toMatchObject({ status: 200, body: { result: 'ok' } });
    expect(answer.record?.notes).toEqual(['ignored']);
    expect(events).toMatchObject([
      { type: 'violation', outcome: 'ignored', issues: [{ code: 'ignored_type', spec: '2.3' }] },
    ]);
  });

  it('refuses an agent message sent to the channel URL (spec 2.1)', () => {
    const { core, events } = coreWithEvents();
    const channel = core.state.channels.get('ch')!;
    const json = { recipient: { id: 'c-1' }, message: { type: 'text', text: 'hi', id: 'm1' } };
    let refusal: unknown;
    try {
      notCustomerMessage(core, channel, json, detectKind(json), 5);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ProtocolError);
    expect(refusal).toMatchObject({ status: 400, code: 'invalid_request', section: '2.1' });
    expect(events).toMatchObject([{ type: 'violation', outcome: 'rejected' }]);
  });
});
