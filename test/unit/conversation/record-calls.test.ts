/**
 * record to-fixture on recorded calls (spec 2.6 call, 6.2 call_event), with hand-built
 * records for the cases a session rarely shows: a console call and a control-API call on the
 * same chat, a chat id sent as a string, and two runs appended to one file.
 */
import { describe, expect, it } from 'vitest';
import type { ExchangeRecord } from '../../../src/journal/journal.js';
import { convertRecording } from '../../../src/conversation/record/to-fixture.js';
import { conversationSchema } from '../../../src/conversation/format.js';

type Step = ReturnType<typeof convertRecording>['steps'][number];

function recording(run: string) {
  let seq = 0;
  const base = (protocolMs: number) => ({
    type: 'exchange' as const,
    seq: ++seq,
    run,
    at: new Date(0).toISOString(),
    protocolMs,
  });
  return {
    customer: (protocolMs: number): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'channel',
      direction: 'in',
      kind: 'channel.customer.text',
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8800/r4nd0m/shop',
        body: JSON.stringify({ sender: { id: 'c-1' }, message: { type: 'text', text: 'hi' } }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    }),
    hook: (protocolMs: number, body: Record<string, unknown>, status = 200): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'hook',
      direction: 'out',
      attempt: 1,
      request: { method: 'POST', url: 'http://127.0.0.1:9100/hooks', body: JSON.stringify(body) },
      response: { status, body: status === 200 ? '{"result":"ok"}' : 'oops' },
    }),
    call: (protocolMs: number, status: string, reason?: string): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'hook',
      direction: 'out',
      attempt: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9100/hooks',
        body: JSON.stringify({
          event_name: 'call_event',
          chat_id: 1,
          call: {
            type: 'callback',
            phone: '+49301234567',
            status,
            ...(reason ? { reason } : {}),
          },
        }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    }),
    /** one delivery attempt of an agent message to the integrator, answered ok */
    agent: (protocolMs: number, to: string, messageId = 'm-1'): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'channel',
      direction: 'out',
      kind: 'channel.agent.text',
      attempt: 1,
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:9000/shop',
        body: JSON.stringify({
          recipient: { id: to },
          message: { type: 'text', text: 'hello', id: messageId },
        }),
      },
      response: { status: 200, body: '{"result":"ok"}' },
    }),
    control: (protocolMs: number, body: unknown, status = 202): ExchangeRecord => ({
      ...base(protocolMs),
      iface: 'control',
      direction: 'in',
      request: {
        method: 'POST',
        url: 'http://127.0.0.1:8800/_sim/calls',
        body: JSON.stringify(body),
      },
      response: { status, body: '{}' },
    }),
  };
}

const callSteps = (steps: Step[]) =>
  steps.filter((s) => 'control' in s && s.control.path === '/_sim/calls');

describe('record to-fixture: calls', () => {
  it('a console call, then a control call on the same chat: one step each, in their order', () => {
    const r = recording('a');
    const records = [
      r.customer(0),
      r.call(10_000, 'start'),
      r.call(15_000, 'agent_connected'),
      r.call(20_000, 'error', 'busy'),
      // the control API takes a chat id as a string of digits too
      r.control(60_000, { phone: '+49301234567', chatId: '1' }),
      r.call(60_000, 'start'),
      r.call(100_000, 'end'),
    ];
    const steps = convertRecording({ records }).steps;
    expect(callSteps(steps)).toEqual([
      {
        control: {
          method: 'POST',
          path: '/_sim/calls',
          body: { phone: '+49301234567', chatId: 1, outcome: 'error', reason: 'busy' },
        },
        response: { status: 202 },
      },
      {
        control: {
          method: 'POST',
          path: '/_sim/calls',
          body: { phone: '+49301234567', chatId: '1' },
        },
        response: { status: 202 },
      },
    ]);
  });

  it('a refused control call started nothing: the console call after it gets its step', () => {
    const r = recording('a');
    const records = [
      r.customer(0),
      r.control(5_000, { phone: '+49301234567', chatId: 9 }, 400),
      r.control(5_000, { phone: '+49301234567', chatId: 1 }, 400),
      r.call(10_000, 'start'),
      r.call(50_000, 'end'),
    ];
    const generated = callSteps(convertRecording({ records }).steps).filter(
      (s) => !('response' in s) || s.response?.status === 202,
    );
    expect(generated.map((s) => ('control' in s ? s.control.body : undefined))).toContainEqual({
      phone: '+49301234567',
      chatId: 1,
    });
  });

  it("a later run's records with the same seq get none of an earlier run's call steps", () => {
    const a = recording('run-a');
    const b = recording('run-b');
    const records = [
      a.customer(0),
      a.call(10_000, 'start'),
      a.call(50_000, 'end'),
      b.customer(0),
      b.hook(1_000, { event_name: 'chat_accepted', chat_id: 1 }),
      b.hook(2_000, { event_name: 'chat_assigned', chat_id: 1 }),
    ];
    const steps = convertRecording({ records }).steps;
    expect(callSteps(steps)).toHaveLength(1);
    const expectations = steps.flatMap((s) => ('expect' in s ? [s.expect] : []));
    const assigned = expectations.find(
      (e) => (e.hook as { event_name?: string } | undefined)?.event_name === 'chat_assigned',
    );
    expect(assigned).toBeDefined();
    expect(assigned?.within).toBeUndefined();
  });
});

describe('record to-fixture: runs appended to one file', () => {
  it('the close between runs sends a hook the recording lacks: the hook faults keep to their events', () => {
    // replay closes run a's open chat before run b (spec 3: chat_finished), the hook-target's
    // request 2; run b's failed chat_accepted is request 3, and its fault must stay there
    const a = recording('run-a');
    const b = recording('run-b');
    const records = [
      a.customer(0),
      a.hook(1_000, { event_name: 'chat_accepted', chat_id: 1 }),
      b.customer(0),
      b.hook(1_000, { event_name: 'chat_accepted', chat_id: 1 }, 500),
    ];
    const conversation = convertRecording({ records });
    expect(conversation.steps.filter((s) => 'close' in s)).toEqual([
      { close: { customer: 'c-1' } },
    ]);
    expect(conversation.setup?.hooks?.faults).toEqual({
      sequence: ['none', 'none', 'status:500'],
    });
  });

  it('two boundaries before the same recorded hook add up (a run in between had no hooks)', () => {
    const a = recording('run-a');
    const b = recording('run-b');
    const c = recording('run-c');
    const records = [
      a.customer(0),
      a.hook(1_000, { event_name: 'chat_accepted', chat_id: 1 }),
      b.customer(0), // no hook in this run
      c.customer(0),
      c.hook(1_000, { event_name: 'chat_accepted', chat_id: 1 }, 500),
    ];
    const conversation = convertRecording({ records });
    expect(conversation.steps.filter((s) => 'close' in s)).toHaveLength(2);
    expect(conversation.setup?.hooks?.faults).toEqual({
      sequence: ['none', 'none', 'none', 'status:500'],
    });
  });

  it('a numeric sender.id (accepted by the platform) is sent again as recorded', () => {
    const a = recording('run-a');
    const customer = a.customer(0);
    customer.request.body = JSON.stringify({
      sender: { id: 42 },
      message: { type: 'text', text: 'hi' },
    });
    const conversation = convertRecording({ records: [customer, a.agent(1_000, '42')] });
    // the fixture format's sender.id is a string: the raw body keeps the number, and the
    // agent's answer to "42" finds that chat (no placeholder customer message)
    expect(conversation.steps[0]).toEqual({
      customer: { raw: { sender: { id: 42 }, message: { type: 'text', text: 'hi' } } },
      response: { status: 200 },
    });
    expect(conversation.steps.filter((s) => 'customer' in s)).toHaveLength(1);
    expect(conversationSchema.safeParse(conversation).success).toBe(true);
  });

  it('an answer later than the platform waited (proxy recording) replays as no answer', () => {
    const a = recording('run-a');
    const attempt = (ms: number, late: 'slow' | 'caller-gone'): ExchangeRecord => {
      const sent = a.agent(ms, 'c-1');
      if (late === 'slow')
        return { ...sent, notes: ['proxy', 'leg:integrator', 'over the 3000 ms budget'] };
      const { response: _answer, ...unanswered } = sent;
      return { ...unanswered, failure: { reason: 'caller-gone', message: 'gave up' } };
    };
    const conversation = convertRecording({
      records: [
        a.customer(0),
        attempt(1_000, 'slow'),
        attempt(4_000, 'caller-gone'),
        attempt(7_000, 'slow'),
      ],
    });
    // spec 8: 3 s per attempt; they were not answers, not resets
    expect(conversation.setup?.integrator?.faults).toEqual({ sequence: ['hang', 'hang', 'hang'] });
    expect(conversation.steps[1]).toMatchObject({ delivery: { result: 'failed', attempts: 3 } });
  });
});
