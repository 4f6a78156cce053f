/** POST /_sim/journal/:seq/resend: a recorded request is issued again (README "Control API"). */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { createJournal, createRedactor } from '../../src/journal/journal.js';
import { customerText, post, startPlatform } from '../helpers/platform.js';
import { closeFakeProviders, startFakeProvider } from '../helpers/bot.js';

afterEach(closeFakeProviders);

describe('journal resend', () => {
  it('re-issues a customer message the simulator served: handled and journaled again', async () => {
    const { url, channelUrl, platform, of } = await startPlatform({ clock: createVirtualClock() });
    expect((await post(channelUrl, customerText('c-1', 'hello'))).status).toBe(200);
    const seq = platform.core.journal.entries().at(-1)!.seq;
    const resent = await post(`${url}/_sim/journal/${seq}/resend`, {});
    expect(resent).toMatchObject({
      status: 200,
      body: { seq, method: 'POST', status: 200, body: '{"result":"ok"}' },
    });
    expect(of('customer-message').map((e) => e.text)).toEqual(['hello', 'hello']);
    expect(platform.core.journal.count).toBe(seq + 2); // the resend call and the resent request
  });

  it('restores a redacted random string from the channel the path names (spec 5.1)', async () => {
    const secrets: string[] = [];
    const journal = createJournal({ redact: (text) => createRedactor(secrets)(text) });
    const { url, channelUrl, platform } = await startPlatform({
      clock: createVirtualClock(),
      journal,
    });
    for (const channel of platform.core.state.channels.values()) secrets.push(channel.randomString);
    await post(channelUrl, customerText('c-1', 'hi'));
    const entry = platform.core.journal.entries().at(-1)!;
    expect(entry.request.url).toContain('/***/');
    const resent = await post(`${url}/_sim/journal/${entry.seq}/resend`, {});
    expect(resent.body).toMatchObject({ status: 200 });
  });

  it('restores the masked bot token of an event to the provider (spec 5.2)', async () => {
    const provider = await startFakeProvider();
    const journal = createJournal({ redact: (text) => createRedactor(['bot-token-1'])(text) });
    const clock = createVirtualClock();
    const { url, channelUrl, platform } = await startPlatform({
      clock,
      journal,
      bot: { providerUrl: provider.url, token: 'bot-token-1', providerId: 'acme' },
    });
    await post(channelUrl, customerText('c-1', 'hi'));
    const sentOf = () =>
      platform.core.journal.entries().find((r) => r.kind === 'bot.event.CLIENT_MESSAGE');
    await clock.runUntil(() => sentOf() !== undefined, 5_000);
    const sent = sentOf();
    expect(sent?.request.url).toMatch(/\/\*\*\*$/);
    const resent = await post(`${url}/_sim/journal/${sent!.seq}/resend`, {});
    expect(resent.body).toMatchObject({ status: 200 });
    expect(provider.hits.map((h) => h.path)).toEqual(['/bot-token-1', '/bot-token-1']);
  });

  it('with a --record file: /_sim/journal?since= and resend read the records back from it', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'svc-resend-')), 'session.ndjson');
    const secrets: string[] = [];
    const journal = createJournal({ file, redact: (text) => createRedactor(secrets)(text) });
    const { url, channelUrl, platform } = await startPlatform({
      clock: createVirtualClock(),
      journal,
    });
    for (const channel of platform.core.state.channels.values()) secrets.push(channel.randomString);
    for (const text of ['one', 'two', 'three']) await post(channelUrl, customerText('c-1', text));
    const page = await fetch(`${url}/_sim/journal?since=1`).then(
      (r) =>
        r.json() as Promise<{
          count: number;
          entries: Array<{ seq: number; request: { url: string; body: string } }>;
        }>,
    );
    expect(page.count).toBe(3);
    const texts = page.entries.map((e) => {
      const body = JSON.parse(e.request.body) as { message: { text: string } };
      return [e.seq, body.message.text];
    });
    expect(texts).toEqual([
      [2, 'two'],
      [3, 'three'],
    ]);
    expect(page.entries[0]!.request.url).toContain('/***/'); // the file holds it redacted
    const resent = await post(`${url}/_sim/journal/2/resend`, {});
    expect(resent.body).toMatchObject({ seq: 2, status: 200, body: '{"result":"ok"}' });
    journal.flush();
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(5); // + resend call and resent
    journal.close();
  });

  it('answers 404 SVC_E_NO_EXCHANGE for a seq not in the journal', async () => {
    const { url } = await startPlatform({ clock: createVirtualClock() });
    const resent = await post(`${url}/_sim/journal/99/resend`, {});
    expect(resent).toMatchObject({ status: 404, body: { error: { code: 'SVC_E_NO_EXCHANGE' } } });
  });

  it('refuses to resend an event pushed to a widget page: it was no request', async () => {
    const { url, platform } = await startPlatform({ clock: createVirtualClock() });
    const stream = new AbortController();
    const page = await fetch(`${url}/_sim/widget/events?visitor=v-1`, { signal: stream.signal });
    const reader = page.body!.getReader();
    try {
      let text = '';
      while (!text.includes('chat_mode'))
        text += new TextDecoder().decode((await reader.read()).value);
      const push = platform.core.journal.entries().find((e) => e.kind === 'widget.push.chat_mode');
      expect(push).toBeDefined();
      const resent = await post(`${url}/_sim/journal/${push!.seq}/resend`, {});
      expect(resent).toMatchObject({ status: 409, body: { error: { code: 'SVC_E_RESEND' } } });
      // nothing was sent again: the refused resend call is the only record after the push
      expect(platform.core.journal.entries(push!.seq).map((e) => e.iface)).toEqual(['control']);
    } finally {
      stream.abort();
      await reader.cancel().catch(() => undefined);
    }
  });

  it('streams events unnamed with ?plain=1 so EventSource.onmessage sees every type', async () => {
    const { url, channelUrl } = await startPlatform({ clock: createVirtualClock() });
    const controller = new AbortController();
    const response = await fetch(`${url}/_sim/events?plain=1`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await post(channelUrl, customerText('c-1', 'hi'));
    let text = '';
    while (!text.includes('customer-message')) {
      const { value } = await reader.read();
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('data: {"type":"chat-opened"');
    expect(text).not.toContain('event: ');
  });

  /** Reads an SSE response until `until` shows, then stops. */
  async function readUntil(
    reader: ReadableStreamDefaultReader<Uint8Array>,
    until: string,
    controller: AbortController,
  ) {
    let text = '';
    while (!text.includes(until)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`the stream ended before ${until}: ${text}`);
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    return text;
  }

  it('with eventHistory, ?history=1 sends the events before the page opened, numbered', async () => {
    const { url, channelUrl } = await startPlatform({
      clock: createVirtualClock(),
      eventHistory: 10,
    });
    await post(channelUrl, customerText('c-1', 'before'));
    const controller = new AbortController();
    const response = await fetch(`${url}/_sim/events?plain=1&history=1`, {
      signal: controller.signal,
    });
    const text = await readUntil(response.body!.getReader(), '"before"', controller);
    expect(text).toMatch(/id: 1\ndata: \{"type":"chat-opened"/);
    expect(text).toMatch(/id: 2\ndata: \{"type":"customer-message".*"before"/);
  });

  it('with eventHistory, a reconnect with Last-Event-ID gets only what it missed', async () => {
    const { url, channelUrl } = await startPlatform({
      clock: createVirtualClock(),
      eventHistory: 10,
    });
    for (const text of ['one', 'two', 'three']) await post(channelUrl, customerText('c-1', text));
    const controller = new AbortController();
    const response = await fetch(`${url}/_sim/events?history=1`, {
      headers: { 'last-event-id': '2' },
      signal: controller.signal,
    });
    const text = await readUntil(response.body!.getReader(), '"three"', controller);
    expect(text).not.toContain('"one"');
    expect(text).toMatch(/id: 3\nevent: customer-message\ndata: .*"two"/);
    expect(text).toMatch(/id: 4\nevent: customer-message\ndata: .*"three"/);
  });

  it('without eventHistory the stream sends only what happens from now on, unnumbered', async () => {
    const { url, channelUrl } = await startPlatform({ clock: createVirtualClock() });
    await post(channelUrl, customerText('c-1', 'before'));
    const controller = new AbortController();
    const response = await fetch(`${url}/_sim/events?history=1`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read(); // the comment line: the stream is open
    await post(channelUrl, customerText('c-1', 'after'));
    const text = await readUntil(reader, '"after"', controller);
    expect(text).not.toContain('"before"');
    expect(text).not.toContain('id: ');
  });
});
