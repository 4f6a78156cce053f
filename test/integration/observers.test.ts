import { afterEach, describe, expect, it } from 'vitest';
import { closeChat, sendAgentMessage, type PlatformCore } from '../../src/platform/index.js';
import { customerText, postTo } from '../helpers/bot.js';
import { closeBotPlatforms, startBotPlatform } from '../helpers/bot-platform.js';
import { closeAll, startTarget } from '../helpers/hooks.js';

afterEach(async () => {
  await closeBotPlatforms();
  await closeAll();
});

const eventsOf = (hits: Array<{ json: { event?: unknown } }>) => hits.map((h) => h.json.event);

// the services decide in lifecycle hooks; every listener (the CLI's, the replay world's, the
// widget pages', these tests') only observes: `checkObservers` proves it on real conversations
describe('listeners observe, lifecycle hooks decide (checkObservers)', () => {
  it('a bot chat handed over to an agent, with hooks and a widget visitor: no listener changes a chat', async () => {
    const { target } = await startTarget();
    const s = await startBotPlatform({
      bot: { botEvents: 'docs', channelIds: ['shop'] },
      platform: { checkObservers: true, hooks: { url: target.url } },
    });
    const core = s.platform.core;

    // channel A -> the bot first (spec 3): CLIENT_MESSAGE
    await postTo(s.channelUrl, customerText('agent please'));
    await s.provider.waitForHits(1);
    // the bot invites an agent: hand-over, AGENT_JOINED (spec 3, 6.1), hook chat_accepted
    const invite = { event: 'INVITE_AGENT', id: 'inv-1', client_id: '501', chat_id: '1' };
    expect((await postTo(s.webhook, invite)).status).toBe(200);
    await s.provider.waitForHits(2);
    expect(core.state.chats.get(1)).toMatchObject({ mode: 'agent', agentId: 1 });
    // the agent writes: AGENT_MESSAGE to the bot (docs), the message to the integrator
    await sendAgentMessage(core, { chatId: 1, message: { type: 'text', text: 'Anna here' } });
    await s.provider.waitForHits(3);

    // a widget visitor on the same core (interface C): the page's message, the agent's answer
    const widget = `${s.server.url}/_sim/widget/events`;
    expect(
      (await postTo(widget, { type: 'visitor_message', visitorId: 'v-1', text: 'hi', first: true }))
        .status,
    ).toBe(200);
    await sendAgentMessage(core, { customerId: 'v-1', message: { type: 'text', text: 'hello' } });

    // both chats close: CHAT_CLOSED to the bot (docs), hook chat_finished for each
    closeChat(core, { chatId: 1 });
    closeChat(core, { customerId: 'v-1' });
    await s.provider.waitForHits(4);
    await s.clock.settle();

    expect(eventsOf(s.provider.hits)).toEqual([
      'CLIENT_MESSAGE',
      'AGENT_JOINED',
      'AGENT_MESSAGE',
      'CHAT_CLOSED',
    ]);
    expect(s.events.of('hook-sent').map((e) => [e.event, e.chatId])).toEqual([
      ['chat_accepted', 1],
      ['chat_accepted', 2],
      ['chat_finished', 1],
      ['chat_finished', 2],
    ]);
    expect(s.events.of('widget-push').map((e) => e.event)).toEqual([
      'agent_accepted',
      'agent_message',
      'chat_closed', // the page is told its chat closed
    ]);
    expect(core.observerFailures).toEqual([]);
  });

  it('a planted listener that sets chat.mode fails the check, by name', async () => {
    const s = await startBotPlatform({ platform: { checkObservers: true } });
    const core = s.platform.core;
    plantDecider(core);
    await postTo(s.channelUrl, customerText('hello'));
    expect(core.observerFailures).toHaveLength(1);
    expect(core.observerFailures[0]).toMatchObject({
      code: 'SVC_E_OBSERVER_CHANGED_STATE',
      category: 'internal',
      message: expect.stringContaining('the planted decider') as unknown,
    });
    expect(core.observerFailures[0]?.message).toContain('chat-opened');
  });

  it('every bot test checks by default: closing its platform fails on a listener that decided', async () => {
    const s = await startBotPlatform();
    plantDecider(s.platform.core);
    await postTo(s.channelUrl, customerText('hello'));
    await expect(closeBotPlatforms()).rejects.toMatchObject({
      code: 'SVC_E_OBSERVER_CHANGED_STATE',
    });
  });

  it('off (the default outside tests): the same listener is not checked, no snapshot taken', async () => {
    const s = await startBotPlatform({ platform: { checkObservers: false } });
    plantDecider(s.platform.core);
    await postTo(s.channelUrl, customerText('hello'));
    expect(s.platform.core.state.chats.get(1)?.mode).toBe('queue');
    expect(s.platform.core.observerFailures).toEqual([]);
  });
});

/** A listener that decides: it takes the chat away from the bot as the chat opens. */
function plantDecider(core: PlatformCore): void {
  core.on((event, view) => {
    if (event.type !== 'chat-opened') return;
    const chat = view.state.chats.get(event.chatId);
    if (!chat) return;
    // @ts-expect-error observers get a read-only view: the type refuses the write
    chat.mode = 'queue';
  }, 'the planted decider');
}
