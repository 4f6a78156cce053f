import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { formatPlatformEvent } from '../../src/cli/render/platform-events.js';
import { postJson } from '../../src/http/client.js';
import {
  createPlatform,
  sendAgentMessage,
  type Platform,
  type PlatformEvent,
  type PlatformOptions,
} from '../../src/platform/index.js';

// Peers written here as a web framework answers an unhandled exception or a missing route:
// a plain node:http server, no svc-cli role (conventions 21: foreign peers, not mirrors).

type Answer = (req: IncomingMessage, res: ServerResponse, body: string) => void;

const servers: Server[] = [];
const platforms: Platform[] = [];

afterEach(async () => {
  await Promise.all(platforms.splice(0).map((p) => p.close()));
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

/** A peer on a loopback port that reads each request's body, then answers as `answer` says. */
async function startPeer(answer: Answer): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => answer(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A debug page as frameworks write one: doctype, meta tags, the exception in the title. */
const debugPage = (title: string): string =>
  [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '  <meta http-equiv="content-type" content="text/html; charset=utf-8">',
    `  <title>${title}</title>`,
    '</head>',
    `<body><pre>${'Traceback frame\n'.repeat(300)}</pre></body></html>`,
  ].join('\n');

const send = (res: ServerResponse, status: number, type: string, body: string) => {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
};

async function startPlatform(options: Pick<PlatformOptions, 'bot' | 'hooks'> & { agent?: string }) {
  const clock = createVirtualClock();
  const platform = createPlatform({
    clock,
    agentsOnline: true,
    channels: [{ id: 'shop', integratorUrl: options.agent ?? 'http://127.0.0.1:9/unused' }],
    ...(options.bot ? { bot: options.bot } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  });
  platforms.push(platform);
  const events: PlatformEvent[] = [];
  platform.core.on((e) => events.push(e));
  await platform.listen({ port: 0 });
  const channelUrl = platform.core.channelInfo(platform.core.state.channels.get('shop')!).url;
  const customer = (text: string) =>
    postJson({
      url: channelUrl,
      body: JSON.stringify({
        sender: { id: 'c-1', name: 'Jane' },
        message: { type: 'text', text },
      }),
      timeoutMs: 5000,
      clock: createVirtualClock(),
    });
  return { platform, clock, events, customer };
}

const plain = new Chalk({ level: 0 });
const lines = (events: PlatformEvent[]) =>
  events.map((e) => formatPlatformEvent(e, plain)).filter((l) => l !== undefined);

describe('the platform names what a failing peer answered (spec 4.2, 4.3, 4.4)', () => {
  it("a bot's error page by its title, the token in it masked (spec 4.3, 5.2)", async () => {
    const page = debugPage('RuntimeError at /bot/bot-token-1');
    const peer = await startPeer((_req, res) => send(res, 500, 'text/html', page));
    const s = await startPlatform({
      bot: { providerUrl: `${peer}/bot`, token: 'bot-token-1', providerId: 'acme' },
    });
    expect((await s.customer('hello')).ok).toBe(true);
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'bot-event-sent'));
    const said = `HTTP 500: HTML page "RuntimeError at /bot/***" (${page.length} characters)`;
    const sent = lines(s.events).find((l) => l.includes('→ bot CLIENT_MESSAGE'));
    expect(sent).toContain(`✗ not delivered after 2 attempts: ${said}`);
    const attempts = lines(s.events).filter(
      (l) => l.includes('✗ bot attempt') && l.includes('CLIENT_MESSAGE'),
    );
    expect(attempts).toHaveLength(2);
    for (const line of attempts) expect(line).toContain(said);
    expect(JSON.stringify(s.events)).not.toContain('bot-token-1');
  });

  it('a bot that took CLIENT_MESSAGE and drops AGENT_JOINED is asked whether it reads message (spec 6.1)', async () => {
    const hint =
      'the bot took CLIENT_MESSAGE (HTTP 200), but AGENT_JOINED carries no message, only event, id, client_id and chat_id (spec 2.5, 6.1)';
    // a bot that reads message.text of every event: its framework closes the connection on
    // the error (the notices carry no message); `everything` drops CLIENT_MESSAGE too
    const agentJoinedLine = async (everything: boolean) => {
      const peer = await startPeer((req, res, body) => {
        const event = JSON.parse(body) as { message?: { text: string } };
        if (everything || event.message === undefined) return req.socket.destroy();
        send(res, 200, 'application/json', '{}');
      });
      const s = await startPlatform({
        bot: { providerUrl: `${peer}/bot`, token: 'bot-token-1', providerId: 'acme' },
      });
      await s.customer('hello');
      await s.clock.runUntil(() => s.events.some((e) => e.type === 'bot-event-sent'));
      void sendAgentMessage(s.platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
      const joined = (e: PlatformEvent) =>
        e.type === 'bot-event-sent' && e.event === 'AGENT_JOINED';
      await s.clock.runUntil(() => s.events.some(joined));
      return lines(s.events).find((l) => l.includes('→ bot AGENT_JOINED')) ?? '';
    };
    const dropped = await agentJoinedLine(false);
    expect(dropped).toContain('✗ not delivered after 2 attempts: the connection was reset');
    expect(dropped).toContain(hint);
    // a bot that takes no event at all is not asked about notices
    const down = await agentJoinedLine(true);
    expect(down).toContain('✗ not delivered after 2 attempts');
    expect(down).not.toContain('carries no message');
  });

  it("a hook receiver's JSON error body, quoted short (spec 4.4)", async () => {
    const peer = await startPeer((_req, res) =>
      send(
        res,
        500,
        'application/json',
        `{"error": "KeyError: 'visitor'", "trace": "${'x'.repeat(200)}"}`,
      ),
    );
    const s = await startPlatform({ hooks: { url: `${peer}/hooks` } });
    await s.customer('hello');
    // the agent's message settles once its delivery does: the clock moves it on
    void sendAgentMessage(s.platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'hook-reply'));
    const attempt = lines(s.events).find((l) => l.includes('✗ hook attempt 1/1'));
    expect(attempt).toContain(`HTTP 500: {"error": "KeyError: 'visitor'", "trace": "xxxxxxxxxx`);
    expect(attempt).toMatch(/x… {2}chat_accepted chat 1$/);
  });

  it("an integrator's plain-text error body, and no quote for an empty one (spec 4.2)", async () => {
    let n = 0;
    const peer = await startPeer((_req, res) =>
      ++n === 1
        ? send(res, 503, 'text/plain', 'upstream\n down')
        : send(res, 502, 'text/plain', ''),
    );
    const s = await startPlatform({ agent: `${peer}/agent` });
    await s.customer('hello');
    // the agent's message settles once its delivery does: the clock moves it on
    void sendAgentMessage(s.platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'delivery-done'));
    const attempts = lines(s.events).filter((l) => l.includes('✗ integrator attempt'));
    // the first attempt also says what the platform takes, once per message
    expect(attempts[0]).toContain(
      ') HTTP 503: upstream down; the platform takes only HTTP 200 with {"result":"ok"} or {"error":{"code","message"}} (spec 2.2, 4.2)  msg ',
    );
    expect(attempts[1]).toContain(') HTTP 502  msg ');
  });
});
