/**
 * What the platform pushes to a widget page over server-sent events (interface C, spec 4.5,
 * 6.4) is journaled, one `widget.push.<type>` record per event written to the page, so a
 * widget chat's trace shows both sides: the agent's message (a control request), the push it
 * caused on the widget lane, and the callback the page reports with the push's stream id.
 */
import { Chalk } from 'chalk';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { formatTimeline } from '../../src/cli/render/trace.js';
import { toHar } from '../../src/journal/index.js';
import { parseHar } from '../../src/journal/har-read.js';
import { causalChain } from '../../src/trace/links.js';
import { checkRecords, conversationsOf } from '../../src/trace/invariants.js';
import {
  createHttpTransport,
  installWidget,
  type HttpTransport,
  type Widget,
} from '../../src/widget/index.js';
import { TestEventSource } from '../helpers/event-source.js';
import { post, startPlatform } from '../helpers/platform.js';

const open: Array<{ transport: HttpTransport; widget: Widget }> = [];
afterEach(() => {
  for (const { transport, widget } of open.splice(0)) {
    widget.uninstall();
    transport.close();
  }
});

/** A visitor writes on the page; the agent answers through the control API. */
async function widgetChat() {
  const harness = await startPlatform({ clock: createClock({ timeScale: 0.001 }) });
  const transport = createHttpTransport(harness.url, {
    visitorId: 'v-1',
    EventSource: TestEventSource,
  });
  let accepted: () => void = () => undefined;
  const acceptSeen = new Promise<void>((resolve) => (accepted = resolve));
  const win: Record<string, unknown> = {
    location: { origin: 'https://shop.example' },
    svc_onAccept: () => accepted(),
  };
  const widget = installWidget(win, { transport });
  open.push({ transport, widget });
  await transport.connected();
  await widget.ready;
  widget.api.open();
  widget.visitor.send('Is my order on its way?');
  await widget.flush();
  const answer = await post(`${harness.url}/_sim/agent/message`, {
    chatId: 1,
    text: 'It left the warehouse today.',
  });
  expect(answer.status).toBe(200);
  await acceptSeen;
  await widget.flush(); // the callback report is sent
  return { harness, records: harness.platform.core.journal.entries() };
}

describe('pushes to a widget page in the journal and the trace (spec 4.5, 6.4)', () => {
  it('journals each event pushed to the page, with its chat, stream id and data', async () => {
    const { harness, records } = await widgetChat();
    const pushes = records.filter((r) => r.kind?.startsWith('widget.push.'));
    expect(
      pushes.map((r) => ({
        kind: r.kind,
        chat: r.chat,
        direction: r.direction,
        iface: r.iface,
        method: r.request.method,
        url: r.request.url,
        data: JSON.parse(r.request.body ?? '') as unknown,
        notes: r.notes,
        response: r.response,
      })),
    ).toEqual([
      {
        kind: 'widget.push.chat_mode',
        chat: undefined,
        direction: 'out',
        iface: 'widget',
        method: 'GET',
        url: `${harness.url}/_sim/widget/events?visitor=v-1`,
        data: { type: 'chat_mode', online: true },
        notes: ['sse push'],
        response: undefined,
      },
      expect.objectContaining({
        kind: 'widget.push.agent_accepted',
        chat: 1,
        data: { type: 'agent_accepted', agentName: 'Alice Agent' },
        notes: ['sse push', 'id: 1'],
      }),
      expect.objectContaining({
        kind: 'widget.push.agent_message',
        chat: 1,
        data: {
          type: 'agent_message',
          text: 'It left the warehouse today.',
          agentName: 'Alice Agent',
        },
        notes: ['sse push', 'id: 2'],
      }),
    ]);
    expect(checkRecords(records)).toEqual([]);
  });

  it('traces the chain agent message -> push -> callback', async () => {
    const { records } = await widgetChat();
    const [chat] = conversationsOf(records);
    const spans = chat!.spans;
    const callback = spans.find((s) => s.callback?.name === 'svc_onAccept')!;
    expect(causalChain(spans, callback).map((s) => s.name)).toEqual([
      'callback svc_onAccept',
      'push agent_accepted id 1',
      'POST /_sim/agent/message',
    ]);
    const message = spans.find((s) => s.push?.event === 'agent_message')!;
    expect(causalChain(spans, message).map((s) => s.name)).toEqual([
      'push agent_message id 2',
      'POST /_sim/agent/message',
    ]);
    // the text timeline of `svc-cli trace`: each exchange after its cause, the arrow of a
    // push pointing at the page
    const lines = formatTimeline({ ...chat!, dropped: 0 }, new Chalk({ level: 0 })).map((l) =>
      l.replace(/^\s+\+\d+\.\d{3} s\s+(\+\d+\.\d{3} s)?/, '').trim(),
    );
    const seq = (s: { seq: number }) => `#${s.seq}`;
    const control = spans.find((s) => s.iface === 'control')!;
    const accept = spans.find((s) => s.push?.event === 'agent_accepted')!;
    const body = lines.slice(2);
    expect(body).toEqual([
      `┆           ●◀──────────────────────────────────○      ${seq(spans[0]!)} visitor_message "Is my order on its way?" 200`,
      `┆           ●           ┆           ┆           ┆      ${seq(control)} POST /_sim/agent/message "It left the warehouse today." 200`,
      `┆           ●──────────────────────────────────▶○      ${seq(accept)} push agent_accepted id 1 ← ${seq(control)}`,
      `┆           ●──────────────────────────────────▶○      ${seq(message)} push agent_message id 2 "It left the warehouse today." ← ${seq(control)}`,
      `┆           ●◀──────────────────────────────────○      ${seq(callback)} callback svc_onAccept 200 ← ${seq(accept)}`,
    ]);
  });

  it('keeps a push through HAR: the event as the stream content, read back as the record', async () => {
    const { records } = await widgetChat();
    const har = toHar(records) as {
      log: {
        entries: Array<{
          request: { postData?: unknown };
          response: { status: number; content: { mimeType: string; text: string } };
        }>;
      };
    };
    const at = records.findIndex((r) => r.kind === 'widget.push.agent_message');
    const entry = har.log.entries[at]!;
    expect(entry.request.postData).toBeUndefined();
    expect(entry.response.status).toBe(200);
    expect(entry.response.content).toMatchObject({
      mimeType: 'text/event-stream',
      text: `id: 2\ndata: ${records[at]!.request.body}\n\n`,
    });
    const back = parseHar(JSON.stringify(har))[at]!;
    expect(back).toMatchObject({
      kind: 'widget.push.agent_message',
      direction: 'out',
      notes: ['sse push', 'id: 2'],
      request: { method: 'GET', body: records[at]!.request.body },
    });
    expect(back.response).toBeUndefined();
  });
});
