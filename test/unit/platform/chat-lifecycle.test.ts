import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { parseJsonBody } from '../../../src/http/body.js';
import {
  closeChat,
  createPlatformCore,
  sendAgentMessage,
  type PlatformCore,
  type PlatformEvent,
} from '../../../src/platform/index.js';
import { registerPlatformServices } from '../../../src/platform/index.js';
import type { ChatLimits } from '../../../src/platform/chat-lifecycle.js';

const cores: PlatformCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.stop()));
});

/** A socket-less platform on a virtual clock; customers write through core.handle(). */
function start(chats: ChatLimits) {
  const clock = createVirtualClock();
  const core = createPlatformCore({ clock, chats, channels: [{ id: 'ch', randomString: 'r' }] });
  registerPlatformServices(core);
  cores.push(core);
  const events: PlatformEvent[] = [];
  core.on((event) => events.push(event));
  const write = async (senderId: string, text = 'hi') => {
    const raw = JSON.stringify({ sender: { id: senderId }, message: { type: 'text', text } });
    const answer = await core.handle({
      method: 'POST',
      path: '/r/ch',
      query: new URLSearchParams(),
      headers: { 'content-type': 'application/json' },
      body: parseJsonBody(raw, 'content-length', raw.length),
    });
    expect(answer.status).toBe(200);
  };
  const closed = () =>
    events.flatMap((e) => (e.type === 'chat-closed' ? [[e.chatId, e.reason ?? 'agent']] : []));
  return { clock, core, events, write, closed };
}

describe('chat lifecycle', () => {
  it('closes a chat idle for the timeout, on protocol time, and says why', async () => {
    const { clock, core, write, closed } = start({ idleTimeoutMs: 60_000 });
    await write('a');
    await clock.advance(59_999);
    expect(closed()).toEqual([]);
    await clock.advance(1);
    expect(closed()).toEqual([[1, 'idle']]);
    expect(core.state.chats.get(1)?.mode).toBe('closed');
    expect(clock.nextTimerAt()).toBeUndefined(); // nothing open, nothing pending
  });

  it('starts the idle time again on each message, either way', async () => {
    const { clock, core, write, closed } = start({ idleTimeoutMs: 60_000 });
    await write('a');
    await clock.advance(50_000);
    await write('a');
    await clock.advance(50_000);
    // an agent message counts too (no integrator URL: not delivered, still logged)
    await sendAgentMessage(core, { customerId: 'a', message: { type: 'text', text: 'yes' } });
    await clock.advance(59_000);
    expect(closed()).toEqual([]);
    await clock.advance(1_000);
    expect(closed()).toEqual([[1, 'idle']]);
  });

  it('refuses an agent message given without its message object, saying what it looks like', async () => {
    const { core, write } = start({});
    await write('a');
    const guessed = { customerId: 'a', text: 'Hi there' } as unknown as Parameters<
      typeof sendAgentMessage
    >[1];
    await expect(sendAgentMessage(core, guessed)).rejects.toMatchObject({
      code: 'SVC_E_AGENT_MESSAGE',
      message: 'Could not send the agent message: the options have no message.',
      hint: expect.stringContaining('message: { type: \'text\', text: "Hi there" }'),
    });
    await expect(sendAgentMessage(core, undefined as never)).rejects.toMatchObject({
      code: 'SVC_E_AGENT_MESSAGE',
    });
  });

  it('never closes on its own without a timeout, and leaves no timer', async () => {
    const { clock, write, closed } = start({});
    await write('a');
    expect(clock.nextTimerAt()).toBeUndefined();
    await clock.advance(10 * 3_600_000);
    expect(closed()).toEqual([]);
  });

  it('at --max-chats drops the oldest closed chat and its customer first', async () => {
    const { core, write, closed } = start({ maxChats: 2 });
    await write('a');
    await write('b');
    closeChat(core, { customerId: 'b' });
    closeChat(core, { customerId: 'a' });
    await write('c'); // 3 chats: b closed first, so b leaves
    expect([...core.state.chats.keys()]).toEqual([1, 3]);
    expect([...core.state.customers.keys()]).toEqual(['ch/a', 'ch/c']);
    expect(closed()).toEqual([
      [2, 'agent'],
      [1, 'agent'],
    ]);
  });

  it('closes the least active open chat when none is closed', async () => {
    const { clock, core, write, closed } = start({ maxChats: 2 });
    await write('a');
    await clock.advance(10);
    await write('b');
    await clock.advance(10);
    await write('a'); // a is now the more recent
    await write('c');
    expect(closed()).toEqual([[2, 'max-chats']]);
    expect([...core.state.chats.keys()]).toEqual([1, 3]);
    expect(core.state.customers.has('ch/b')).toBe(false);
    // b comes back: a new chat and a new visitor number (the old one left memory)
    await write('b');
    expect(core.state.customers.get('ch/b')?.visitorNumber).toBe(4);
    expect(core.state.chats.size).toBe(2);
  });

  it('keeps a customer while an earlier chat of theirs leaves', async () => {
    const { core, write } = start({ maxChats: 2 });
    await write('a');
    closeChat(core, { customerId: 'a' });
    await write('a'); // chat 2 of a
    await write('b'); // chat 1 leaves; a still has chat 2
    expect([...core.state.chats.keys()]).toEqual([2, 3]);
    expect(core.state.customers.get('ch/a')?.visitorNumber).toBe(1);
  });

  it('holds memory to the cap whatever the number of customers', async () => {
    const { core, write } = start({ maxChats: 100, idleTimeoutMs: 1_000 });
    for (let i = 0; i < 1_000; i++) await write(`c-${i}`);
    expect(core.state.chats.size).toBe(100);
    expect(core.state.customers.size).toBe(100);
  });
});
