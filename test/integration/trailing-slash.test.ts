import type { IncomingMessage, ServerResponse } from 'node:http';
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock, createVirtualClock } from '../../src/clock.js';
import { formatPlatformEvent } from '../../src/cli/render/platform-events.js';
import { runConformSuite, type ConformCaseResult } from '../../src/conversation/conform/index.js';
import { postJson } from '../../src/http/client.js';
import { wantsTrailingSlash } from '../../src/http/trailing-slash.js';
import {
  createPlatform,
  sendAgentMessage,
  type Platform,
  type PlatformEvent,
  type PlatformOptions,
} from '../../src/platform/index.js';
import { fireHook } from '../../src/roles/hooks/fire.js';
import { closePeers, startPeer } from '../helpers/broken-peers.js';

// Peers whose routes end in `/`, written here as web frameworks behave (no framework code):
// Django with APPEND_SLASH answers a POST to the path without the slash with a 500 page that
// says it cannot redirect a POST; other frameworks redirect to the path with the slash.

const platforms: Platform[] = [];
afterEach(async () => {
  await Promise.all(platforms.splice(0).map((p) => p.close()));
  await closePeers();
});

const appendSlashPage = (path: string): string =>
  [
    '<!DOCTYPE html>',
    '<html lang="en">',
    `<head><meta charset="utf-8"><title>RuntimeError at ${path}</title></head>`,
    '<body><pre class="exception_value">You called this URL via POST, but the URL does not end',
    'in a slash and you have APPEND_SLASH set. The framework cannot redirect to the slash URL',
    'while keeping the POST data.</pre></body></html>',
  ].join('\n');

/** Routes only `<path>/`; the path without the slash gets `miss`. */
const slashOnly =
  (miss: 'append-slash' | 'redirect') =>
  (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    if (path.endsWith('/')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    } else if (miss === 'redirect') {
      res.writeHead(308, { location: `${path}/` });
      res.end();
    } else {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(appendSlashPage(path));
    }
  };

const plain = new Chalk({ level: 0 });

async function startPlatform(options: Pick<PlatformOptions, 'bot' | 'hooks'>) {
  const clock = createVirtualClock();
  const platform = createPlatform({
    clock,
    agentsOnline: true,
    channels: [{ id: 'shop', integratorUrl: 'http://127.0.0.1:9/unused' }],
    ...options,
  });
  platforms.push(platform);
  const events: PlatformEvent[] = [];
  platform.core.on((e) => events.push(e));
  await platform.listen({ port: 0 });
  const channelUrl = platform.core.channelInfo(platform.core.state.channels.get('shop')!).url;
  await postJson({
    url: channelUrl,
    body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hello' } }),
    timeoutMs: 5000,
    clock: createVirtualClock(),
  });
  const lines = () => events.map((e) => formatPlatformEvent(e, plain) ?? '');
  return { platform, clock, events, lines };
}

describe('wantsTrailingSlash', () => {
  const url = 'http://127.0.0.1:8000/bot/t0k';
  it.each([
    ['a 308 to the path plus /', { status: 308, headers: { location: '/bot/t0k/' } }, true],
    ['a 301 to the same, absolute', { status: 301, headers: { location: `${url}/` } }, true],
    [
      'a redirect on another host',
      { status: 302, headers: { location: 'http://x/bot/t0k/' } },
      true,
    ],
    ['a redirect elsewhere', { status: 302, headers: { location: '/login?next=/bot/t0k' } }, false],
    ['a 404 page that names the slash', { status: 404, body: 'add a trailing slash' }, true],
    ['a 500 page about APPEND_SLASH', { status: 500, body: appendSlashPage('/bot/t0k') }, true],
    ['a 500 page about anything else', { status: 500, body: 'KeyError' }, false],
    ['a 200 that names the slash', { status: 200, body: 'trailing slash' }, false],
  ])('%s: %s', (_name, reply, expected) => {
    expect(wantsTrailingSlash({ body: '', ...reply }, url)).toBe(expected);
  });

  it('never for a URL that ends in a slash already', () => {
    expect(
      wantsTrailingSlash({ status: 308, headers: { location: '/h//' }, body: '' }, 'http://h/h/'),
    ).toBe(false);
  });
});

describe('the platform says it posts without a trailing slash (spec 4.3, 4.4)', () => {
  it("a Django bot's APPEND_SLASH page: the bot line names the URL, the token masked", async () => {
    const peer = await startPeer(slashOnly('append-slash'));
    const s = await startPlatform({
      bot: { providerUrl: `${peer}/bot`, token: 'bot-token-1', providerId: 'acme' },
    });
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'bot-event-sent'));
    const line = s.lines().find((l) => l.includes('→ bot CLIENT_MESSAGE'));
    expect(line?.replace(/\(\d+ characters\)/, '(n characters)')).toContain(
      `✗ not delivered after 2 attempts: HTTP 500: HTML page "RuntimeError at /bot/***" (n characters); the platform posts to ${peer}/bot/*** without a trailing slash (spec 4.3); route that path (without the slash) in your app`,
    );
    expect(JSON.stringify(s.events)).not.toContain('bot-token-1');
  });

  it("a hook receiver's redirect to the path with the slash", async () => {
    const peer = await startPeer(slashOnly('redirect'));
    const s = await startPlatform({ hooks: { url: `${peer}/webhook/x` } });
    void sendAgentMessage(s.platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'hook-reply'));
    expect(s.lines().find((l) => l.includes('✗ hook attempt'))).toContain(
      `HTTP 308: the platform posts to ${peer}/webhook/x without a trailing slash (spec 4.4); route that path (without the slash) in your app, or set the hook URL with the slash  chat_accepted chat 1`,
    );
  });

  it('no hint for a redirect elsewhere', async () => {
    const peer = await startPeer((_req, res) => {
      res.writeHead(302, { location: '/login' });
      res.end();
    });
    const s = await startPlatform({ hooks: { url: `${peer}/webhook/x` } });
    void sendAgentMessage(s.platform.core, { chatId: 1, message: { type: 'text', text: 'Hi' } });
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'hook-reply'));
    expect(s.lines().find((l) => l.includes('✗ hook attempt'))).not.toContain('trailing slash');
  });
});

describe('hook-fire, conform hooks and conform bot say so too', () => {
  const hint = (url: string) =>
    `the platform posts to ${url} without a trailing slash; route that path (without the slash) in your app, or set the hook URL with the slash`;

  it('hook-fire: the reply status issue carries the hint', async () => {
    const url = `${await startPeer(slashOnly('redirect'))}/webhook/x`;
    const result = await fireHook({ url, event: 'chat_accepted' });
    expect(result.verdict.errors.map((e) => e.rule)).toEqual([
      `HTTP 308; expected 200 with a JSON reply; ${hint(url)}`,
    ]);
  });

  it('conform hooks: the failed reply check carries the hint', async () => {
    const url = `${await startPeer(slashOnly('append-slash'))}/webhook/x`;
    const report = await runConformSuite({ suite: 'hooks', url, clock: createClock() });
    const details = report.results.flatMap((r) => r.steps.flatMap((s) => s.details));
    expect(details.some((d) => d.includes(hint(url)))).toBe(true);
  });

  it('conform bot: the CLIENT_MESSAGE check names the URL once, after the attempts', async () => {
    const peer = await startPeer(slashOnly('append-slash'));
    // the answer window waits out a bot that never answers: 1/4 keeps that short
    const clock = createClock({ timeScale: 0.25 });
    // a token as providers generate them: the journal masks it (spec 5.2), the page's title too
    const token = 'n1G0JfmBvjnXyjA';
    const report = await runConformSuite({ suite: 'bot', url: `${peer}/bot`, token, clock });
    const first = (report.results[0] as ConformCaseResult).steps[0]!.details;
    expect(JSON.stringify(first)).not.toContain(token);
    expect(first.map((d) => d.replace(/\(\d+ characters\)/, '(n)'))).toEqual([
      'attempt 1: CLIENT_MESSAGE answered HTTP 500 HTML page "RuntimeError at /bot/***" (n); the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8)',
      'attempt 2: CLIENT_MESSAGE answered HTTP 500 HTML page "RuntimeError at /bot/***" (n); the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8)',
      `the platform posts to ${peer}/bot/*** without a trailing slash (spec 4.3); route that path (without the slash) in your app`,
      'after 2 attempts without a regular answer the platform hands the customer to an agent (spec 3, 8)',
    ]);
  });
});

describe("a bot's 404: the path the platform posted to, the token masked (spec 4.3)", () => {
  // a bot that routes another token (or path) and answers the framework's bare 404
  const otherRoute = (req: IncomingMessage, res: ServerResponse): void => {
    res.writeHead(req.url === '/bot/another-token' ? 200 : 404, { 'content-type': 'text/plain' });
    res.end(req.url === '/bot/another-token' ? '{}' : 'Not Found');
  };
  const hint =
    "the platform posts each event to the bot provider URL plus /<token> (here /bot/<token>): is that your bot's route, and does it expect the token the platform was given?";

  it('the platform: the failed CLIENT_MESSAGE line asks about the route', async () => {
    const peer = await startPeer(otherRoute);
    const s = await startPlatform({
      bot: { providerUrl: `${peer}/bot`, token: 'bot-token-1', providerId: 'acme' },
    });
    await s.clock.runUntil(() => s.events.some((e) => e.type === 'bot-event-sent'));
    const line = s.lines().find((l) => l.includes('→ bot CLIENT_MESSAGE'));
    expect(line).toContain(`✗ not delivered after 2 attempts: HTTP 404: Not Found; ${hint}`);
    expect(JSON.stringify(s.events)).not.toContain('bot-token-1');
  });

  it('conform bot: the CLIENT_MESSAGE check asks once, after the attempts', async () => {
    const peer = await startPeer(otherRoute);
    const clock = createClock({ timeScale: 0.25 });
    const token = 'n1G0JfmBvjnXyjA';
    const report = await runConformSuite({ suite: 'bot', url: `${peer}/bot`, token, clock });
    const first = (report.results[0] as ConformCaseResult).steps[0]!.details;
    expect(JSON.stringify(first)).not.toContain(token);
    expect(first.filter((d) => d === hint)).toHaveLength(1);
    expect(first.at(-1)).toBe(
      'after 2 attempts without a regular answer the platform hands the customer to an agent (spec 3, 8)',
    );
  });
});
