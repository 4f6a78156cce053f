/**
 * An event the platform pushed to a widget page (a `widget.push.<type>` record, spec 4.5, 6.4)
 * as a span on the widget lane, linked to what made the platform push it, and the callback the
 * page reports with its stream id linked to that push.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { causalChain, linkConversation } from '../../../src/trace/links.js';
import { spanOf } from '../../../src/trace/span.js';
import { checkRecords } from '../../../src/trace/invariants.js';

const BASE = 'http://127.0.0.1:8800';

function journal() {
  const records: ExchangeRecord[] = [];
  const add = (r: Omit<ExchangeRecord, 'type' | 'seq' | 'run' | 'at'>): number => {
    records.push({
      type: 'exchange',
      seq: records.length + 1,
      run: 'r',
      at: '2026-01-01T00:00:00.000Z',
      ...r,
    });
    return records.length;
  };
  return {
    records,
    page: (body: object, at: number, chat: number | null = 1) =>
      add({
        protocolMs: at,
        iface: 'widget',
        direction: 'in',
        kind: `widget.${String((body as { type: string }).type)}`,
        ...(chat === null ? {} : { chat }),
        request: {
          method: 'POST',
          url: `${BASE}/_sim/widget/events`,
          body: JSON.stringify({ visitorId: 'v-1', ...body }),
        },
        response: { status: 200, body: '{"ok":true}' },
      }),
    push: (event: object, at: number, id?: number, chat: number | null = 1) =>
      add({
        protocolMs: at,
        iface: 'widget',
        direction: 'out',
        kind: `widget.push.${String((event as { type: string }).type)}`,
        ...(chat === null ? {} : { chat }),
        request: {
          method: 'GET',
          url: `${BASE}/_sim/widget/events?visitor=v-1`,
          body: JSON.stringify(event),
        },
        notes: id === undefined ? ['sse push'] : ['sse push', `id: ${id}`],
      }),
    hook: (event: string, at: number) =>
      add({
        protocolMs: at,
        durationMs: 0,
        iface: 'hook',
        direction: 'out',
        kind: `hook.${event}`,
        chat: 1,
        attempt: 1,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:9200/hooks',
          body: JSON.stringify({ event_name: event, chat_id: 1 }),
        },
        response: { status: 200, body: '{}' },
      }),
    control: (path: string, body: object, at: number) =>
      add({
        protocolMs: at,
        iface: 'control',
        direction: 'in',
        request: { method: 'POST', url: `${BASE}${path}`, body: JSON.stringify(body) },
        response: { status: 200, body: '{}' },
        durationMs: 0,
      }),
  };
}

const linked = (records: ExchangeRecord[]) =>
  linkConversation(records.map(spanOf).filter((s) => s.chat === 1));

describe('a push to a widget page as a span', () => {
  it('is on the widget lane, sent by the platform, named by its type, status and stream id', () => {
    const j = journal();
    j.push({ type: 'agent_message', text: 'Hello', agentName: 'Alice' }, 10, 7);
    j.push({ type: 'call_status', status: 'end' }, 20, 8);
    j.push({ type: 'chat_mode', online: true }, 0, undefined, null);
    const [message, end, mode] = j.records.map(spanOf);
    expect(message).toMatchObject({
      lane: 'widget',
      direction: 'out',
      name: 'push agent_message id 7',
      text: 'Hello',
      push: { event: 'agent_message', eventId: 7 },
      chat: 1,
      startMs: 10,
    });
    expect(message!.status).toBeUndefined();
    expect(end!.name).toBe('push call_status end id 8');
    expect(mode).toMatchObject({ name: 'push chat_mode', push: { event: 'chat_mode' } });
    expect(mode!.chat).toBeUndefined();
  });

  it('takes a control request into its chat by the path or the body', () => {
    const j = journal();
    j.control('/_sim/chats/3/close', {}, 0);
    j.control('/_sim/agent/message', { chatId: 4, text: 'Hi' }, 0);
    j.control('/_sim/agents', { online: true }, 0);
    expect(j.records.map((r) => spanOf(r).chat)).toEqual([3, 4, undefined]);
  });
});

describe('the links of a push and its callback', () => {
  it('agent message -> push -> callback, the push journaled before its request was', () => {
    const j = journal();
    const said = j.page({ type: 'visitor_message', text: 'Hi' }, 0);
    // the agent's control request answers after its pushes went out: its record comes later
    const accept = j.push({ type: 'agent_accepted', agentName: 'Alice' }, 5, 1);
    const message = j.push({ type: 'agent_message', text: 'Hello' }, 5, 2);
    const control = j.control('/_sim/agent/message', { chatId: 1, text: 'Hello' }, 5);
    const callback = j.page(
      { type: 'callback', name: 'svc_onAccept', eventId: 1, event: 'agent_accepted' },
      6,
    );
    const spans = linked(j.records);
    const bySeq = new Map(spans.map((s) => [s.seq, s]));
    expect(bySeq.get(accept)).toMatchObject({ cause: control, causeBy: 'inferred' });
    expect(bySeq.get(message)).toMatchObject({ cause: control, causeBy: 'inferred' });
    expect(bySeq.get(callback)).toMatchObject({ cause: accept, causeBy: 'inferred' });
    expect(causalChain(spans, bySeq.get(callback)!).map((s) => s.seq)).toEqual([
      callback,
      accept,
      control,
    ]);
    // within the ms, the cause is drawn before what it caused
    expect(spans.map((s) => s.seq)).toEqual([said, control, accept, message, callback]);
  });

  it("links a callback to the latest push of its stream id and event, a call's status to the call", () => {
    const j = journal();
    const started = j.page({ type: 'start_call', phone: '+49 30 1' }, 0);
    const start = j.push({ type: 'call_status', status: 'start' }, 0, 1);
    // a stream whose ids started over (the simulator mutant widget-push-ids-rewind)
    j.push({ type: 'agent_accepted' }, 1, 2);
    const end = j.push({ type: 'call_status', status: 'end' }, 30, 2);
    const callback = j.page(
      { type: 'callback', name: 'svc_onCallEnd', eventId: 2, event: 'call_status' },
      31,
    );
    const bySeq = new Map(linked(j.records).map((s) => [s.seq, s]));
    expect(bySeq.get(start)!.cause).toBe(started);
    expect(bySeq.get(end)!.cause).toBe(started);
    expect(bySeq.get(callback)!.cause).toBe(end);
  });

  it("links the page's chat_closed to the agent's close request", () => {
    const j = journal();
    j.page({ type: 'visitor_message', text: 'Hi' }, 0);
    const closed = j.push({ type: 'chat_closed' }, 9, 3);
    const close = j.control('/_sim/chats/1/close', {}, 9);
    const bySeq = new Map(linked(j.records).map((s) => [s.seq, s]));
    expect(bySeq.get(closed)).toMatchObject({ cause: close, causeBy: 'inferred' });
  });

  it('without the push in the records, a callback follows what caused the push, as before', () => {
    const j = journal();
    const started = j.page({ type: 'start_call', phone: '+49 30 1' }, 0);
    const callback = j.page(
      { type: 'callback', name: 'svc_onCallEnd', eventId: 6, event: 'call_status' },
      40,
    );
    const bySeq = new Map(linked(j.records).map((s) => [s.seq, s]));
    expect(bySeq.get(callback)!.cause).toBe(started);
  });

  it('callback-order names the exchanges of both pushes', () => {
    const j = journal();
    const accept = j.push({ type: 'agent_accepted' }, 0, 1);
    j.page({ type: 'start_call', phone: '+49 30 1' }, 1);
    const end = j.push({ type: 'call_status', status: 'end' }, 40, 2);
    const onEnd = j.page(
      { type: 'callback', name: 'svc_onCallEnd', eventId: 2, event: 'call_status' },
      41,
    );
    const onAccept = j.page(
      { type: 'callback', name: 'svc_onAccept', eventId: 1, event: 'agent_accepted' },
      42,
    );
    const [v] = checkRecords(j.records);
    expect(v).toMatchObject({ rule: 'callback-order', exchanges: [onEnd, onAccept] });
    expect(v!.message).toBe(
      `#${onAccept} callback svc_onAccept at +0.042 s reflects pushed event 1 (agent_accepted, #${accept}) yet came after #${onEnd} callback svc_onCallEnd at +0.041 s, which reflects the later push 2 (call_status, #${end})`,
    );
  });
});

describe("a widget chat's chat_accepted hook", () => {
  it('follows the accept pushed to the page in the same moment, as a channel chat follows the agent message', () => {
    const j = journal();
    j.page({ type: 'visitor_message', text: 'Hi' }, 0);
    const reply = j.control('/_sim/agent/message', { chatId: 1, text: 'Hello' }, 900);
    const accept = j.push({ type: 'agent_accepted', agentName: 'Alice' }, 900, 1);
    j.push({ type: 'agent_message', text: 'Hello' }, 900, 2);
    const hook = j.hook('chat_accepted', 904);
    const spans = linked(j.records);
    expect(spans.find((s) => s.seq === hook)?.cause).toBe(accept);
    expect(spans.find((s) => s.seq === accept)?.cause).toBe(reply);
  });

  it("follows the agent's control request in a recording without the pushes", () => {
    const j = journal();
    j.page({ type: 'visitor_message', text: 'Hi' }, 0);
    const reply = j.control('/_sim/agent/message', { chatId: 1, text: 'Hello' }, 900);
    const hook = j.hook('chat_accepted', 904);
    expect(linked(j.records).find((s) => s.seq === hook)?.cause).toBe(reply);
  });
});
