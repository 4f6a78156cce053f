import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadConversation } from '../../src/conversation/load.js';
import { conversationSchema } from '../../src/conversation/format.js';
import { replayConversation } from '../../src/conversation/runner.js';
import { causalChain } from '../../src/trace/links.js';
import { readTrace, type TracedConversation } from '../../src/trace/read.js';
import { otlpEnvelope, toOtlpSpans } from '../../src/trace/otlp.js';
import { repoRoot } from '../helpers/run-cli.js';
import { LATE_HOOK } from '../helpers/late-hook.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Replays bundled conversations with their platform journal in one file; traces it. */
async function recordAndTrace(...names: string[]): Promise<TracedConversation[]> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-trace-'));
  dirs.push(dir);
  const recordFile = join(dir, 'session.ndjson');
  for (const name of names) {
    const file = join(repoRoot, 'fixtures/conversations', name);
    const result = await replayConversation({
      file,
      conversation: await loadConversation(file),
      recordFile,
    });
    expect(result.ok, JSON.stringify(result.steps.filter((s) => s.status === 'failed'))).toBe(true);
  }
  const conversations: TracedConversation[] = [];
  await readTrace({ file: recordFile, onConversation: (c) => void conversations.push(c) });
  return conversations;
}

// OTLP/JSON (opentelemetry-proto, trace/v1): the fields svc-cli writes, as a receiver reads them
const hexId = (length: number) => z.string().regex(new RegExp(`^[0-9a-f]{${length}}$`));
const nanos = z.string().regex(/^\d{1,20}$/);
const anyValue = z.union([
  z.object({ stringValue: z.string() }).strict(),
  z.object({ intValue: z.union([z.string().regex(/^-?\d+$/), z.number().int()]) }).strict(),
  z.object({ boolValue: z.boolean() }).strict(),
  z.object({ doubleValue: z.number() }).strict(),
]);
const keyValue = z.object({ key: z.string().min(1), value: anyValue }).strict();
const otlpSpan = z
  .object({
    traceId: hexId(32).refine((id) => !/^0+$/.test(id), 'all-zero trace id'),
    spanId: hexId(16).refine((id) => !/^0+$/.test(id), 'all-zero span id'),
    parentSpanId: hexId(16).optional(),
    name: z.string().min(1),
    kind: z.number().int().min(0).max(5),
    startTimeUnixNano: nanos,
    endTimeUnixNano: nanos,
    attributes: z.array(keyValue),
    status: z
      .object({ code: z.number().int().min(0).max(2), message: z.string().optional() })
      .strict(),
  })
  .strict()
  .refine((s) => BigInt(s.endTimeUnixNano) >= BigInt(s.startTimeUnixNano), 'ends before it starts');
const otlpDocument = z
  .object({
    resourceSpans: z.array(
      z
        .object({
          resource: z.object({ attributes: z.array(keyValue) }).strict(),
          scopeSpans: z.array(
            z
              .object({
                scope: z.object({ name: z.string(), version: z.string().optional() }).strict(),
                spans: z.array(otlpSpan),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
  })
  .strict();

describe('trace of a replayed conversation', () => {
  it('links a redelivered agent message from the customer to chat_finished', async () => {
    const [conversation] = await recordAndTrace('transcript-redelivered.json');
    expect(conversation).toBeDefined();
    const spans = conversation!.spans;
    const finished = spans.find((s) => s.event === 'chat_finished');
    expect(finished).toBeDefined();
    const chain = causalChain(spans, finished!).map((s) => ({
      name: s.name,
      attempt: s.attempt,
      offsetMs: s.startMs - spans[0]!.startMs,
      causeBy: s.causeBy,
    }));
    expect(chain).toEqual([
      { name: 'chat_finished', attempt: 1, offsetMs: 6000, causeBy: 'inferred' },
      { name: 'agent.text', attempt: 3, offsetMs: 6000, causeBy: 'record' },
      { name: 'agent.text', attempt: 2, offsetMs: 3000, causeBy: 'record' },
      { name: 'agent.text', attempt: 1, offsetMs: 0, causeBy: 'inferred' },
      { name: 'customer.text', attempt: undefined, offsetMs: 0, causeBy: undefined },
    ]);
    // the redelivered message kept its id across the three attempts (spec 8)
    const ids = new Set(spans.filter((s) => s.name === 'agent.text').map((s) => s.messageId));
    expect(ids.size).toBe(1);
    expect(conversation!.chat).toBe(1);
  });

  it('links the bot hand-over: customer -> CLIENT_MESSAGE -> INVITE_AGENT -> AGENT_JOINED -> agent', async () => {
    const [conversation] = await recordAndTrace('bot-handover-online.json');
    const spans = conversation!.spans;
    const agent = spans.find((s) => s.name === 'agent.text')!;
    expect(causalChain(spans, agent).map((s) => s.name)).toEqual([
      'agent.text',
      'AGENT_JOINED',
      'INVITE_AGENT',
      'CLIENT_MESSAGE',
      'customer.text',
    ]);
  });

  it('writes OTLP/JSON that holds to the OpenTelemetry trace format', async () => {
    const conversations = await recordAndTrace('transcript-redelivered.json', 'bot-timeout.json');
    const { head, tail } = otlpEnvelope('0.0.0');
    const text =
      head +
      conversations
        .flatMap(toOtlpSpans)
        .map((s) => JSON.stringify(s))
        .join(',') +
      tail;
    const parsed = otlpDocument.safeParse(JSON.parse(text));
    expect(parsed.success, parsed.error?.message).toBe(true);
    const spans = parsed.data!.resourceSpans[0]!.scopeSpans[0]!.spans;
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(2);
    // every parent is a span of the same trace
    const ids = new Map(spans.map((s) => [s.spanId, s.traceId]));
    for (const s of spans) if (s.parentSpanId) expect(ids.get(s.parentSpanId)).toBe(s.traceId);
    // protocol time is kept: attempt 3 of the redelivered message starts 6 s after attempt 1
    const attempts = spans.filter(
      (s) => s.name === 'channel.agent.text' && s.traceId === spans[0]!.traceId,
    );
    expect(
      Number(BigInt(attempts.at(-1)!.startTimeUnixNano) - BigInt(attempts[0]!.startTimeUnixNano)) /
        1e6,
    ).toBe(6000);
  });
});

describe('invariants at the end of a replay', () => {
  const lateHook = LATE_HOOK;

  it('fails the conversation naming the rule, its spec section and the two exchanges', async () => {
    const result = await replayConversation({ conversation: conversationSchema.parse(lateHook) });
    expect(result.ok).toBe(false);
    const step = result.steps.at(-1)!;
    expect(step).toMatchObject({ name: 'invariants', status: 'failed' });
    expect(step.details).toEqual([
      'hook-after-finish (spec 6.2): #6 chat_assigned at +0.000 s went to the hook receiver after #4 chat_finished at +0.000 s [exchanges #4 and #6; --no-invariant hook-after-finish switches it off]',
    ]);
  });

  it('passes with that invariant switched off', async () => {
    const result = await replayConversation({
      conversation: conversationSchema.parse(lateHook),
      invariants: { disabled: ['hook-after-finish'] },
    });
    expect(result.ok).toBe(true);
  });
});

describe('the offline-message invariant (a rule on the run: the offline hook has no chat)', () => {
  const file = join(repoRoot, 'fixtures/conversations/hook-offline-message.json');

  it('catches a platform that takes the offline form with agents online, naming both exchanges', async () => {
    const conversation = await loadConversation(file);
    // fixed: the form is refused while agents are online, and the invariant holds
    expect((await replayConversation({ file, conversation })).ok).toBe(true);
    // the planted bug: the simulator mutant that takes the form anyway
    const broken = await replayConversation({
      file,
      conversation,
      mutant: 'offline-form-while-online',
    });
    const step = broken.steps.at(-1)!;
    expect(step).toMatchObject({ name: 'invariants', status: 'failed' });
    // the agents step shows in the journal as the control request it is
    expect(step.details).toEqual([
      'offline-message (spec 3): #5 offline_message at 0.000 s (an offline form) went out while agents were online, as #3 POST /_sim/agents at 0.000 s showed [exchanges #3 and #5; --no-invariant offline-message switches it off]',
    ]);
    const off = await replayConversation({
      file,
      conversation,
      mutant: 'offline-form-while-online',
      invariants: { disabled: ['offline-message'] },
    });
    expect(off.steps.map((s) => s.name)).not.toContain('invariants');
  });
});
