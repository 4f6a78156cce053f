/**
 * `conform bot --fuzz N`: generated customers and texts through the embedded
 * platform to the bot under test. Each case opens a chat with a generated customer (text at
 * the edges: empty-ish, 1000 code points, astral, combining marks, markup; name present,
 * odd or absent), so the CLIENT_MESSAGE the provider gets is the platform's own; then the
 * same CLIENT_MESSAGE is delivered again, as the platform's second attempt would be (spec 8).
 * Properties: the provider answers 200 within 3 s; a valid BOT_MESSAGE or INVITE_AGENT for
 * that chat reaches the bot service, which takes it; the redelivery gets 200 again and no second answer.
 */
import { mkdir } from 'node:fs/promises';
import { writeFileWholeAsync } from '../../../io/write-whole.js';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import type { Clock } from '../../../clock.js';
import { postJson } from '../../../http/client.js';
import type { ExchangeRecord } from '../../../journal/journal.js';
import type { Chat, Customer } from '../../../platform/model.js';
import type { BotHarness } from '../bot-harness.js';
import { judgeBotAnswer, judgeProviderEvent, refusedAnswers } from '../bot.js';
import type { ConformCase } from '../case.js';
import { edgeString } from './arbitraries.js';
import { changesFrom, propertyCases, type FuzzSettings, type FuzzSummary } from './run.js';
import { plural } from '../../../plural.js';

export interface BotFuzzCase {
  text: string;
  name: string | undefined;
}

export interface BotCaseResult {
  property:
    | 'survives: no 5xx, no reset, no hang'
    | 'answers within the budget'
    | 'answers validly for the request'
    | 'answers a redelivery the same way';
  reasons: string[];
  request?: Record<string, unknown>;
}

/** The generated customers: the text the bot must answer, the name it is told. */
export const botCaseArbitrary: fc.Arbitrary<BotFuzzCase> = fc.record({
  text: edgeString(1, 1000),
  name: fc.option(edgeString(1, 60), { nil: undefined, freq: 3 }),
});

const parse = (text: string | undefined): Record<string, unknown> | undefined => {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return value !== null && typeof value === 'object'
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
};

/** The provider's events that are about this chat (chat_id or client_id; else any since). */
function answersFor(records: ExchangeRecord[], chat: Chat, customer: Customer): ExchangeRecord[] {
  return records.filter((r) => {
    const json = parse(r.request.body);
    if (!json) return true;
    const chatId = json.chat_id;
    const clientId = json.client_id;
    if (chatId === undefined && clientId === undefined) return true;
    return String(chatId) === String(chat.id) || String(clientId) === customer.clientId;
  });
}

/** A customer of its own for each case: a bot keeping state per customer meets each afresh. */
const newCustomerId = (n: number): string =>
  `svc-fuzz-${n}-${Math.random().toString(36).slice(2, 8)}`;

/**
 * Runs one generated case against the provider; undefined when every property held.
 * @example const broken = await runBotCase({ harness, url, token, clock, answerWithinMs: 10_000 }, c, 1);
 */
export async function runBotCase(
  options: {
    harness: BotHarness;
    url: string;
    token: string;
    clock: Clock;
    answerWithinMs: number;
  },
  c: BotFuzzCase,
  n: number,
  customerId = newCustomerId(n),
): Promise<BotCaseResult | undefined> {
  const { harness, clock } = options;
  const since = harness.mark();
  const sender = { id: customerId, ...(c.name === undefined ? {} : { name: c.name }) };
  const posted = await postJson({
    url: harness.channelUrl,
    body: JSON.stringify({ sender, message: { type: 'text', text: c.text } }),
    timeoutMs: 60_000,
    clock,
  });
  if (!posted.ok || posted.status !== 200)
    throw new Error(
      `the embedded channel did not take the customer message (${posted.ok ? posted.status : posted.message})`,
    );
  const chat = [...harness.core.state.chats.values()].find(
    (x) => harness.core.state.customers.get(x.customerKey)?.senderId === customerId,
  );
  const customer = chat ? harness.core.state.customers.get(chat.customerKey) : undefined;
  if (!chat || !customer) throw new Error('the embedded platform opened no chat');
  const first = await harness.waitFor(() => harness.sent('CLIENT_MESSAGE', since)[0], 6_000);
  const request = parse(first?.request.body);
  const answered = judgeBotAnswer('CLIENT_MESSAGE', first, clock);
  if (answered.length > 0) {
    const timeout = first?.failure?.reason === 'timeout';
    return {
      property: timeout ? 'answers within the budget' : 'survives: no 5xx, no reset, no hang',
      reasons: answered,
      ...(request ? { request } : {}),
    };
  }
  const answers =
    (await harness.waitFor(() => {
      const found = answersFor(harness.received(since), chat, customer);
      return found.length > 0 ? found : undefined;
    }, options.answerWithinMs)) ?? [];
  if (answers.length === 0)
    return {
      property: 'answers validly for the request',
      reasons: [
        `no BOT_MESSAGE or INVITE_AGENT for chat ${chat.id} within ${options.answerWithinMs} ms (spec 3, 6.1)`,
        ...[harness.silence()].filter((line) => line !== undefined),
      ],
      ...(request ? { request } : {}),
    };
  // an answer the bot service refused (another provider id, a wrong token) never reaches the
  // customer: fixed conform fails it, and so does a generated case
  const invalid = [
    ...answers.flatMap((r) => judgeProviderEvent(r, chat, customer)),
    ...refusedAnswers(answers),
  ];
  if (invalid.length > 0)
    return {
      property: 'answers validly for the request',
      reasons: invalid,
      ...(request ? { request } : {}),
    };
  // spec 8: the platform's second attempt carries the same event (same id)
  const again = harness.mark();
  const firstAnswerMs = Math.max(
    1,
    (answers[0]?.protocolMs ?? clock.now()) - (first?.protocolMs ?? 0),
  );
  const redelivered = await postJson({
    url: `${options.url.replace(/\/+$/, '')}/${encodeURIComponent(options.token)}`,
    body: first?.request.body ?? '{}',
    headers: first?.request.headers?.authorization
      ? { authorization: first.request.headers.authorization }
      : {},
    timeoutMs: 3_000,
    clock,
  });
  if (!redelivered.ok || redelivered.status !== 200)
    return {
      property: 'answers a redelivery the same way',
      reasons: [
        `the redelivered CLIENT_MESSAGE got ${redelivered.ok ? `HTTP ${redelivered.status}` : redelivered.message}, the first HTTP 200`,
      ],
      ...(request ? { request } : {}),
    };
  // a second answer to the same event would reach the customer twice
  const twice = await harness.waitFor(
    () => {
      const found = answersFor(harness.received(again), chat, customer);
      return found.length > 0 ? found : undefined;
    },
    Math.min(options.answerWithinMs, firstAnswerMs * 3 + 100),
  );
  if (twice && twice.length > 0)
    return {
      property: 'answers a redelivery the same way',
      reasons: [
        `the bot answered the redelivered CLIENT_MESSAGE (same id) again: ${plural(twice.length, 'more event', 'more events')} for chat ${chat.id}; the customer would see the answer twice (spec 8)`,
      ],
      ...(request ? { request } : {}),
    };
  return undefined;
}

/**
 * The conversation a failure is written as: every property of the case as a step, so its
 * replay against the same bot is red for what failed (a 5xx or a late 200 on the first
 * attempt, no valid answer, a second answer to the redelivered event) and green once fixed.
 * @example botFailureFixture({ seed: 7, token, providerId, text: 'a', sender: {}, answerWithinMs: 10_000 })
 */
export function botFailureFixture(options: {
  seed: number;
  token: string;
  providerId: string;
  text: string;
  sender: Record<string, unknown>;
  answerWithinMs: number;
}): Record<string, unknown> {
  return {
    version: 1,
    name: `fuzz failure bot CLIENT_MESSAGE (seed ${options.seed})`,
    description:
      "Written by svc-cli conform bot --fuzz: the customer message the bot failed on, then the same CLIENT_MESSAGE again as the platform's second attempt; the bot answers each attempt 200 and the customer once.",
    tags: ['fuzz'],
    spec: ['4.3', '6.1', '8'],
    setup: { bot: { token: options.token, providerId: options.providerId } },
    steps: [
      { customer: { text: options.text, sender: { ...options.sender } } },
      // spec 4.3, 8: the first attempt is answered 200 within 3 s
      {
        name: 'asked',
        expect: { bot: { event: 'CLIENT_MESSAGE', $attempt: 1, $status: 200 } },
      },
      // spec 8: the platform's second attempt, same id: answered 200 again
      { redeliver: { to: 'bot', id: '${asked.id}' } },
      // spec 6.1, 8: one BOT_MESSAGE or INVITE_AGENT for the chat, not one per attempt
      {
        expect: { answers: { to: '${asked.id}', count: 1 }, within: options.answerWithinMs },
      },
    ],
  };
}

/** Where shrinking ends: the shortest text, no name (changes are reported against it). */
const SAMPLE: BotFuzzCase = { text: 'a', name: undefined };

/**
 * The customer message a case sends to the embedded channel (spec 2.1), with the sender.id it
 * was sent with (the changes from the sample compare the generated fields alone: a stand-in).
 */
const customerMessage = (c: BotFuzzCase, id = 'svc-fuzz-customer'): Record<string, unknown> => ({
  sender: { id, ...(c.name === undefined ? {} : { name: c.name }) },
  message: { type: 'text', text: c.text },
});

/**
 * The fuzz cases of `conform bot --fuzz`: the shared runner over generated customers.
 * @example const { cases } = buildBotFuzzCases({ harness, url, token, providerId, clock }, settings);
 */
export function buildBotFuzzCases(
  options: {
    harness: BotHarness;
    url: string;
    token: string;
    providerId: string;
    clock: Clock;
    answerWithinMs: number;
  },
  settings: FuzzSettings,
): { cases: ConformCase[]; summary: () => FuzzSummary | undefined } {
  // the sender.id each case went out with: the report shows the one the bot saw in its logs
  const customerIds = new WeakMap<BotFuzzCase, string>();
  return propertyCases<BotFuzzCase>(
    {
      arbitrary: botCaseArbitrary,
      check: async (c, n) => {
        const customerId = newCustomerId(n);
        customerIds.set(c, customerId);
        const result = await runBotCase(options, c, n, customerId);
        if (!result) return undefined;
        const { property, reasons, request } = result;
        // the report shows the customer message conform posted and, by it, the CLIENT_MESSAGE
        // the bot got: the id and chat_id a bot author finds in their logs
        return {
          property,
          reasons,
          ...(request ? { sent: { label: 'CLIENT_MESSAGE sent to your bot', body: request } } : {}),
        };
      },
      describe: (c) => ({
        kind: 'bot.event.CLIENT_MESSAGE',
        request: customerMessage(c, customerIds.get(c)),
        // what conform posted to the platform's channel (spec 2.1), not what the bot got
        requestLabel: 'customer message',
        changes: changesFrom(customerMessage(SAMPLE), customerMessage(c)),
      }),
      async reproduce(_kind, request, seed) {
        const dir = resolve(settings.cwd, settings.failuresDir ?? join('.svc', 'failures'));
        await mkdir(dir, { recursive: true });
        const file = join(dir, `bot-client-message-seed${seed}.conversation.json`);
        const sender = (request.sender ?? {}) as Record<string, unknown>;
        const message = (request.message ?? {}) as Record<string, unknown>;
        await writeFileWholeAsync(
          file,
          `${JSON.stringify(
            botFailureFixture({
              seed,
              token: options.token,
              providerId: options.providerId,
              text: typeof message.text === 'string' ? message.text : '',
              sender,
              answerWithinMs: options.answerWithinMs,
            }),
            null,
            2,
          )}\n`,
        );
        // the bot answers to the platform address it was given: the replay's platform must
        // listen where this run's did, or the bot's answers are refused connections
        const port = new URL(options.harness.channelUrl).port;
        return [
          {
            file,
            command: `svc-cli replay ${file} --bot-url ${options.url}${port ? ` --platform-port ${port}` : ''}`,
          },
        ];
      },
      spec: (name) =>
        name.startsWith('answers within') || name.includes('redelivery')
          ? ['4.3', '8']
          : ['2.5', '4.3', '6.1'],
    },
    settings,
  );
}
