/**
 * record diff and record profile read a recording of the platform's peers (listen,
 * hook-target, bot-sim: directions reversed, an attempt stamped when it came in, a held reply
 * as `hang`) as the platform saw it: the platform's recording of the same conversation diffs
 * clean against it, and a profile learns the same delivery figures from either.
 */
import { describe, expect, it } from 'vitest';
import { diffObservations } from '../../../src/conversation/record/diff.js';
import { createObserver } from '../../../src/conversation/record/observe.js';
import { learnProfile } from '../../../src/conversation/record/profile.js';
import type { ExchangeRecord } from '../../../src/journal/record.js';

type Answer = { status: number } | { failure: string };

let seq = 0;
/** One exchange: `at` and `durationMs` as its recorder stamps them. */
function record(
  iface: ExchangeRecord['iface'],
  direction: ExchangeRecord['direction'],
  kind: string,
  body: unknown,
  timing: { at: number; durationMs: number; attempt?: number },
  answer: Answer = { status: 200 },
  headers: Record<string, string> | undefined = undefined,
): ExchangeRecord {
  return {
    type: 'exchange',
    seq: ++seq,
    run: 'r',
    at: '2026-12-01T00:00:00.000Z',
    protocolMs: timing.at,
    durationMs: timing.durationMs,
    iface,
    direction,
    kind,
    ...(timing.attempt === undefined ? {} : { attempt: timing.attempt }),
    request: {
      method: 'POST',
      url: 'http://127.0.0.1/x',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    },
    ...('status' in answer
      ? {
          response: {
            status: answer.status,
            ...(headers ? { headers } : {}),
            body: answer.status < 300 ? '{"result":"ok"}' : '{"error":{"code":"x","message":"y"}}',
          },
        }
      : { failure: { reason: answer.failure, message: answer.failure } }),
    notes: ['transfer: content-length'],
  };
}

function observe(records: ExchangeRecord[]) {
  const observer = createObserver(['x.ndjson']);
  for (const r of records) observer.add(r);
  return observer.finish();
}

const customer = { sender: { id: 'c-1' }, message: { type: 'text', id: 'u1', text: 'hi' } };
const agent = { recipient: { id: 'c-1' }, message: { type: 'text', id: 'm1', text: 'hello' } };
const keepAlive = { 'content-type': 'application/json', 'keep-alive': 'timeout=65' };

/**
 * An agent message delivered in three attempts 3 s apart: a hang (the platform times out after
 * 3 s), a 500, then accepted. The platform stamps each attempt when it ended; listen when the
 * request came in, on its own clock (started 1 s later).
 */
const platformSide = [
  record('channel', 'in', 'channel.customer.text', customer, { at: 500, durationMs: 5 }),
  record(
    'channel',
    'out',
    'channel.agent.text',
    agent,
    { at: 4000, durationMs: 3000, attempt: 1 },
    { failure: 'timeout' },
  ),
  record(
    'channel',
    'out',
    'channel.agent.text',
    agent,
    { at: 4010, durationMs: 10, attempt: 2 },
    { status: 500 },
    keepAlive,
  ),
  record(
    'channel',
    'out',
    'channel.agent.text',
    agent,
    { at: 7010, durationMs: 10, attempt: 3 },
    { status: 200 },
    keepAlive,
  ),
];
const listenSide = [
  record(
    'channel',
    'in',
    'channel.agent.text',
    agent,
    { at: 2000, durationMs: 1, attempt: 1 },
    { failure: 'hang' },
  ),
  record(
    'channel',
    'in',
    'channel.agent.text',
    agent,
    { at: 5000, durationMs: 8, attempt: 2 },
    { status: 500 },
  ),
  record(
    'channel',
    'in',
    'channel.agent.text',
    agent,
    { at: 8000, durationMs: 8, attempt: 3 },
    { status: 200 },
  ),
];

describe('a listen recording, read as the platform saw it', () => {
  it('diffs clean against the platform recording of the same conversation', () => {
    const result = diffObservations(observe(platformSide), observe(listenSide));
    expect(result.differences.filter((d) => d.severity === 'behaviour')).toEqual([]);
    expect(result.counts.behaviour).toBe(0);
    // the customer's message is not on listen's leg: not seen, not missing
    expect(result.unobservable).toEqual([
      {
        side: 'b',
        leg: 'integrator -> platform (channel)',
        kinds: { 'channel.customer.text': 1 },
      },
    ]);
  });

  it("teaches the platform's figures, not the integrator's answers as the platform's", () => {
    const fromPlatform = learnProfile(observe(platformSide), 'p');
    const fromListen = learnProfile(observe(listenSide), 'l');
    expect(fromListen.channel?.intervalMs).toEqual(fromPlatform.channel?.intervalMs);
    expect(fromListen.channel?.intervalMs).toEqual({ value: 3000, observations: 2 });
    const kind = fromListen.kinds?.['channel.agent.text'];
    expect(kind?.direction).toBe('out');
    expect(kind?.statuses).toEqual(fromPlatform.kinds?.['channel.agent.text']?.statuses);
    // an answer to what the platform sent is the integrator's: neither profile takes it
    expect(kind).not.toHaveProperty('answerFields');
    expect(fromPlatform.kinds?.['channel.agent.text']).not.toHaveProperty('keepAlive');
    expect(fromPlatform.keepAliveMs).toBeUndefined();
  });
});

describe('bot-sim and hook-target recordings', () => {
  const clientMessage = { event: 'CLIENT_MESSAGE', id: 'e1', client_id: '501', chat_id: '1' };
  const botMessage = { event: 'BOT_MESSAGE', id: 'b1', client_id: '501', chat_id: '1' };
  const platformBot = [
    record(
      'bot',
      'out',
      'bot.event.CLIENT_MESSAGE',
      clientMessage,
      { at: 3100, durationMs: 3000, attempt: 1 },
      { failure: 'timeout' },
    ),
    record(
      'bot',
      'out',
      'bot.event.CLIENT_MESSAGE',
      clientMessage,
      { at: 6100, durationMs: 3000, attempt: 2 },
      { failure: 'timeout' },
    ),
    record('bot', 'in', 'bot.event.BOT_MESSAGE', botMessage, { at: 6200, durationMs: 2 }),
  ];
  const botSim = [
    record(
      'bot',
      'in',
      'bot.event.CLIENT_MESSAGE',
      clientMessage,
      { at: 1100, durationMs: 1, attempt: 1 },
      { failure: 'hang' },
    ),
    record(
      'bot',
      'in',
      'bot.event.CLIENT_MESSAGE',
      clientMessage,
      { at: 4100, durationMs: 1, attempt: 2 },
      { failure: 'hang' },
    ),
    record('bot', 'out', 'bot.event.BOT_MESSAGE', botMessage, { at: 4202, durationMs: 2 }),
  ];

  it("learn the bot's delivery from the platform's events, as the platform recording does", () => {
    const fromPlatform = learnProfile(observe(platformBot), 'p');
    const fromBot = learnProfile(observe(botSim), 'b');
    expect(fromBot.bot?.attempts).toEqual({ value: 2, observations: 1 });
    expect(fromBot.bot?.attempts).toEqual(fromPlatform.bot?.attempts);
    expect(fromBot.bot?.intervalMs).toEqual(fromPlatform.bot?.intervalMs);
    expect(fromBot.kinds?.['bot.event.CLIENT_MESSAGE']?.direction).toBe('out');
    expect(fromBot.kinds?.['bot.event.BOT_MESSAGE']?.direction).toBe('in');
    expect(diffObservations(observe(platformBot), observe(botSim)).counts.behaviour).toBe(0);
  });

  it('take a hook the receiver recorded as one the platform sent', () => {
    const hook = { event_name: 'chat_accepted', chat_id: 1 };
    const fromTarget = learnProfile(
      observe([record('hook', 'in', 'hook.chat_accepted', hook, { at: 10, durationMs: 2 })]),
      't',
    );
    expect(fromTarget.kinds?.['hook.chat_accepted']?.direction).toBe('out');
    expect(fromTarget.kinds?.['hook.chat_accepted']).not.toHaveProperty('answerFields');
  });
});
