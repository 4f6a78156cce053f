/**
 * What the simulator sends carries the fields the public documentation shows,
 * read back by a plain node:http receiver that knows only the documented field names.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { validate } from '../../src/contract/index.js';
import { closeChat, createPlatform, type Platform } from '../../src/platform/index.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** A receiver as a real integrator would write one: answer 200, keep the JSON bodies. */
async function plainReceiver(): Promise<{
  url: string;
  bodies: Record<string, unknown>[];
  next: () => Promise<Record<string, unknown>>;
}> {
  const bodies: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8').on('data', (d: string) => (raw += d));
    req.on('end', () => {
      bodies.push(JSON.parse(raw) as Record<string, unknown>);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"result":"ok"}');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  closers.push(() => new Promise((done) => server.close(() => done())));
  let read = 0;
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    next: async () => {
      while (bodies.length <= read) await new Promise<void>((wake) => waiters.push(wake));
      return bodies[read++]!;
    },
  };
}

describe('the simulator sends the documented fields', () => {
  it('CLIENT_MESSAGE carries site_id, agents_online, sender.url and channel; chat_finished lines carry message', async () => {
    const bot = await plainReceiver();
    const hooks = await plainReceiver();
    const platform: Platform = createPlatform({
      // protocol time stands still: the bot's 3 s timeout cannot run out before a busy
      // machine delivers CLIENT_MESSAGE (at 1/100 it was 30 ms, and AGENT_JOINED came first)
      clock: createVirtualClock(),
      channels: [{ id: 'shop', randomString: 'r4nd0m' }],
      bot: { providerUrl: bot.url, token: 'tok', providerId: 'acme' },
      hooks: { url: hooks.url },
    });
    closers.push(() => platform.close());
    await platform.core.request('/r4nd0m/shop', {
      method: 'POST',
      body: JSON.stringify({
        sender: { id: 'c-1', name: 'Ann', email: 'ann@example.com' },
        message: { type: 'text', text: 'Where is my order?' },
      }),
    });
    const event = await bot.next();
    // the documented names, read as a provider for the real platform reads them
    expect(event.event).toBe('CLIENT_MESSAGE');
    expect(event.site_id).toBe('shop');
    expect(event.agents_online).toBe(true);
    expect(event.sender).toMatchObject({ id: 'c-1', name: 'Ann', has_contacts: true });
    expect(String((event.sender as { url: string }).url)).toMatch(/^https:\/\//);
    expect(event.channel).toEqual({ id: 'shop', type: 'custom' });
    const verdict = validate('bot.event.CLIENT_MESSAGE', event);
    expect([verdict.ok, verdict.warnings]).toEqual([true, []]);

    const chat = [...platform.core.state.chats.values()][0]!;
    closeChat(platform.core, { chatId: chat.id });
    let finished: Record<string, unknown> | undefined;
    while (!finished) {
      const body = await hooks.next();
      if (body.event_name === 'chat_finished') finished = body;
    }
    const lines = (finished.chat as { messages: { type: string; message?: string }[] }).messages;
    expect(lines.find((l) => l.type === 'visitor')?.message).toBe('Where is my order?');
    expect(validate('hook.chat_finished', finished).ok).toBe(true);
  });
});
