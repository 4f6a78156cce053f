/**
 * The page-script double over HTTP against a real simulator on 127.0.0.1:0: the widget
 * channel (/_sim/widget/...) and createHttpTransport, with a test EventSource (Node 20).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createVirtualClock } from '../../src/clock.js';
import { sendAgentMessage, setAgentsOnline } from '../../src/platform/index.js';
import {
  createHttpTransport,
  installWidget,
  type HttpTransport,
  type Widget,
  type WidgetInboundEvent,
} from '../../src/widget/index.js';
import { TestEventSource } from '../helpers/event-source.js';
import { post, startPlatform } from '../helpers/platform.js';

const open: Array<{ transport: HttpTransport; widget?: Widget }> = [];
afterEach(() => {
  for (const { transport, widget } of open.splice(0)) {
    widget?.uninstall();
    transport.close();
  }
});

async function setup(
  options: { agentsOnline?: boolean; hooks?: { url: string } } = {},
  win: Record<string, unknown> = { location: { origin: 'https://shop.example' } },
) {
  const harness = await startPlatform({ clock: createVirtualClock(), ...options });
  const transport = createHttpTransport(harness.url, {
    visitorId: 'v-1',
    EventSource: TestEventSource,
  });
  const widget = installWidget(win, { transport });
  open.push({ transport, widget });
  await transport.connected();
  await widget.ready;
  return { ...harness, transport, widget, core: harness.platform.core };
}

/** A hook receiver on 127.0.0.1:0 answering `{"result":"ok"}`; the bodies it got, in order. */
async function startHookReceiver(): Promise<{
  url: string;
  bodies: Array<Record<string, unknown>>;
}> {
  const bodies: Array<Record<string, unknown>> = [];
  const server = createServer((request, response) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString()));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.setHeader('content-type', 'application/json');
      response.end('{"result":"ok"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, bodies };
}
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** Waits until `check` holds (pushes arrive over a real socket), at most about 2 s. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((r) => setTimeout(r, 5));
  expect(check()).toBe(true);
}

describe('createHttpTransport', () => {
  it('takes the visitor id over and numbers visitors in order (spec 4.5)', async () => {
    const { widget, transport, url } = await setup();
    expect(widget.visitorId).toBe('v-1');
    const reply = await transport.send({ type: 'visitor_number', visitorId: 'v-1' });
    expect(reply).toEqual({ ok: true, visitorNumber: 1 });
    const other = createHttpTransport(url, { EventSource: TestEventSource, visitorId: 'v-2' });
    expect(await other.send({ type: 'visitor_number', visitorId: 'v-2' })).toEqual({
      ok: true,
      visitorNumber: 2,
    });
  });

  it('answers a malformed event with ok:false and the path, and rejects when unreachable', async () => {
    const { transport } = await setup();
    const reply = await transport.send({ type: 'visitor_message', visitorId: 'v-1' } as never);
    expect(reply).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Could not take the visitor_message event: text: /),
    });
    // a hand-written page that leaves out `first` is told what to send, not only zod's words
    const bare = await transport.send({
      type: 'visitor_message',
      visitorId: 'v-1',
      text: 'Hi',
    } as never);
    expect(bare).toMatchInlineSnapshot(`
      {
        "error": "Could not take the visitor_message event: first: required (a boolean). Send the fields the WidgetOutboundEvent type of svc-cli/widget lists, as createHttpTransport does.",
        "ok": false,
      }
    `);
    const dead = createHttpTransport('http://127.0.0.1:9', { EventSource: TestEventSource });
    await expect(dead.send({ type: 'visitor_number', visitorId: 'x' })).rejects.toThrow();
  });

  it('gets the chat mode on connect and when agents change (chatMode())', async () => {
    const { widget, core } = await setup({ agentsOnline: false });
    await until(() => widget.api.chatMode() === 'offline');
    setAgentsOnline(core, true);
    await until(() => widget.api.chatMode() === 'online');
  });
});

describe('widget channel in the platform core', () => {
  it('a visitor message opens a chat; the agent reply and accept reach the page', async () => {
    const { widget, core, of } = await setup();
    widget.api.open();
    widget.visitor.send('Where is my order?');
    await widget.flush();
    const [opened] = of('chat-opened');
    expect(opened).toMatchObject({ channelId: 'widget', customerId: 'v-1' });
    expect(of('customer-message')[0]).toMatchObject({ text: 'Where is my order?' });
    const result = await sendAgentMessage(core, {
      customerId: 'v-1',
      message: { type: 'text', text: 'It ships today.' },
    });
    expect(result).toMatchObject({ result: 'delivered', attempts: 1 });
    await until(() => widget.messages.some((m) => m.from === 'agent'));
    expect(widget.messages.map((m) => [m.from, m.text])).toEqual([
      ['visitor', 'Where is my order?'],
      ['agent', 'It ships today.'],
    ]);
    expect(widget.fired('svc_onAccept')).toHaveLength(1); // spec 6.4
    expect(of('widget-push').map((e) => e.event)).toEqual(['agent_accepted', 'agent_message']);
  });

  it('keeps pushes for a page that connects later (backlog)', async () => {
    const { core, url } = await setup();
    await post(`${url}/_sim/widget/events`, {
      type: 'visitor_message',
      visitorId: 'late',
      text: 'hi',
      first: true,
    });
    await sendAgentMessage(core, { customerId: 'late', message: { type: 'text', text: 'hello' } });
    const transport = createHttpTransport(url, { visitorId: 'late', EventSource: TestEventSource });
    open.push({ transport });
    const got: WidgetInboundEvent[] = [];
    transport.subscribe((e) => got.push(e));
    await until(() => got.some((e) => e.type === 'agent_accepted'));
    // the agent's message comes in the chat's transcript, not a second time from the backlog
    expect(got.map((e) => e.type)).toEqual(['chat_mode', 'transcript', 'agent_accepted']);
    expect(got[1]).toEqual({
      type: 'transcript',
      messages: [
        { from: 'visitor', text: 'hi' },
        { from: 'agent', text: 'hello' },
      ],
    });
  });

  it('a page that connects late gets a media answer in its transcript, once', async () => {
    const { core, url } = await setup();
    await post(`${url}/_sim/widget/events`, {
      type: 'visitor_message',
      visitorId: 'media',
      text: 'hi',
      first: true,
    });
    await sendAgentMessage(core, { customerId: 'media', message: { type: 'text', text: 'hello' } });
    await sendAgentMessage(core, {
      customerId: 'media',
      message: {
        type: 'photo',
        file: 'https://files.example.com/p.jpg',
        file_name: 'p.jpg',
        file_size: 2048,
      },
    });
    const transport = createHttpTransport(url, {
      visitorId: 'media',
      EventSource: TestEventSource,
    });
    open.push({ transport });
    const got: WidgetInboundEvent[] = [];
    transport.subscribe((e) => got.push(e));
    await until(() => got.some((e) => e.type === 'agent_accepted'));
    expect(got.find((e) => e.type === 'transcript')).toEqual({
      type: 'transcript',
      messages: [
        { from: 'visitor', text: 'hi' },
        { from: 'agent', text: 'hello' },
        {
          from: 'agent',
          text: '[photo] p.jpg',
          media: {
            type: 'photo',
            file: 'https://files.example.com/p.jpg',
            file_name: 'p.jpg',
            file_size: 2048,
          },
        },
      ],
    });
    expect(got.filter((e) => e.type === 'agent_message')).toEqual([]);
  });

  it('a page loaded again by the same visitor shows the chat so far and gets what follows', async () => {
    const { widget, core, url } = await setup();
    widget.visitor.send('Where is my order?');
    await widget.flush();
    await sendAgentMessage(core, { customerId: 'v-1', message: { type: 'text', text: 'Today.' } });
    await until(() => widget.messages.some((m) => m.from === 'agent'));
    // a reload: the same visitor id, a fresh event stream (no Last-Event-ID)
    const transport = createHttpTransport(url, { visitorId: 'v-1', EventSource: TestEventSource });
    const win: Record<string, unknown> = { location: { origin: 'https://shop.example' } };
    const reloaded = installWidget(win, { transport });
    open.push({ transport, widget: reloaded });
    await transport.connected();
    await until(() => reloaded.messages.length === 2);
    expect(reloaded.messages.map((m) => [m.from, m.text])).toEqual([
      ['visitor', 'Where is my order?'],
      ['agent', 'Today.'],
    ]);
    // history: no callback fires for it (the load callback is the page's own)
    expect(reloaded.callbacks.map((c) => c.name)).toEqual(['svc_onLoadCallback']);
    await sendAgentMessage(core, { customerId: 'v-1', message: { type: 'text', text: 'Sent.' } });
    await until(() => reloaded.messages.length === 3);
    expect(reloaded.messages.at(-1)).toMatchObject({ from: 'agent', text: 'Sent.' });
  });

  it('setCustomData, setContactInfo and setUserToken are visible in the chat state', async () => {
    const { widget, url, of } = await setup();
    widget.visitor.send('hello');
    await widget.flush();
    widget.api.setCustomData([{ key: 'Order', content: '#1042', link: 'https://shop.example/o' }]);
    widget.api.setContactInfo({ name: 'Jane', email: 'jane@example.com' });
    expect(widget.api.setUserToken('tok-123')).toEqual({ result: 'ok', token: 'tok-123' });
    await widget.flush();
    const chat = (await (await fetch(`${url}/_sim/chats/1`)).json()) as {
      customer: Record<string, unknown>;
      ext: { widget: Record<string, unknown> };
    };
    expect(chat.customer).toMatchObject({
      name: 'Jane',
      email: 'jane@example.com',
      userToken: 'tok-123',
      customData: [{ key: 'Order', content: '#1042', link: 'https://shop.example/o' }],
    });
    expect(chat.ext.widget).toMatchObject({ visitorId: 'v-1', contactSource: 'api' });
    // customer-updated drives the hook service's chat_updated (spec 3)
    expect(of('customer-updated').map((e) => e.fields)).toEqual([
      ['customData'],
      ['name', 'email'],
      ['userToken'],
    ]);
  });

  it('stores the user token before any chat and carries it into the offline message', async () => {
    const { widget, core, of } = await setup({ agentsOnline: false });
    await until(() => widget.api.chatMode() === 'offline');
    widget.api.setUserToken('tok-9');
    const sent = widget.api.sendOfflineMessage({ email: 'jane@example.com', message: 'Call me' });
    expect(sent).toEqual({ result: 'ok' });
    await widget.flush();
    expect(core.state.customers.get('widget/v-1')?.userToken).toBe('tok-9');
    expect(of('offline-message')[0]).toMatchObject({
      channelId: 'widget',
      email: 'jane@example.com',
      message: 'Call me',
      userToken: 'tok-9',
    });
  });

  it('refuses an offline message while agents are online with the reason', async () => {
    const { transport } = await setup();
    const reply = await transport.send({
      type: 'offline_message',
      visitorId: 'v-1',
      message: { email: 'a@b.co', message: 'x' },
    });
    expect(reply).toMatchObject({ ok: false, error: expect.stringMatching(/agents are online/) });
  });

  it('startCall drives the call flow; call_event statuses come back to the page', async () => {
    const { widget, events, platform } = await setup();
    expect(widget.api.startCall('+49 30 1234567')).toEqual({ result: 'ok' });
    await widget.flush();
    const clock = platform.core.clock as ReturnType<typeof createVirtualClock>;
    await clock.advance(60_000);
    await until(() => widget.fired('svc_onCallEnd').length === 1);
    expect(widget.fired('svc_onCallEnd')[0]).toEqual([{ result: 'ok' }]);
    expect(
      events.filter((e) => e.type === 'call-status').map((e) => (e as { status: string }).status),
    ).toEqual(['start', 'agent_connected', 'client_connected', 'end']);
  });

  it("hooks of a widget chat carry the visitor's page, not a sample one (spec 6.2)", async () => {
    const hooks = await startHookReceiver();
    const win = {
      location: { origin: 'http://127.0.0.1:5173', href: 'http://127.0.0.1:5173/cart?step=2' },
      document: { title: 'Your cart' },
    };
    const { widget, core } = await setup({ hooks: { url: hooks.url } }, win);
    widget.visitor.send('Is this in stock?');
    await widget.flush();
    await sendAgentMessage(core, { customerId: 'v-1', message: { type: 'text', text: 'Yes.' } });
    await until(() => hooks.bodies.some((b) => b.event_name === 'chat_accepted'));
    const accepted = hooks.bodies.find((b) => b.event_name === 'chat_accepted');
    expect(accepted?.page).toEqual({
      url: 'http://127.0.0.1:5173/cart?step=2',
      title: 'Your cart',
    });
  });

  it('the offline form from a page carries that page into offline_message (spec 6.2)', async () => {
    const hooks = await startHookReceiver();
    const win = {
      location: { origin: 'http://localhost:3000', href: 'http://localhost:3000/contact' },
      document: { title: '' },
    };
    const { widget } = await setup({ agentsOnline: false, hooks: { url: hooks.url } }, win);
    await until(() => widget.api.chatMode() === 'offline');
    widget.api.sendOfflineMessage({ email: 'jane@example.com', message: 'Call me' });
    await widget.flush();
    await until(() => hooks.bodies.some((b) => b.event_name === 'offline_message'));
    const offline = hooks.bodies.find((b) => b.event_name === 'offline_message');
    expect(offline?.page).toEqual({ url: 'http://localhost:3000/contact' });
  });

  it("an agent's location reaches the page with its coordinates (spec 2.4)", async () => {
    const { widget, core } = await setup();
    widget.visitor.send('Where are you?');
    await widget.flush();
    await sendAgentMessage(core, {
      customerId: 'v-1',
      message: { type: 'location', latitude: 52.5, longitude: 13.4 },
    });
    await until(() => widget.messages.some((m) => m.from === 'agent'));
    expect(widget.messages.find((m) => m.from === 'agent')).toMatchObject({
      text: '[location] 52.5, 13.4',
      media: { type: 'location', latitude: 52.5, longitude: 13.4 },
    });
  });
});
