/**
 * Each simulator mutant changes what the simulator does: a conversation that passes on the
 * clean simulator fails under the mutant. Everything runs in process on the virtual clock.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConversation } from '../../src/conversation/load.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { conversationSchema, type Conversation } from '../../src/conversation/format.js';
import { createPlatform } from '../../src/platform/index.js';
import { createVirtualClock } from '../../src/clock.js';
import {
  MUTANTS,
  MUTANT_FAMILIES,
  resolveMutant,
  type MutantName,
} from '../../src/platform/mutants.js';
import { repoRoot } from '../helpers/run-cli.js';

const fixture = (name: string): string => join(repoRoot, 'fixtures/conversations', name);

async function passes(conversation: Conversation, file: string | undefined, mutant?: MutantName) {
  const result = await replayConversation({
    conversation,
    ...(file ? { file } : {}),
    ...(mutant ? { mutant } : {}),
  });
  return result.ok;
}

/** A bundled fixture that pins the behaviour each mutant changes. */
const KILLED_BY_FIXTURE: ReadonlyArray<[MutantName, string]> = [
  ['redeliver-early', 'redelivery-recovered.json'],
  ['offline-form-while-online', 'hook-offline-message.json'],
  ['skip-third-attempt', 'redelivery-recovered.json'],
  ['extra-attempt', 'redelivery-exhausted.json'],
  ['no-redelivery', 'redelivery-recovered.json'],
  ['bot-handover-after-one-attempt', 'bot-timeout.json'],
  ['bot-redeliver-early', 'bot-timeout.json'],
  ['reorder-agent-messages', 'redelivery-exhausted.json'],
  ['drop-agent-typing', 'typing-both-ways.json'],
  ['flip-chunked', 'chunked-delivery.json'],
  ['numeric-message-ids', 'text-both-ways.json'],
  ['drop-agent-name', 'text-both-ways.json'],
  ['numeric-bot-ids', 'bot-text.json'],
  ['cut-at-999', 'text-cut-1000.json'],
  ['cut-at-1001', 'text-cut-1000.json'],
  ['no-text-cut', 'text-cut-1000.json'],
  ['customer-500-once', 'text-both-ways.json'],
  ['empty-sender-delivered', 'empty-sender-id.json'],
  ['no-agent-joined', 'bot-handover-online.json'],
  ['no-agent-unavailable', 'bot-handover-offline.json'],
  ['bot-429-once', 'bot-text.json'],
  ['agent-joined-unasked', 'bot-text.json'],
  ['ignore-crm-link', 'hook-lifecycle.json'],
  ['offline-messages-spelling', 'hook-offline-message.json'],
  ['no-chat-finished', 'hook-lifecycle.json'],
  ['redeliver-new-id', 'transcript-redelivered.json'],
  ['transcript-repeats-redelivered', 'transcript-redelivered.json'],
];

/** Conversations written for the mutants no bundled fixture pins. */
const inline = (steps: unknown[], setup: unknown = {}): Conversation =>
  conversationSchema.parse({ version: 1, name: 'mutant check', setup, steps });

const KILLED_INLINE: ReadonlyArray<[MutantName, Conversation]> = [
  [
    'duplicate-agent-message',
    inline([
      { customer: { text: 'hi', sender: { id: 'c-d' } } },
      { name: 'm', agent: { text: 'once' } },
      { expect: { integrator: { message: { id: '${m.deliveryId}' } } } },
      {
        expect: { integrator: { message: { id: '${m.deliveryId}' } }, absent: true, within: 5000 },
      },
    ]),
  ],
  [
    'drop-agent-photo',
    inline([
      { customer: { text: 'hi', sender: { id: 'c-p' } } },
      { agent: { text: 'hello' } },
      { expect: { integrator: { sender: { name: '$string', photo: '$string' } } } },
    ]),
  ],
  [
    'ignore-custom-data',
    inline(
      [
        { customer: { text: 'hi', sender: { id: 'c-c' } } },
        { agent: { text: 'hello' } },
        { expect: { event: { type: 'crm-data', shown: true, customData: [{ title: 'Plan' }] } } },
      ],
      {
        hooks: {
          replies: {
            chat_accepted: { result: 'ok', custom_data: [{ title: 'Plan', content: 'gold' }] },
          },
        },
      },
    ),
  ],
  [
    // the visitor is called back before the agent accepts: the accept's push, numbered from 1
    // again, comes under a lower stream id than the call's end (callback-order, spec 6.4)
    'widget-push-ids-rewind',
    inline(
      [
        { page: { say: 'Please call me back' } },
        { page: { call: '+49 30 1234567' } },
        { expect: { page: { name: 'svc_onCallEnd', args: [{ result: 'ok' }] }, within: '60s' } },
        { agent: { text: 'Called you back.', to: 'visitor-1' } },
        { expect: { page: 'svc_onAccept' } },
      ],
      { page: { visitor: 'visitor-1' } },
    ),
  ],
];

describe('simulator mutants', () => {
  it('are at least 25, named once, each in a family with its spec section and meaning', () => {
    expect(MUTANTS.length).toBeGreaterThanOrEqual(25);
    expect(new Set(MUTANTS.map((m) => m.name)).size).toBe(MUTANTS.length);
    for (const m of MUTANTS) {
      expect(MUTANT_FAMILIES).toContain(m.family);
      expect(m.spec).toMatch(/^\d+(\.\d+)?$/);
      expect(m.survivor.length).toBeGreaterThan(20);
    }
  });

  it('come from SVC_MUTANT when not given, and an unknown name is an input error', () => {
    expect(resolveMutant(undefined, { SVC_MUTANT: 'flip-chunked' })).toBe('flip-chunked');
    expect(resolveMutant(undefined, { SVC_MUTANT: '' })).toBeUndefined();
    expect(() => resolveMutant('flip-chunky', {})).toThrow(
      expect.objectContaining({ code: 'SVC_E_UNKNOWN_MUTANT' }),
    );
  });

  it.each(KILLED_BY_FIXTURE)('%s fails %s, which passes clean', async (mutant, name) => {
    const conversation = await loadConversation(fixture(name));
    expect(await passes(conversation, fixture(name))).toBe(true);
    expect(await passes(conversation, fixture(name), mutant)).toBe(false);
  });

  it.each(KILLED_INLINE)(
    '%s fails a conversation that passes clean',
    async (mutant, conversation) => {
      expect(await passes(conversation, undefined)).toBe(true);
      expect(await passes(conversation, undefined, mutant)).toBe(false);
    },
  );

  it('millisecond-timestamps stamps CLIENT_MESSAGE in unix milliseconds', async () => {
    const conversation = await loadConversation(fixture('bot-text.json'));
    const stamp = async (mutant?: MutantName): Promise<number> => {
      const recordFile = join(mkdtempSync(join(tmpdir(), 'svc-mutants-')), 'run.ndjson');
      await replayConversation({
        conversation,
        file: fixture('bot-text.json'),
        recordFile,
        ...(mutant ? { mutant } : {}),
      });
      const sent = readFileSync(recordFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind?: string; request: { body?: string } })
        .find((r) => r.kind === 'bot.event.CLIENT_MESSAGE');
      return (JSON.parse(sent!.request.body!) as { message: { timestamp: number } }).message
        .timestamp;
    };
    expect(await stamp()).toBeLessThan(1e11);
    expect(await stamp('millisecond-timestamps')).toBeGreaterThan(1e11);
  });

  it('channel mutants change the status body and the unknown-channel answer', async () => {
    const answers = async (mutant?: MutantName) => {
      const platform = createPlatform({
        clock: createVirtualClock(),
        agentsOnline: true,
        channels: [{ id: 'ch', randomString: 'rnd' }],
        ...(mutant ? { mutant } : {}),
      });
      const status = await (await platform.core.request('/rnd/ch/status')).text();
      const unknown = (
        await platform.core.request('/rnd/nope', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ sender: { id: 'c' }, message: { type: 'text', text: 'x' } }),
        })
      ).status;
      await platform.close();
      return { status, unknown };
    };
    expect(await answers()).toEqual({ status: '1', unknown: 404 });
    expect((await answers('status-inverted')).status).toBe('0');
    expect((await answers('unknown-channel-200')).unknown).toBe(200);
  });
});
