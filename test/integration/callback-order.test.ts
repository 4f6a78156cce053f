/**
 * The `callback-order` invariant (spec 6.4: each page callback runs when the event it reflects
 * happens): the page-script double on the HTTP transport reports each callback a push caused
 * to the widget channel with the push's stream id, the platform journals it in the push's chat,
 * and the invariant reads the journal. A planted bug, a page that queues the accept notice
 * behind the call's end, is caught; the same conversation on the plain transport passes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClock } from '../../src/clock.js';
import { sendAgentMessage } from '../../src/platform/index.js';
import { checkConversation, checkRecords, conversationsOf } from '../../src/trace/invariants.js';
import { readTrace } from '../../src/trace/read.js';
import {
  createHttpTransport,
  installWidget,
  type HttpTransport,
  type Widget,
  type WidgetInboundEvent,
  type WidgetTransport,
} from '../../src/widget/index.js';
import { TestEventSource } from '../helpers/event-source.js';
import { startPlatform } from '../helpers/platform.js';

const open: Array<{ transport: HttpTransport; widget: Widget }> = [];
afterEach(() => {
  for (const { transport, widget } of open.splice(0)) {
    widget.uninstall();
    transport.close();
  }
});

/**
 * The planted bug: a page whose event handling holds the agent's accept notice until the
 * call's end arrived, then hands the end over first (svc_onCallEnd before svc_onAccept).
 */
function acceptAfterCallEnd(inner: WidgetTransport): WidgetTransport {
  return {
    ...(inner.visitorId === undefined ? {} : { visitorId: inner.visitorId }),
    send: (event) => inner.send(event),
    subscribe(listener) {
      let held: Array<[WidgetInboundEvent, number | undefined]> = [];
      return inner.subscribe((event, id) => {
        if (event.type === 'agent_accepted') {
          held.push([event, id]);
          return;
        }
        listener(event, id);
        if (event.type === 'call_status' && event.status === 'end') {
          for (const [e, i] of held) listener(e, i);
          held = [];
        }
      });
    },
  };
}

/** A visitor writes, the agent answers (accepting the chat), the visitor calls; the call ends. */
async function conversation(wrap: (t: WidgetTransport) => WidgetTransport = (t) => t) {
  // spec 2.6 call statuses come 5 s apart and the call talks 30 s: 40 ms at this scale
  const harness = await startPlatform({ clock: createClock({ timeScale: 0.001 }) });
  const transport = createHttpTransport(harness.url, {
    visitorId: 'v-1',
    EventSource: TestEventSource,
  });
  let ended: () => void = () => undefined;
  const callEnded = new Promise<void>((resolve) => (ended = resolve));
  const win: Record<string, unknown> = {
    location: { origin: 'https://shop.example' },
    svc_onCallEnd: () => ended(),
  };
  const widget = installWidget(win, { transport: wrap(transport) });
  open.push({ transport, widget });
  await transport.connected();
  await widget.ready;
  widget.api.open();
  widget.visitor.send('Can you call me?');
  await widget.flush();
  const core = harness.platform.core;
  await sendAgentMessage(core, {
    customerId: 'v-1',
    message: { type: 'text', text: 'Sure, starting the call.' },
  });
  expect(widget.api.startCall('+49 30 1234567')).toEqual({ result: 'ok' });
  await callEnded;
  await widget.flush(); // the callback reports are sent
  return { widget, records: core.journal.entries() };
}

describe('callback-order (spec 6.4)', () => {
  it('links each callback to what caused its push, never to another callback (the trace)', async () => {
    const { records } = await conversation();
    const [chat] = conversationsOf(records);
    const bySeq = new Map(chat!.spans.map((s) => [s.seq, s]));
    const callbacks = chat!.spans.filter((s) => s.callback);
    expect(callbacks.map((s) => s.callback!.name)).toEqual(['svc_onAccept', 'svc_onCallEnd']);
    // each callback follows the push whose stream id it reports
    const pushes = callbacks.map((s) => bySeq.get(s.cause!)!);
    expect(pushes.map((p) => [p.kind, p.push?.eventId])).toEqual([
      ['widget.push.agent_accepted', callbacks[0]!.callback!.eventId],
      ['widget.push.call_status', callbacks[1]!.callback!.eventId],
    ]);
    expect(pushes[1]!.name).toMatch(/^push call_status end id \d+$/);
    // the call's end was pushed because the page asked for the call
    expect(bySeq.get(pushes[1]!.cause!)?.kind).toBe('widget.start_call');
    // the accept: the agent's message here (sendAgentMessage, no request) is journaled as the
    // push alone, so no exchange caused it; a callback is never a cause
    expect(pushes[0]!.cause).toBeUndefined();
    for (const s of chat!.spans)
      expect(s.cause === undefined ? undefined : bySeq.get(s.cause)?.callback).toBeUndefined();
    // what the visitor did on the page is a root
    const started = chat!.spans.find((s) => s.kind === 'widget.start_call');
    expect(started?.cause).toBeUndefined();
  });

  it('pushes every status of the call the page started, its start first (spec 2.6, 6.4)', async () => {
    const statuses: string[] = [];
    const watch = (inner: WidgetTransport): WidgetTransport => ({
      ...(inner.visitorId === undefined ? {} : { visitorId: inner.visitorId }),
      send: (event) => inner.send(event),
      subscribe: (listener) =>
        inner.subscribe((event, id) => {
          if (event.type === 'call_status') statuses.push(event.status);
          listener(event, id);
        }),
    });
    await conversation(watch);
    expect(statuses).toEqual(['start', 'agent_connected', 'client_connected', 'end']);
  });

  it('journals each reported callback in the chat of the push it reflects', async () => {
    const { widget, records } = await conversation();
    expect(widget.fired('svc_onAccept')).toHaveLength(1);
    const callbacks = records.filter((r) => r.kind === 'widget.callback');
    expect(callbacks.map((r) => JSON.parse(r.request.body ?? '{}') as unknown)).toEqual([
      expect.objectContaining({ name: 'svc_onAccept', event: 'agent_accepted' }),
      expect.objectContaining({ name: 'svc_onCallEnd', event: 'call_status' }),
    ]);
    expect(callbacks.every((r) => r.chat === 1 && r.response?.status === 200)).toBe(true);
    // the trace sees them in the conversation, in the widget lane
    const [chat] = conversationsOf(records);
    const spans = chat!.spans.filter((s) => s.callback);
    expect(spans.map((s) => [s.lane, s.callback!.name])).toEqual([
      ['widget', 'svc_onAccept'],
      ['widget', 'svc_onCallEnd'],
    ]);
    expect(spans[0]!.callback!.eventId).toBeLessThan(spans[1]!.callback!.eventId);
    expect(checkRecords(records)).toEqual([]);
  });

  it('catches a page whose svc_onAccept runs after the call it preceded ended', async () => {
    const { widget, records } = await conversation(acceptAfterCallEnd);
    expect(widget.fired('svc_onAccept')).toHaveLength(1);
    const violations = checkRecords(records);
    expect(violations).toHaveLength(1);
    const [v] = violations;
    expect(v).toMatchObject({ rule: 'callback-order', spec: '6.4', chat: 1 });
    expect(v!.message).toMatch(
      /callback svc_onAccept at .* reflects pushed event \d+ \(agent_accepted, #\d+\) yet came after #\d+ callback svc_onCallEnd .* which reflects the later push \d+ \(call_status, #\d+\)/,
    );
    const callbackSeqs = records.filter((r) => r.kind === 'widget.callback').map((r) => r.seq);
    expect(v!.exchanges).toEqual(callbackSeqs);
    // switched off by name
    expect(checkRecords(records, { disabled: ['callback-order'] })).toEqual([]);
    // and `trace` / `report` find it in the recording (`platform --record`)
    const dir = mkdtempSync(join(tmpdir(), 'svc-callback-order-'));
    try {
      const file = join(dir, 'session.ndjson');
      writeFileSync(file, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
      const found: string[] = [];
      await readTrace({
        file,
        onConversation: (c) => void found.push(...checkConversation(c).map((x) => x.rule)),
      });
      expect(found).toEqual(['callback-order']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a page callback that throws (spec 6.4)', () => {
  it('is reported as such: a platform event, and the journal record is no success', async () => {
    const harness = await startPlatform({ clock: createClock({ timeScale: 0.001 }) });
    const transport = createHttpTransport(harness.url, {
      visitorId: 'v-2',
      EventSource: TestEventSource,
    });
    const win: Record<string, unknown> = {
      location: { origin: 'https://shop.example' },
      svc_onAccept: () => {
        throw new Error('boom in my svc_onAccept');
      },
    };
    const widget = installWidget(win, { transport });
    open.push({ transport, widget });
    await transport.connected();
    await widget.ready;
    widget.visitor.send('Hello');
    await widget.flush();
    await sendAgentMessage(harness.platform.core, {
      customerId: 'v-2',
      message: { type: 'text', text: 'Hi.' },
    });
    // the report goes out once the push came over the event stream: a few turns, bounded
    for (let turn = 0; turn < 1000 && harness.of('widget-callback-threw').length === 0; turn++) {
      await widget.flush();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(harness.of('widget-callback-threw')).toEqual([
      expect.objectContaining({
        visitorId: 'v-2',
        name: 'svc_onAccept',
        event: 'agent_accepted',
        error: 'Error: boom in my svc_onAccept',
      }),
    ]);
    const record = harness.platform.core.journal
      .entries()
      .find((r) => r.kind === 'widget.callback');
    expect(record?.verdict).toEqual({
      ok: false,
      errors: [
        "svc_onAccept threw: Error: boom in my svc_onAccept (the page's callback, spec 6.4)",
      ],
      warnings: [],
    });
  });
});
