import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import { createPlatformCore, type PlatformCore } from '../../../src/platform/index.js';
import { snapshotChats } from '../../../src/platform/lifecycle-hooks.js';

const cores: PlatformCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.stop()));
});

function core(): PlatformCore {
  const c = createPlatformCore({
    clock: createVirtualClock(),
    channels: [{ id: 'ch', randomString: 'r' }],
  });
  cores.push(c);
  return c;
}

const customer = (c: PlatformCore) => {
  const value = {
    key: 'ch/c-1',
    channelId: 'ch',
    senderId: 'c-1',
    clientId: 'c',
    visitorNumber: 1,
  };
  c.state.customers.set(value.key, value);
  return value;
};

describe('lifecycle hooks: the core decides in use() order, then observers hear', () => {
  it('runs every service hook of a moment in use() order, then emits the event', () => {
    const c = core();
    const seen: string[] = [];
    c.on((event) => seen.push(`observer ${event.type}`));
    c.use({
      name: 'first',
      lifecycle: {
        chatOpened: (_event, chat) => {
          seen.push(`first ${chat.id}`);
          // what a hook announces reaches observers before the moment's own event
          c.emit({ type: 'notice', level: 'info', message: 'took it', protocolMs: 0 });
        },
      },
    });
    c.use({ name: 'second', lifecycle: { chatOpened: () => seen.push('second') } });
    c.openChat(customer(c));
    expect(seen).toEqual(['first 1', 'observer notice', 'second', 'observer chat-opened']);
  });

  it('skips the hooks of a chat moment whose chat is gone; chatless moments run without one', () => {
    const c = core();
    const calls: string[] = [];
    c.use({
      name: 'hooks',
      lifecycle: {
        chatClosed: () => calls.push('closed'),
        offlineMessage: (_event, chat) => calls.push(`offline ${String(chat)}`),
      },
    });
    c.moment({ type: 'chat-closed', chatId: 99, protocolMs: 0 });
    c.moment({
      type: 'offline-message',
      offlineMessageId: 'o-1',
      channelId: 'ch',
      visitorNumber: 1,
      message: 'call me',
      protocolMs: 0,
    });
    expect(calls).toEqual(['offline undefined']);
  });

  it('snapshots what an observer must leave alone: mode, agent, lines, ext', () => {
    const c = core();
    const { chat } = c.openChat(customer(c));
    const before = snapshotChats(c.state);
    chat.ext.bot = { active: false };
    expect(snapshotChats(c.state)).not.toBe(before);
  });
});
