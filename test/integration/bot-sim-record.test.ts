/**
 * `bot-sim --record` holds both halves of the bot's conversation: the events the platform
 * posted it and bot-sim's own posts back (BOT_MESSAGE, INVITE_AGENT; with --auth its token
 * requests), each with the platform's answer or why none came, journaled as every outbound
 * exchange of svc-cli is (direction `out`). Before, only the events it received were there, so
 * a trace of its recording showed the customer's messages to the bot and none of its answers.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createJournal, createRedactor, type ExchangeRecord } from '../../src/journal/index.js';
import { conversationsOf } from '../../src/trace/invariants.js';
import { customerText, postTo } from '../helpers/bot.js';
import { closeBotSims, startBotSim } from '../helpers/bot-sim.js';

afterEach(closeBotSims);

/** A journal as bot-sim --record keeps one: the token hidden wherever it appears. */
const recording = () => createJournal({ redact: createRedactor(['sim-token']) });

const outbound = (records: readonly ExchangeRecord[]): ExchangeRecord[] =>
  records.filter((r) => r.direction === 'out');

/** A loopback port nothing listens on (a server bound on port 0, then closed). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('bot-sim --record', () => {
  it("journals the bot's answers to the platform, which trace draws in the conversation", async () => {
    const journal = recording();
    const s = await startBotSim({ journal });
    await postTo(s.channelUrl, customerText('hello there'));
    await s.waitForBot('bot-sent');
    await postTo(s.channelUrl, customerText('I want an agent'));
    await s.waitForBot('bot-sent', (e) => e.event === 'INVITE_AGENT');
    await s.waitForBot('bot-received', (e) => e.event === 'AGENT_JOINED');
    await s.bot.idle();
    const records = journal.entries();
    const sent = outbound(records);
    expect(sent.map((r) => r.kind)).toEqual(['bot.event.BOT_MESSAGE', 'bot.event.INVITE_AGENT']);
    expect(sent[0]).toMatchObject({
      iface: 'bot',
      direction: 'out',
      chat: 1,
      request: {
        method: 'POST',
        url: `${s.server.url}/webhooks/acme/***`,
        headers: { 'content-type': 'application/json' },
      },
      response: { status: 200, body: '{"result":"ok"}' },
      verdict: { ok: true, errors: [] },
    });
    expect(JSON.parse(sent[0]!.request.body!)).toMatchObject({
      event: 'BOT_MESSAGE',
      chat_id: '1',
      message: { type: 'TEXT', text: 'You said: hello there' },
    });
    expect(sent[0]!.durationMs).toBeGreaterThanOrEqual(0);
    // trace: one conversation, each exchange as the platform saw it, the answers from the bot
    const [chat, ...more] = conversationsOf(records);
    expect(more).toEqual([]);
    const spans = chat!.spans.map((span) => ({
      name: span.name,
      direction: span.direction,
      ...(span.text === undefined ? {} : { text: span.text }),
      cause: chat!.spans.find((c) => c.seq === span.cause)?.name,
    }));
    expect(spans).toEqual([
      { name: 'CLIENT_MESSAGE', direction: 'out', text: 'hello there', cause: undefined },
      {
        name: 'BOT_MESSAGE',
        direction: 'in',
        text: 'You said: hello there',
        cause: 'CLIENT_MESSAGE',
      },
      { name: 'CLIENT_MESSAGE', direction: 'out', text: 'I want an agent', cause: undefined },
      { name: 'INVITE_AGENT', direction: 'in', cause: 'CLIENT_MESSAGE' },
      { name: 'AGENT_JOINED', direction: 'out', cause: 'INVITE_AGENT' },
    ]);
  });

  it('journals a post the platform never answered with why', async () => {
    const journal = recording();
    const s = await startBotSim({ journal });
    s.bot.setPlatformUrl(`http://127.0.0.1:${await closedPort()}`);
    const res = await postTo(`${s.bot.url}/sim-token`, {
      event: 'CLIENT_MESSAGE',
      id: 'ev-1',
      client_id: '501',
      chat_id: '7',
      message: { type: 'TEXT', text: 'anyone there?', timestamp: 1700000000 },
    });
    expect(res.status).toBe(200);
    expect(await s.waitForBot('bot-sent')).toMatchObject({ event: 'BOT_MESSAGE', error: /./ });
    const [sent, ...more] = outbound(journal.entries());
    expect(more).toEqual([]);
    expect(sent).toMatchObject({
      kind: 'bot.event.BOT_MESSAGE',
      chat: 7,
      failure: { reason: 'refused' },
    });
    expect(sent!.response).toBeUndefined();
  });

  it('journals its token requests with --auth, the secret and the token masked (spec 5.3)', async () => {
    const journal = recording();
    const s = await startBotSim({
      journal,
      auth: { clientId: 'acme-client', clientSecret: 's3cret' },
      platformAuth: true,
    });
    await postTo(s.channelUrl, customerText('secure hello'));
    await s.waitForBot('bot-sent');
    const [token, answer, ...more] = outbound(journal.entries());
    expect(more).toEqual([]);
    expect(token).toMatchObject({
      iface: 'bot',
      request: {
        method: 'POST',
        url: `${s.server.url}/oauth/token`,
        body: 'grant_type=client_credentials&client_id=acme-client&client_secret=***',
      },
      response: { status: 200 },
    });
    expect(token!.response!.body).toContain('"access_token":"***"');
    expect(answer).toMatchObject({
      kind: 'bot.event.BOT_MESSAGE',
      request: {
        url: `${s.server.url}/providers/acme/***`,
        headers: { authorization: 'Bearer ***' },
      },
      response: { status: 200 },
    });
  });
});
