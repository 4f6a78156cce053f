import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../../src/clock.js';
import {
  createPlatformCore,
  registerPlatformServices,
  type PlatformCore,
} from '../../../src/platform/index.js';

const cores: PlatformCore[] = [];
afterEach(async () => {
  await Promise.all(cores.splice(0).map((c) => c.stop()));
});

function core(bot: boolean): PlatformCore {
  const c = createPlatformCore({
    clock: createVirtualClock(),
    channels: [{ id: 'ch', randomString: 'r' }],
  });
  registerPlatformServices(c, {
    ...(bot ? { bot: { providerUrl: 'http://127.0.0.1:1/bot', token: 't', providerId: 'p' } } : {}),
  });
  cores.push(c);
  return c;
}

const customer = (c: PlatformCore) => {
  const value = {
    key: 'ch/c-1',
    channelId: 'ch',
    senderId: 'c-1',
    clientId: '501',
    visitorNumber: 1,
  };
  c.state.customers.set(value.key, value);
  return value;
};

describe('the chat lifecycle decides, events observe', () => {
  it("a chat opened with a bot attached is the bot's as openChat returns it, with no listener involved", () => {
    const c = core(true);
    let modeSeenByObserver: string | undefined;
    c.on((event) => {
      if (event.type === 'chat-opened') modeSeenByObserver = c.state.chats.get(event.chatId)?.mode;
    });
    const { chat, opened } = c.openChat(customer(c));
    expect(opened).toBe(true);
    expect(chat.mode).toBe('bot');
    expect(chat.ext.bot).toEqual({ active: true, joined: false });
    // observers hear of the chat after the decision
    expect(modeSeenByObserver).toBe('bot');
  });

  it('without a bot the chat waits in the queue for an agent', () => {
    const c = core(false);
    expect(c.openChat(customer(c)).chat.mode).toBe('queue');
  });
});
