import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/record.js';
import { INVARIANT_LIST } from '../../../src/cli/options/shared.js';
import {
  checkInvariantNames,
  checkRecords,
  INVARIANT_NAMES,
} from '../../../src/trace/invariants.js';

/** A hand-written journal of one chat: each call appends one record. */
function journal() {
  const records: ExchangeRecord[] = [];
  const add = (
    r: Omit<ExchangeRecord, 'type' | 'seq' | 'run' | 'at' | 'request'> & { body: unknown },
  ) => {
    const { body, ...rest } = r;
    records.push({
      type: 'exchange',
      seq: records.length + 1,
      run: 'r',
      at: '2026-01-01T00:00:00.000Z',
      chat: 1,
      request: { method: 'POST', url: 'http://x.test/p', body: JSON.stringify(body) },
      ...rest,
    });
    return records.length;
  };
  return {
    records,
    customer: (text: string, at = 0) =>
      add({
        protocolMs: at,
        iface: 'channel',
        direction: 'in',
        kind: 'channel.customer.text',
        response: { status: 200 },
        body: { sender: { id: 'c' }, message: { type: 'text', text } },
      }),
    agent: (text: string, id: string, at = 0, attempt = 1, ok = true, cause?: number) =>
      add({
        protocolMs: at,
        iface: 'channel',
        direction: 'out',
        kind: 'channel.agent.text',
        attempt,
        ...(cause === undefined ? {} : { cause }),
        response: { status: ok ? 200 : 500 },
        notes: [ok ? 'accepted' : 'rejected: HTTP 500'],
        body: { recipient: { id: 'c' }, message: { type: 'text', text, id } },
      }),
    hook: (event: string, at = 0, extra: object = {}) =>
      add({
        protocolMs: at,
        iface: 'hook',
        direction: 'out',
        kind: `hook.${event}`,
        attempt: 1,
        response: { status: 200 },
        notes: ['accepted'],
        body: { event_name: event, chat_id: 1, ...extra },
      }),
    botOut: (event: string, id: string, at = 0, attempt = 1, ok = true, durationMs = 0) =>
      add({
        protocolMs: at + durationMs,
        durationMs,
        iface: 'bot',
        direction: 'out',
        kind: `bot.event.${event}`,
        attempt,
        ...(ok
          ? { response: { status: 200 } }
          : { failure: { reason: 'timeout', message: 'timeout' } }),
        notes: [ok ? 'accepted' : 'rejected: timeout after 3000 ms'],
        body: { event, id, chat_id: '1', client_id: '501' },
      }),
    botIn: (event: string, at = 0) =>
      add({
        protocolMs: at,
        iface: 'bot',
        direction: 'in',
        kind: `bot.event.${event}`,
        response: { status: 200 },
        body: { event, id: `b-${event}`, chat_id: '1' },
      }),
    callback: (name: string, eventId: number, event: string, at = 0) =>
      add({
        protocolMs: at,
        iface: 'widget',
        direction: 'in',
        kind: 'widget.callback',
        response: { status: 200 },
        body: { type: 'callback', visitorId: 'v', name, eventId, event },
      }),
  };
}

const finished = (...messages: { type: string; text: string }[]) => ({ chat: { messages } });
const rules = (records: ExchangeRecord[], disabled: string[] = []) =>
  checkRecords(records, { disabled }).map((v) => ({
    rule: v.rule,
    spec: v.spec,
    exchanges: v.exchanges,
  }));

describe('invariants: a clean conversation', () => {
  it('has no violation', () => {
    const j = journal();
    j.customer('Where is my parcel?');
    const first = j.agent('Checking now.', 'm1', 0, 1, false);
    const second = j.agent('Checking now.', 'm1', 3000, 2, false, first);
    j.agent('Checking now.', 'm1', 6000, 3, true, second);
    j.hook(
      'chat_finished',
      6000,
      finished(
        { type: 'visitor', text: 'Where is my parcel?' },
        { type: 'agent', text: 'Checking now.' },
      ),
    );
    expect(rules(j.records)).toEqual([]);
  });
});

describe('invariants: planted violations', () => {
  it('callback-order: a page callback for an earlier push after one for a later push (spec 6.4)', () => {
    const j = journal();
    j.customer('Call me');
    const end = j.callback('svc_onCallEnd', 7, 'call_status', 100);
    const accept = j.callback('svc_onAccept', 3, 'agent_accepted', 120);
    expect(rules(j.records)).toEqual([
      { rule: 'callback-order', spec: '6.4', exchanges: [end, accept] },
    ]);
    expect(checkRecords(j.records)[0]!.message).toBe(
      '#3 callback svc_onAccept at +0.120 s reflects pushed event 3 (agent_accepted) yet came after #2 callback svc_onCallEnd at +0.100 s, which reflects the later push 7 (call_status)',
    );
    expect(rules(j.records, ['callback-order'])).toEqual([]);
    // in the pushes' order it holds
    const fixed = journal();
    fixed.customer('Call me');
    fixed.callback('svc_onAccept', 3, 'agent_accepted', 100);
    fixed.callback('svc_onCallEnd', 7, 'call_status', 120);
    expect(rules(fixed.records)).toEqual([]);
  });

  it('transcript: a redelivered message logged twice', () => {
    const j = journal();
    j.customer('Hi');
    const first = j.agent('Checking now.', 'm1', 0, 1, false);
    j.agent('Checking now.', 'm1', 3000, 2, true, first);
    const end = j.hook(
      'chat_finished',
      3000,
      finished(
        { type: 'visitor', text: 'Hi' },
        { type: 'agent', text: 'Checking now.' },
        { type: 'agent', text: 'Checking now.' },
      ),
    );
    expect(rules(j.records)).toEqual([
      { rule: 'transcript', spec: '2.6', exchanges: [first, end] },
    ]);
    expect(checkRecords(j.records)[0]!.message).toBe(
      'chat_finished #4 chat_finished at +3.000 s logs the agent message #2 agent.text at +0.000 s "Checking now." 2 times; it was sent once',
    );
  });

  it('transcript: a message missing, and customer text compared as cut at 1000', () => {
    const j = journal();
    const long = 'x'.repeat(1200);
    j.customer(long);
    const reply = j.agent('Sure.', 'm1');
    const end = j.hook('chat_finished', 0, finished({ type: 'visitor', text: 'x'.repeat(1000) }));
    expect(rules(j.records)).toEqual([
      { rule: 'transcript', spec: '2.6', exchanges: [reply, end] },
    ]);
  });

  it('hook-after-finish: a hook about the chat after chat_finished', () => {
    const j = journal();
    j.customer('Hi');
    const end = j.hook('chat_finished', 1000, finished({ type: 'visitor', text: 'Hi' }));
    const late = j.hook('chat_updated', 2000);
    expect(rules(j.records)).toEqual([
      { rule: 'hook-after-finish', spec: '6.2', exchanges: [end, late] },
    ]);
  });

  it('hook-after-finish: a call or an offline message after chat_finished is no violation', () => {
    const j = journal();
    j.customer('Hi');
    j.hook('chat_finished', 1000, finished({ type: 'visitor', text: 'Hi' }));
    // a visitor asks to be called back, or leaves an offline message, after the chat closed
    j.hook('call_event', 2000);
    j.hook('offline_message', 3000);
    expect(rules(j.records)).toEqual([]);
  });

  it('bot-after-close: a bot event after CHAT_CLOSED', () => {
    const j = journal();
    j.customer('Hi');
    j.botOut('CLIENT_MESSAGE', 'e1');
    const closed = j.botOut('CHAT_CLOSED', 'e2', 1000);
    const late = j.botOut('CLIENT_MESSAGE', 'e3', 2000);
    expect(rules(j.records)).toEqual([
      { rule: 'bot-after-close', spec: '2.5', exchanges: [closed, late] },
    ]);
  });

  it('agent-joined: AGENT_JOINED with neither INVITE_AGENT nor a hand-over', () => {
    const j = journal();
    j.customer('Hi');
    const asked = j.botOut('CLIENT_MESSAGE', 'e1');
    const joined = j.botOut('AGENT_JOINED', 'e2', 500);
    expect(rules(j.records)).toEqual([
      { rule: 'agent-joined', spec: '3', exchanges: [asked, joined] },
    ]);
    // the same after INVITE_AGENT is fine
    const k = journal();
    k.customer('Hi');
    k.botOut('CLIENT_MESSAGE', 'e1');
    k.botIn('INVITE_AGENT', 100);
    k.botOut('AGENT_JOINED', 'e2', 500);
    expect(rules(k.records)).toEqual([]);
  });

  it('redelivery-id: a redelivery with another message id', () => {
    const j = journal();
    j.customer('Hi');
    const first = j.agent('Checking now.', 'm1', 0, 1, false);
    const second = j.agent('Checking now.', 'm2', 3000, 2, true, first);
    j.hook(
      'chat_finished',
      3000,
      finished({ type: 'visitor', text: 'Hi' }, { type: 'agent', text: 'Checking now.' }),
    );
    expect(rules(j.records)).toEqual([
      { rule: 'redelivery-id', spec: '8', exchanges: [first, second] },
    ]);
  });

  it('names each exchange by its offset from the chat’s first, as the timeline does', () => {
    // a chat opened an hour into a platform's run: its journal counts from the platform's start
    const hour = 3_600_000;
    const j = journal();
    j.customer('Hi', hour + 250);
    const first = j.agent('Checking now.', 'm1', hour + 250, 1, false);
    j.agent('Checking now.', 'm2', hour + 3250, 2, true, first);
    expect(checkRecords(j.records).map((v) => v.message)).toEqual([
      '#3 agent.text attempt 2 at +3.000 s carries id m2; the attempt before, #2 agent.text at +0.000 s, carried m1',
    ]);
  });

  it('handover-budget: the bot asked for 9 s instead of 6', () => {
    const j = journal();
    j.customer('Hi');
    const first = j.botOut('CLIENT_MESSAGE', 'e1', 0, 1, false, 3000);
    j.botOut('CLIENT_MESSAGE', 'e1', 3000, 2, false, 3000);
    const third = j.botOut('CLIENT_MESSAGE', 'e1', 6000, 3, false, 3000);
    j.botOut('AGENT_JOINED', 'e2', 9000);
    expect(rules(j.records)).toEqual([
      { rule: 'handover-budget', spec: '8', exchanges: [first, third] },
    ]);
    // the time asked up to is the end of the last attempt (its start plus its 3 s), not its start
    expect(
      checkRecords(j.records).find((v) => v.rule === 'handover-budget')?.message,
    ).toMatchInlineSnapshot(
      `"the bot was asked for 9.000 s, from #2 CLIENT_MESSAGE at +0.000 s to +9.000 s, the end of #4 CLIENT_MESSAGE attempt 3 (sent at +6.000 s); the hand-over is due within 6.000 s"`,
    );
    // switched off by name
    expect(rules(j.records, ['handover-budget'])).toEqual([]);
  });
});

describe('invariants: offline-message (on the run)', () => {
  /** a record outside any chat: a control request, a status read, the offline hook */
  const run = (
    ...records: Array<Pick<ExchangeRecord, 'iface' | 'direction' | 'kind' | 'request' | 'response'>>
  ): ExchangeRecord[] =>
    records.map((r, i) => ({
      type: 'exchange',
      seq: i + 1,
      run: 'r',
      at: '2026-01-01T00:00:00.000Z',
      protocolMs: i * 100,
      ...r,
    }));
  const agents = (online: boolean) =>
    ({
      iface: 'control',
      direction: 'in',
      request: {
        method: 'POST',
        url: 'http://p.test/_sim/agents',
        body: JSON.stringify({ online }),
      },
      response: { status: 200 },
    }) as const;
  const status = (body: string) =>
    ({
      iface: 'channel',
      direction: 'in',
      kind: 'channel.status',
      request: { method: 'GET', url: 'http://p.test/r/shop/status' },
      response: { status: 200, body },
    }) as const;
  const offline = {
    iface: 'hook',
    direction: 'out',
    kind: 'hook.offline_message',
    request: {
      method: 'POST',
      url: 'http://h.test/hooks',
      body: JSON.stringify({ event_name: 'offline_message', message: 'Call me' }),
    },
    response: { status: 200 },
  } as const;

  it('holds while agents are offline, and with nothing said of them', () => {
    expect(rules(run(agents(false), offline))).toEqual([]);
    expect(rules(run(offline))).toEqual([]);
    expect(rules(run(agents(true), status('0'), offline))).toEqual([]);
  });

  it('names the exchange that showed agents online and the hook (a control request or a status read)', () => {
    expect(rules(run(agents(true), offline))).toEqual([
      { rule: 'offline-message', spec: '3', exchanges: [1, 2] },
    ]);
    expect(rules(run(agents(false), status('1'), offline))).toEqual([
      { rule: 'offline-message', spec: '3', exchanges: [2, 3] },
    ]);
    expect(checkRecords(run(agents(true), offline))[0]).toMatchObject({ run: 'r' });
    expect(checkRecords(run(agents(true), offline))[0]?.chat).toBeUndefined();
    expect(rules(run(agents(true), offline), ['offline-message'])).toEqual([]);
  });
});

describe('invariant names', () => {
  it('are spelled the same in the replay and trace --help (which must not load the core)', () => {
    expect(INVARIANT_LIST).toBe(INVARIANT_NAMES.join(', '));
  });

  it('accepts the known ones and refuses others with the list', () => {
    expect(checkInvariantNames(['transcript'])).toEqual(['transcript']);
    expect(() => checkInvariantNames(['transcripts'])).toThrowError(/no invariant by that name/);
    // a typo names the rule it meant
    expect(() => checkInvariantNames(['transcrpt'])).toThrowError(
      'no invariant by that name (did you mean transcript?).',
    );
    expect(() => checkInvariantNames(['hook_after_finish'])).toThrowError(
      '(did you mean hook-after-finish?)',
    );
    expect(() => checkInvariantNames(['nope'])).toThrowError(/no invariant by that name\.$/);
    try {
      checkInvariantNames(['nope']);
    } catch (error) {
      expect((error as { hint?: string }).hint).toBe(
        `Known invariants: ${INVARIANT_NAMES.join(', ')}.`,
      );
      expect((error as { code?: string }).code).toBe('SVC_E_FLAG');
    }
  });
});
