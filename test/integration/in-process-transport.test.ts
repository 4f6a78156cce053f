// The embedded world runs over the in-process transport. Every conversation must
// behave exactly as over loopback sockets: the same steps pass, with the same values and the
// same protocol times. Each conversation is replayed both ways and the reports compared.
import { describe, expect, it } from 'vitest';
import { conversationSchema } from '../../src/conversation/format.js';
import { loadConversations } from '../../src/conversation/load.js';
import {
  replayConversation,
  type ConversationResult,
  type ReplayOptions,
} from '../../src/conversation/runner.js';

const bundled = await loadConversations(['fixtures/conversations']);

/** Wire faults the bundled fixtures do not all use, on each party (fixture JSON, parsed). */
const faulted = [
  {
    version: 1,
    name: 'integrator resets twice, then answers',
    setup: { integrator: { faults: { sequence: ['reset', 'reset'] } } },
    steps: [
      { customer: { text: 'Hi', sender: { id: 'c-r' } } },
      { agent: { text: 'Hello' }, delivery: { result: 'delivered', attempts: 3, elapsedMs: 6000 } },
    ],
  },
  {
    version: 1,
    name: 'integrator hangs: the series fails after 9 s',
    setup: { integrator: { faults: { fault: 'hang' } } },
    steps: [
      { customer: { text: 'Hi', sender: { id: 'c-h' } } },
      { agent: { text: 'Hello' }, delivery: { result: 'failed', attempts: 3, elapsedMs: 9000 } },
    ],
  },
  {
    version: 1,
    name: 'integrator: bad JSON, a 503, then late by 2.5 s',
    setup: {
      integrator: { faults: { sequence: ['bad-json', 'status:503'], delayMs: 0 } },
      channel: { chunked: true },
    },
    steps: [
      { customer: { text: 'Hi', sender: { id: 'c-b' } } },
      { agent: { text: 'Hello' }, delivery: { result: 'delivered', attempts: 3 } },
      { expect: { integrator: { message: { text: 'Hello' }, $attempt: 3 } } },
    ],
  },
  {
    version: 1,
    name: 'a delayed integrator and a slow hook receiver',
    setup: {
      integrator: { faults: { delayMs: 2500 } },
      hooks: { faults: { fault: 'slow-body:12000' } },
    },
    steps: [
      { customer: { text: 'Hi', sender: { id: 'c-d' } } },
      { agent: { text: 'Hello' }, delivery: { result: 'delivered', attempts: 1, elapsedMs: 2500 } },
      { close: {} },
      { advance: 20_000 },
      { control: { method: 'GET', path: '/_sim/state' } },
    ],
  },
  {
    version: 1,
    name: 'a bot that resets, then answers',
    setup: { bot: { faults: { sequence: ['reset'] } } },
    steps: [
      { customer: { text: 'hello', sender: { id: 'c-bot' } } },
      {
        expect: {
          event: { type: 'delivery-attempt', target: 'bot', attempt: 2, outcome: 'accepted' },
        },
      },
      { expect: { integrator: { message: { type: 'text' } } } },
    ],
  },
].map((fixture) => conversationSchema.parse(fixture));

/**
 * A report without what differs by construction: URLs (ports, in-process origins, the
 * channel's random string), random ids, wall times, and epoch seconds (each virtual clock
 * starts at the wall clock's second, and the two runs may straddle one).
 */
function comparable(result: ConversationResult): unknown {
  const text = JSON.stringify({
    ok: result.ok,
    protocolMs: result.protocolMs,
    steps: result.steps.map(({ wallMs: _wall, ...step }) => step),
  });
  return JSON.parse(
    text
      .replace(/https?:\/\/[^"\s]+/g, '<url>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
      .replace(/"(wallMs|usedBytes|totalBytes|rssBytes)":[0-9.e-]+/g, '"$1":0')
      .replace(/"(timestamp|time|ts)":1\d{9}\b/g, '"$1":0'),
  );
}

const both = async (options: ReplayOptions) => {
  const socket = await replayConversation({ ...options, transport: 'socket' });
  const inProcess = await replayConversation({ ...options, transport: 'in-process' });
  return { socket, inProcess };
};

describe('the in-process transport', () => {
  it.each(bundled.map((b) => [b.file, b] as const))(
    '%s: the same report as over sockets',
    async (_file, { file, conversation }) => {
      const { socket, inProcess } = await both({ conversation, file });
      expect(inProcess.ok).toBe(true);
      expect(comparable(inProcess)).toEqual(comparable(socket));
    },
  );

  it.each(faulted.map((c) => [c.name, c] as const))(
    '%s: the same report as over sockets',
    async (_name, conversation) => {
      const { socket, inProcess } = await both({ conversation });
      expect(socket.steps.filter((s) => s.status !== 'passed').map((s) => s.details)).toEqual([]);
      expect(comparable(inProcess)).toEqual(comparable(socket));
    },
  );

  it('is the default of the embedded world', async () => {
    const [first] = bundled;
    const result = await replayConversation({
      conversation: {
        version: 1,
        name: 'where is the channel',
        steps: [{ control: { method: 'GET', path: '/_sim/state' } }],
      },
    });
    expect(first).toBeDefined();
    expect(JSON.stringify(result.steps[0]?.value)).toContain('.in-process.invalid');
  });
});
