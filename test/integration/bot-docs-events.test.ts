import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { runConformSuite } from '../../src/conversation/conform/index.js';
import { closeChat, sendAgentMessage } from '../../src/platform/agent.js';
import { createBotProvider } from '../../src/roles/bot/index.js';
import { customerText, postTo } from '../helpers/bot.js';
import { closeBotPlatforms, startBotPlatform as start } from '../helpers/bot-platform.js';
import { closeBotSims, startBotSim } from '../helpers/bot-sim.js';
import { closePeers, json, startPeer } from '../helpers/broken-peers.js';

afterEach(closeBotPlatforms);

// the public Bot API's CHAT_CLOSED and CLIENT_INFO, behind --bot-events docs
describe('bot service with --bot-events docs (public Bot API, beyond spec 6.1)', () => {
  it('sends CHAT_CLOSED with the chat envelope when a bot chat closes', async () => {
    const s = await start({ bot: { botEvents: 'docs' } });
    await postTo(s.channelUrl, customerText('hello'));
    await s.provider.waitForHits(1);
    closeChat(s.platform.core, { chatId: 1 });
    const [, closed] = await s.provider.waitForHits(2);
    expect(closed!.path).toBe('/bot-token-1');
    expect(closed!.json).toMatchObject({
      event: 'CHAT_CLOSED',
      chat_id: '1',
      client_id: '501',
    });
    expect(typeof closed!.json.id).toBe('string');
    expect(
      await s.events.waitFor('bot-event-sent', (e) => e.event === 'CHAT_CLOSED'),
    ).toMatchObject({ result: 'delivered' });
  });

  it('sends AGENT_MESSAGE with the text when an agent writes in a chat the bot is part of', async () => {
    const s = await start({ bot: { botEvents: 'docs' } });
    await postTo(s.channelUrl, customerText('hello'));
    await s.provider.waitForHits(1);
    await sendAgentMessage(s.platform.core, {
      customerId: 'cust-1',
      message: { type: 'text', text: 'Anna here, I will take it from here' },
    });
    const hits = await s.provider.waitForHits(3);
    expect(hits.map((h) => String(h.json.event))).toEqual([
      'CLIENT_MESSAGE',
      'AGENT_JOINED',
      'AGENT_MESSAGE',
    ]);
    expect(hits[2]!.json).toMatchObject({
      chat_id: '1',
      client_id: '501',
      message: { type: 'TEXT', text: 'Anna here, I will take it from here' },
    });
    expect(typeof (hits[2]!.json.message as { timestamp: unknown }).timestamp).toBe('number');
  });

  it('without the switch a closing chat sends nothing more to the bot (spec 6.1: five events)', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hello'));
    await s.provider.waitForHits(1);
    closeChat(s.platform.core, { chatId: 1 });
    await s.clock.settle();
    expect(s.provider.hits.map((h) => String(h.json.event))).toEqual(['CLIENT_MESSAGE']);
    // a bot author waiting for CHAT_CLOSED is told the switch, once per run
    const told = s.events.of('notice').filter((e) => e.message.includes('CHAT_CLOSED'));
    expect(told.map((e) => [e.level, e.message])).toEqual([
      [
        'info',
        "the bot is not told that chat 1 closes: CHAT_CLOSED is the public Bot API's event, sent with --bot-events docs (spec 6.1)",
      ],
    ]);
    await postTo(s.channelUrl, customerText('hello again'));
    await s.provider.waitForHits(2);
    closeChat(s.platform.core, { chatId: 2 });
    await s.clock.settle();
    expect(s.events.of('notice').filter((e) => e.message.includes('CHAT_CLOSED'))).toHaveLength(1);
  });

  it('takes CLIENT_INFO: the contact data reaches the visitor (customer-updated, hook chat_updated)', async () => {
    const s = await start({ bot: { botEvents: 'docs' }, agentsOnline: false });
    await postTo(s.channelUrl, customerText('my mail is jane@example.com'));
    await s.provider.waitForHits(1);
    const res = await postTo(s.webhook, {
      event: 'CLIENT_INFO',
      id: 'info-1',
      client_id: '501',
      chat_id: '1',
      contact_info: { name: 'Jane', email: 'jane@example.com', phone: '+1 555 0100' },
    });
    expect(res).toEqual({ status: 200, json: { result: 'ok' } });
    const updated = await s.events.waitFor('customer-updated');
    expect(updated.fields).toEqual(['name', 'email', 'phone']);
    const customer = [...s.platform.core.state.customers.values()][0]!;
    expect(customer).toMatchObject({
      name: 'Jane',
      email: 'jane@example.com',
      phone: '+1 555 0100',
    });
  });

  it('refuses CLIENT_INFO with 405 and the switch to use when it is off', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hello'));
    await s.provider.waitForHits(1);
    const res = await postTo(s.webhook, {
      event: 'CLIENT_INFO',
      id: 'info-2',
      client_id: '501',
      chat_id: '1',
      contact_info: { email: 'jane@example.com' },
    });
    expect(res.status).toBe(405);
    expect(JSON.stringify(res.json)).toContain('--bot-events docs');
  });

  it('refuses a CLIENT_INFO whose contact data has the wrong types (the bot is under test)', async () => {
    const s = await start({ bot: { botEvents: 'docs' } });
    await postTo(s.channelUrl, customerText('hello'));
    await s.provider.waitForHits(1);
    const res = await postTo(s.webhook, {
      event: 'CLIENT_INFO',
      id: 'info-3',
      client_id: '501',
      chat_id: '1',
      contact_info: { phone: 5550100 },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain('contact_info.phone');
  });
});

describe('bot-sim and conform bot with --bot-events docs', () => {
  afterEach(closeBotSims);

  it('bot-sim sends CLIENT_INFO with the contact data the customer left, and takes CHAT_CLOSED', async () => {
    const s = await startBotSim({ botEvents: 'docs', agentsOnline: false });
    await postTo(s.channelUrl, customerText('write to jane@example.com or call +1 555 0100'));
    const info = await s.waitForBot('bot-sent', (e) => e.event === 'CLIENT_INFO');
    expect(info).toMatchObject({ status: 200, rule: 'contacts' });
    const updated = await s.events.waitFor('customer-updated');
    expect(updated.fields).toEqual(['email', 'phone']);
    closeChat(s.platform.core, { chatId: 1 });
    const closed = await s.waitForBot('bot-received', (e) => e.event === 'CHAT_CLOSED');
    expect(closed).toMatchObject({ chatId: '1', reply: { status: 200 } });
  });

  it('without the switch bot-sim only thanks the customer: no CLIENT_INFO goes out', async () => {
    const s = await startBotSim();
    await postTo(s.channelUrl, customerText('jane@example.com'));
    expect(await s.waitForBot('bot-sent')).toMatchObject({
      event: 'BOT_MESSAGE',
      text: 'Thank you, we will contact you.',
    });
    await s.bot.idle();
    expect(s.botEvents.filter((e) => e.type === 'bot-sent').map((e) => e.event)).toEqual([
      'BOT_MESSAGE',
    ]);
  });

  it('conform bot --bot-events docs: bot-sim passes CHAT_CLOSED and a valid CLIENT_INFO', async () => {
    const clock = createClock({ timeScale: 1 });
    const bot = await createBotProvider({
      token: 't0k',
      providerId: 'acme',
      clock,
      botEvents: 'docs',
    });
    try {
      const report = await runConformSuite({
        suite: 'bot',
        url: bot.url,
        token: 't0k',
        providerId: 'acme',
        clock,
        texts: ['my e-mail is jane@example.com'],
        botEvents: 'docs',
        onBotService: (info) => bot.setPlatformUrl(info.url),
      });
      expect(report.results.map((r) => r.name)).toContain(
        'CHAT_CLOSED (public docs) answered 200 within 3 s',
      );
      const info = report.results.find((r) => r.name.startsWith('CLIENT_INFO'));
      expect(info?.steps.map((st) => [st.name, st.status])).toEqual([
        ['is valid (1 sent)', 'passed'],
      ]);
      expect(report).toMatchObject({ failed: 0, warnings: 0 });
    } finally {
      await bot.close(10);
    }
  });

  it('conform bot --bot-events docs: a bot refusing CHAT_CLOSED gets a warning, not a failure', async () => {
    const clock = createClock({ timeScale: 1 });
    const url = await startPeer((_req, res, body) => {
      const event = JSON.parse(body) as { event?: string };
      json(res, event.event === 'CHAT_CLOSED' ? 400 : 200, {});
    });
    try {
      const report = await runConformSuite({
        suite: 'bot',
        url,
        token: 't0k',
        clock,
        answerWithinMs: 1000,
        botEvents: 'docs',
      });
      const closed = report.results.find((r) => r.name.startsWith('CHAT_CLOSED'));
      expect(closed?.warnings?.[0]).toMatch(/CHAT_CLOSED answered HTTP 400.*not a failure/);
      expect(closed?.steps[0]?.status).not.toBe('failed');
    } finally {
      await closePeers();
    }
  });
});
