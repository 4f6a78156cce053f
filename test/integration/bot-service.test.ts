import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { formatPlatformEvent } from '../../src/cli/render/platform-events.js';
import { botOptions } from '../../src/cli/commands/platform-bot.js';
import { botMessage, customerText, postTo } from '../helpers/bot.js';
import { closeBotPlatforms, startBotPlatform as start } from '../helpers/bot-platform.js';

afterEach(closeBotPlatforms);

/**
 * The platform's warnings after two customer messages to a bot that answers every event 200
 * with `body` (the second shows what is said once only).
 */
async function warningsOfTwoMessages(body: unknown): Promise<string[]> {
  const s = await start({ reply: () => ({ status: 200, body }) });
  await postTo(s.channelUrl, customerText('one'));
  await s.events.waitFor('bot-event-sent');
  await postTo(s.channelUrl, customerText('two'));
  await s.provider.waitForHits(2);
  await s.clock.settle();
  return s.events
    .of('notice')
    .filter((n) => n.level === 'warning')
    .map((n) => n.message);
}

describe('bot service: customer -> CLIENT_MESSAGE -> BOT_MESSAGE (spec 3, 4.3)', () => {
  it('sends CLIENT_MESSAGE to the provider and delivers the BOT_MESSAGE to the customer', async () => {
    const s = await start();
    expect((await postTo(s.channelUrl, customerText('hello bot'))).status).toBe(200);
    const [hit] = await s.provider.waitForHits(1);
    expect(hit!.path).toBe('/bot-token-1');
    expect(hit!.json).toMatchObject({
      event: 'CLIENT_MESSAGE',
      client_id: '501',
      chat_id: '1',
      message: { type: 'TEXT', text: 'hello bot' },
    });
    expect(typeof hit!.json.id).toBe('string');
    expect(typeof hit!.json.message.timestamp).toBe('number');
    const sent = await s.events.waitFor('bot-event-sent');
    expect(sent).toMatchObject({ event: 'CLIENT_MESSAGE', result: 'delivered', attempts: 1 });
    // spec 5.2: the token is a secret; the event stream (console, --json) shows it masked
    const attempt = s.events.of('delivery-attempt').find((e) => e.target === 'bot');
    expect(attempt?.url).toMatch(/\/\*\*\*$/);
    expect(JSON.stringify(s.events.events)).not.toContain('bot-token-1');

    const res = await postTo(
      s.webhook,
      botMessage('1', { type: 'TEXT', text: 'Hi, I am the bot' }),
    );
    expect(res).toEqual({ status: 200, json: { result: 'ok' } });
    const [delivered] = await s.harness.waitForEvents(1);
    expect(delivered).toMatchObject({
      type: 'agent-message',
      kind: 'channel.agent.text',
      channel: 'shop',
    });
    const chat = s.platform.core.state.chats.get(1)!;
    expect(chat.mode).toBe('bot');
    expect(chat.lines.map((l) => l.type)).toEqual(['visitor', 'bot']);
    await s.clock.settle();
    const journal = s.platform.core.journal.entries();
    const payload = JSON.parse(
      journal.find((e) => e.iface === 'channel' && e.direction === 'out')!.request.body!,
    );
    expect(payload).toMatchObject({
      sender: { name: 'Bot' },
      recipient: { id: 'cust-1' },
      message: { type: 'text', text: 'Hi, I am the bot' },
    });
  });

  it('a BOT_MESSAGE refused for a missing field names the field sent instead (did you mean)', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hello bot'));
    await s.provider.waitForHits(1);
    const res = await postTo(s.webhook, botMessage('1', { type: 'TEXT', txet: 'Hi' }));
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json)).toContain(
      'sent but not in the spec: message.txet (did you mean text?)',
    );
  });

  it('says a millisecond timestamp in a BOT_MESSAGE it accepts, as validate and proxy do', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hello bot'));
    await s.provider.waitForHits(1);
    const res = await postTo(
      s.webhook,
      botMessage('1', { type: 'TEXT', text: 'Hi', timestamp: 1_700_000_000_000 }),
    );
    expect(res.status).toBe(200);
    const received = await s.events.waitFor('bot-event-received');
    expect(received.warnings).toEqual([
      'message.timestamp: looks like milliseconds; unix time counts seconds (accepted) (spec 2.5)',
    ]);
    const line = formatPlatformEvent(received, new Chalk({ level: 0 }));
    expect(line).toContain(
      'warning: message.timestamp: looks like milliseconds; unix time counts seconds (accepted) (spec 2.5)',
    );
    await s.clock.settle();
    const record = s.platform.core.journal
      .entries()
      .find((e) => e.iface === 'bot' && e.kind === 'bot.event.BOT_MESSAGE');
    expect(record?.verdict?.warnings).toHaveLength(1);
  });

  it('names the chat and event of every attempt, so overlapping series can be told apart', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hello bot'));
    await s.events.waitFor('bot-event-sent');
    await postTo(s.webhook, botMessage('1', { type: 'TEXT', text: 'Hi' }));
    await s.harness.waitForEvents(1);
    await s.clock.settle();
    const series = (target: string) =>
      s.events.events.filter(
        (e) => (e.type === 'delivery-attempt' || e.type === 'delivery-done') && e.target === target,
      );
    for (const e of series('bot'))
      expect(e).toMatchObject({ chatId: 1, kind: 'bot.event.CLIENT_MESSAGE' });
    for (const e of series('integrator'))
      expect(e).toMatchObject({ chatId: 1, kind: 'channel.agent.text' });
    const plain = new Chalk({ level: 0 });
    const lines = s.events.events.map((e) => formatPlatformEvent(e, plain));
    const [botAttempt] = series('bot');
    expect(formatPlatformEvent(botAttempt!, plain)).toMatch(
      /✓ bot attempt 1\/2 at \+0\.000s .* HTTP 200 {2}CLIENT_MESSAGE chat 1$/,
    );
    // the bot event's verdict is its `→ bot` line alone, not a second `delivered` line too
    expect(lines.filter((l) => l?.includes('delivered after'))).toHaveLength(1);
    // the integrator's series names its agent message too (msg + the start of message.id)
    expect(lines.find((l) => l?.includes('delivered after'))).toMatch(/ {2}msg [\w-]{8} chat 1$/);
  });

  it('warns once when the bot answers in its HTTP reply, which the platform never reads', async () => {
    const notices = await warningsOfTwoMessages({ message: 'Hi from the reply' });
    expect(notices).toHaveLength(1);
    expect(notices[0]).toBe(
      'the bot answered CLIENT_MESSAGE with {"message":"Hi from the reply"} in its HTTP reply: the platform reads only the 200 (spec 4.3); a bot answers the customer with a BOT_MESSAGE POSTed to the bot webhook in the banner (spec 6.1)',
    );
  });

  it('notes once per event a 200 whose body is an error (the bot does not handle it)', async () => {
    // a public Python bot framework answers events it does not know so
    const notices = await warningsOfTwoMessages({
      error: { code: 'unsupported_event', message: 'Unsupported event type' },
    });
    expect(notices).toEqual([
      'the bot answered CLIENT_MESSAGE with HTTP 200 and an error (unsupported_event: Unsupported event type): the platform reads only the status, so the event counts as delivered (spec 4.3); does the bot handle CLIENT_MESSAGE?',
    ]);
  });

  it('warns once when the bot reuses an event id on a different event, not on a retry', async () => {
    // a bot written for the real platform hard-codes its event id
    const s = await start();
    await postTo(s.channelUrl, customerText('hello bot'));
    await s.provider.waitForHits(1);
    const first = { ...botMessage('1', { type: 'TEXT', text: 'Hi' }), id: 'ev-1' };
    // the same event again (a retry) is no reuse
    for (const body of [first, first]) expect((await postTo(s.webhook, body)).status).toBe(200);
    expect(s.events.of('notice')).toEqual([]);
    const second = { ...botMessage('1', { type: 'TEXT', text: 'Anything else?' }), id: 'ev-1' };
    const invite = { event: 'INVITE_AGENT', id: 'ev-1', client_id: '501', chat_id: '1' };
    for (const body of [second, invite]) expect((await postTo(s.webhook, body)).status).toBe(200);
    await s.clock.settle();
    const warnings = s.events.of('notice').filter((n) => n.level === 'warning');
    expect(warnings.map((n) => n.message)).toEqual([
      'the bot sent event id "ev-1" again on a different event (two BOT_MESSAGE for chat 1 with different bodies): an id names one event (spec 2.5), so logs that go by it mix the two up; both were taken',
    ]);
    // both reached the customer, and the invitation handed the chat over
    expect(s.platform.core.state.chats.get(1)!.mode).toBe('agent');
  });

  it('takes an empty or acknowledging 200 without a word', async () => {
    for (const body of [{}, { result: 'ok' }]) {
      const s = await start({ reply: () => ({ status: 200, body }) });
      await postTo(s.channelUrl, customerText('hi'));
      await s.events.waitFor('bot-event-sent');
      expect(s.events.of('notice')).toEqual([]);
    }
  });

  it('delivers BUTTONS and MARKDOWN as their text fallback on the custom channel', async () => {
    const s = await start({ bot: { senderName: 'Shop bot' } });
    await postTo(s.channelUrl, customerText('menu'));
    await s.provider.waitForHits(1);
    const buttons = botMessage('1', {
      type: 'BUTTONS',
      title: 'Pick',
      text: 'Choose: 1 Orders, 2 Returns, 3 Other',
      buttons: [
        { id: 'orders', text: 'Orders' },
        { id: 2, text: 'Returns' },
        { id: 'other', text: 'Other' },
      ],
    });
    expect((await postTo(s.webhook, buttons)).status).toBe(200);
    const markdown = botMessage('1', { type: 'MARKDOWN', content: '**Bold**', text: 'Bold' });
    expect((await postTo(s.webhook, markdown)).status).toBe(200);
    await s.harness.waitForEvents(2);
    const sent = s.events.of('bot-message');
    expect(sent.map((e) => [e.messageType, e.text, e.fallback, e.sender])).toEqual([
      ['BUTTONS', 'Choose: 1 Orders, 2 Returns, 3 Other', true, 'Shop bot'],
      ['MARKDOWN', 'Bold', true, 'Shop bot'],
    ]);
  });

  it('does not deliver a MARKDOWN without its text fallback, and reports it', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hi'));
    await s.provider.waitForHits(1);
    const res = await postTo(s.webhook, botMessage('1', { type: 'MARKDOWN', content: '*x*' }));
    expect(res.status).toBe(200);
    const violation = await s.events.waitFor('violation', (v) => v.source === 'bot');
    expect(violation).toMatchObject({
      outcome: 'not-delivered',
      issues: [{ path: 'message.text', spec: '2.5' }],
    });
    expect(s.events.of('bot-event-received').at(-1)).toMatchObject({ outcome: 'not-delivered' });
    expect(s.events.of('bot-message')).toEqual([]);
    expect(s.harness.events).toEqual([]);
  });
});

describe('bot service: the event stream reads in the order things happened', () => {
  it('reports a BOT_MESSAGE, a MARKDOWN without fallback and an INVITE_AGENT received before what each causes', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hi'));
    await s.provider.waitForHits(1);
    const order = (from: number) =>
      s.events.events
        .slice(from)
        .filter((e) => e.type !== 'delivery-attempt' || e.target === 'integrator')
        .map((e) => e.type)
        .filter((t) =>
          [
            'bot-event-received',
            'bot-message',
            'delivery-attempt',
            'violation',
            'bot-handover',
          ].includes(t),
        );
    let from = s.events.events.length;
    await postTo(s.webhook, botMessage('1', { type: 'TEXT', text: 'Hi' }));
    await s.events.waitFor('delivery-attempt', (e) => e.target === 'integrator');
    expect(order(from)).toEqual(['bot-event-received', 'bot-message', 'delivery-attempt']);
    from = s.events.events.length;
    await postTo(s.webhook, botMessage('1', { type: 'MARKDOWN', content: '*x*' }));
    expect(order(from)).toEqual(['bot-event-received', 'violation']);
    from = s.events.events.length;
    await postTo(s.webhook, {
      event: 'INVITE_AGENT',
      id: 'inv-1',
      client_id: '501',
      chat_id: '1',
    });
    await s.events.waitFor('bot-handover');
    expect(order(from)).toEqual(['bot-event-received', 'bot-handover']);
  });
});

describe('bot service: hand-over (spec 3, 6.1)', () => {
  it('INVITE_AGENT with agents online: an agent joins, AGENT_JOINED goes to the bot, the bot is no longer asked', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('agent please'));
    await s.provider.waitForHits(1);
    const invite = { event: 'INVITE_AGENT', id: 'inv-1', client_id: '501', chat_id: '1' };
    expect((await postTo(s.webhook, invite)).status).toBe(200);
    const [, joined] = await s.provider.waitForHits(2);
    expect(joined!.json).toMatchObject({
      event: 'AGENT_JOINED',
      client_id: '501',
      chat_id: '1',
    });
    expect(s.events.of('bot-handover')[0]).toMatchObject({ chatId: 1, to: 'agent' });
    expect(s.events.of('bot-agent-joined')[0]).toMatchObject({ chatId: 1, agentId: 1 });
    const chat = s.platform.core.state.chats.get(1)!;
    expect(chat).toMatchObject({ mode: 'agent', agentId: 1 });
    await s.events.waitFor('bot-event-sent', (e) => e.event === 'AGENT_JOINED');
    // after the join, customer messages no longer go to the bot
    await postTo(s.channelUrl, customerText('are you human?'));
    await s.events.waitFor('customer-message', (e) => e.text === 'are you human?');
    await s.clock.settle(); // every tracked exchange has ended
    expect(s.provider.hits).toHaveLength(2);
  });

  it('a second INVITE_AGENT is taken and said: no second hand-over, no second AGENT_JOINED', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('agent please'));
    await s.provider.waitForHits(1);
    const invite = { event: 'INVITE_AGENT', id: 'inv-1', client_id: '501', chat_id: '1' };
    expect((await postTo(s.webhook, invite)).status).toBe(200);
    await s.events.waitFor('bot-event-sent', (e) => e.event === 'AGENT_JOINED');
    expect((await postTo(s.webhook, { ...invite, id: 'inv-2' })).status).toBe(200);
    // taken before it is answered: the event is in when the 200 is
    const second = s.events.of('bot-event-received').filter((e) => e.event === 'INVITE_AGENT')[1];
    expect(second?.warnings).toEqual([
      'event: INVITE_AGENT for chat 1, which an agent already has: nothing to hand over (spec 3)',
    ]);
    await s.clock.settle();
    expect(s.events.of('bot-handover')).toHaveLength(1);
    expect(s.provider.hits.filter((h) => h.json.event === 'AGENT_JOINED')).toHaveLength(1);
  });

  it('INVITE_AGENT with agents offline: AGENT_UNAVAILABLE goes to the bot, which keeps the chat', async () => {
    const s = await start({ agentsOnline: false });
    await postTo(s.channelUrl, customerText('operator'));
    await s.provider.waitForHits(1);
    await postTo(s.webhook, {
      event: 'INVITE_AGENT',
      id: 'inv-2',
      client_id: '501',
      chat_id: '1',
    });
    const [, unavailable] = await s.provider.waitForHits(2);
    expect(unavailable!.json).toMatchObject({
      event: 'AGENT_UNAVAILABLE',
      chat_id: '1',
      client_id: '501',
    });
    expect(s.events.of('bot-handover')[0]).toMatchObject({ to: 'bot' });
    expect(s.platform.core.state.chats.get(1)!.mode).toBe('bot');
    // the bot keeps asking: it can collect contact data
    await postTo(s.channelUrl, customerText('me@example.com'));
    const [, , third] = await s.provider.waitForHits(3);
    expect(third!.json).toMatchObject({
      event: 'CLIENT_MESSAGE',
      message: { text: 'me@example.com' },
    });
  });

  it('an agent answering in a bot chat joins: AGENT_JOINED, and the bot is no longer asked', async () => {
    const s = await start();
    await postTo(s.channelUrl, customerText('hi'));
    await s.provider.waitForHits(1);
    const res = await postTo(`${s.server.url}/_sim/agent/message`, {
      chatId: 1,
      text: 'Agent here',
    });
    expect(res.status).toBe(200);
    const [, joined] = await s.provider.waitForHits(2);
    expect(joined!.json.event).toBe('AGENT_JOINED');
    expect(s.platform.core.state.chats.get(1)!.lines.map((l) => l.type)).toEqual([
      'visitor',
      'agent',
    ]);
  });

  it('--bot-attempts 3 (the public docs\' "2 retries"): attempts at 0, 3 and 6 s, hand-over at >= 9 s', async () => {
    const clock = createVirtualClock();
    const policy = botOptions({
      botProviderUrl: 'http://127.0.0.1:9/bot',
      botToken: 't',
      providerId: 'acme',
      botRateLimit: '100/1s',
      botName: 'Bot',
      botAttempts: 3,
    })?.policy;
    const s = await start({
      clock,
      reply: (hit) => (hit.json?.event === 'CLIENT_MESSAGE' ? 'hang' : 200),
      ...(policy ? { bot: { policy } } : {}),
    });
    await postTo(s.channelUrl, customerText('anyone?'));
    expect(await clock.runUntil(() => s.events.of('bot-handover').length > 0, 30_000)).toBe(true);
    const first = s.events.of('bot-event-sent')[0]!;
    const attempts = s.events.of('delivery-attempt').filter((e) => e.deliveryId === first.eventId);
    expect(attempts.map((a) => a.offsetMs)).toEqual([0, 3000, 6000]);
    const handover = s.events.of('bot-handover')[0]!;
    expect(handover.reason).toBe(
      'no regular answer from the bot in 3 attempts (timeout after 3000 ms)',
    );
    expect(handover.protocolMs).toBeGreaterThanOrEqual(9000);
  });

  it('a silent bot: attempts at protocol 0 s and 3 s, then the customer goes to an agent at >= 6 s', async () => {
    const clock = createVirtualClock();
    const s = await start({
      clock,
      reply: (hit) => (hit.json?.event === 'CLIENT_MESSAGE' ? 'hang' : 200),
    });
    await postTo(s.channelUrl, customerText('anyone?'));
    const ok = await clock.runUntil(() => s.events.of('bot-handover').length > 0, 20_000);
    expect(ok).toBe(true);
    const first = s.events.of('bot-event-sent')[0]!;
    expect(first).toMatchObject({ event: 'CLIENT_MESSAGE', result: 'failed', attempts: 2 });
    const attempts = s.events.of('delivery-attempt').filter((e) => e.deliveryId === first.eventId);
    expect(attempts.map((a) => [a.attempt, a.offsetMs, a.outcome])).toEqual([
      [1, 0, 'rejected'],
      [2, 3000, 'rejected'],
    ]);
    expect(attempts[0]!.reason).toBe('timeout after 3000 ms');
    const handover = s.events.of('bot-handover')[0]!;
    expect(handover).toMatchObject({
      chatId: 1,
      reason: 'no regular answer from the bot in 2 attempts (timeout after 3000 ms)',
      to: 'agent',
    });
    expect(handover.protocolMs).toBeGreaterThanOrEqual(6000);
    expect(s.platform.core.state.chats.get(1)!.mode).toBe('agent');
    await clock.runUntil(
      () => s.events.of('bot-event-sent').some((e) => e.event === 'AGENT_JOINED'),
      20_000,
    );
  });
});
