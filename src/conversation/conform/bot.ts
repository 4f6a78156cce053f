import { randomUUID } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { formatIssue } from '../../contract/issues.js';
import { validate } from '../../contract/validate.js';
import { postJson } from '../../http/client.js';
import { botRouteHint, trailingSlashHint } from '../../http/trailing-slash.js';
import type { ExchangeRecord } from '../../journal/journal.js';
import {
  createBotSender,
  droppedNoticeHint,
  inlineAnswerOf,
} from '../../platform/bot/bot-outbound.js';
import { contentTypeWarning } from '../../platform/bot/bot-inbound.js';
import { BOT_DELIVERY_POLICY } from '../../contract/timing.js';
import type { Chat, Customer } from '../../platform/model.js';
import type { BotHarness } from './bot-harness.js';
import { botStopped, botStoppedReason } from './bot-stopped.js';
import { judgePostsBack, parseObject as parse } from './bot-posts-back.js';
import { describeWallTime } from '../../clock.js';
import { quote, type CaseContext, type CheckOutcome, type ConformCase } from './case.js';
import { plural } from '../../plural.js';

/**
 * `conform bot`: we play the platform against someone's bot provider (spec 4.3, 6.1): every
 * platform-to-provider event answered 200 within 3 s (spec 8), the answer to a customer
 * message (BOT_MESSAGE or INVITE_AGENT) posted to our bot service in time and valid
 * (spec 2.5), and a malformed event refused (a warning only: the spec does not demand it).
 */
export interface BotSuiteOptions {
  /** `{bot_provider_url}`; events go to `<url>/<token>` (spec 4.3) */
  url: string;
  token: string;
  clock: Clock;
  harness: BotHarness;
  /** protocol ms the bot's answer may take after CLIENT_MESSAGE (default 10 s, an assumption) */
  answerWithinMs?: number;
  /** the customer's texts, sent in turn (default one greeting) */
  texts?: readonly string[] | undefined;
  /** `docs`: CHAT_CLOSED goes to the bot too, and a CLIENT_INFO from it is checked */
  botEvents?: 'spec' | 'docs';
}

/** spec 8: 3 s per attempt. */
const ATTEMPT_MS = BOT_DELIVERY_POLICY.attemptTimeoutMs;
export const DEFAULT_ANSWER_WITHIN_MS = 10_000;
/** our own embedded channel: generous, so a small --time-scale cannot starve it */
const EMBEDDED_MS = 60_000;
const ANSWERS = ['BOT_MESSAGE', 'INVITE_AGENT'];
/** With --bot-events docs the bot may also send the public Bot API's CLIENT_INFO. */
const DOCS_ANSWERS = [...ANSWERS, 'CLIENT_INFO'];

type Json = Record<string, unknown>;
/** What the customer says when no --text is given. */
export const DEFAULT_TEXT = 'Hello from the conformance suite';

const idText = (v: unknown): string =>
  typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);

/**
 * The reasons one attempt of `event` was not a regular answer (spec 4.3, 7.2, 8); with the
 * clock, a timeout says what 3 s is on the wall.
 */
export function judgeBotAnswer(
  event: string,
  record: ExchangeRecord | undefined,
  clock?: Clock,
): string[] {
  if (!record) return [`${event} was never sent (the platform could not start the exchange)`];
  if (record.failure)
    return record.failure.reason === 'timeout'
      ? [
          `reply time: no answer to ${event} within ${ATTEMPT_MS} ms${clock ? describeWallTime(ATTEMPT_MS, clock) : ''}; the platform waits 3 s per attempt, 2 attempts, then ${afterAttempts(event)} (spec 4.3, 8)`,
        ]
      : [`${event}: ${record.failure.message}; the regular answer is HTTP 200 (spec 4.3)`];
  const status = record.response?.status ?? 0;
  if (status === 200) return [];
  const body = record.response?.body ? ` ${quote(record.response.body, 80)}` : '';
  // a 202 or 204 is success to the bot's framework (an async handler, an empty answer), so
  // "the regular answer is 200" read as a nit: say what the platform makes of it
  if (status >= 201 && status <= 299)
    return [
      `${event} answered HTTP ${status}${body}, a success status, but the platform takes only 200 as the regular answer and counts any other status as no answer, as a timeout: it tries again, then ${afterAttempts(event)} (spec 4.3, 7.2, 8); answer ${event} with HTTP 200`,
    ];
  // the token is the URL's last segment (spec 5.2): a refusal is most often a --token that is
  // not the one the bot checks
  const token =
    status === 401 || status === 403
      ? `; the token is the last path segment (${tokenPathOf(record.request.url)}): is --token the one your bot checks?`
      : '';
  return [
    `${event} answered HTTP ${status}${body}; the regular answer is HTTP 200 within 3 s (spec 4.3, 7.2, 8)${token}`,
  ];
}

/**
 * What the platform does once every attempt at `event` went unanswered (src/platform/bot/
 * bot-service.ts): only a CLIENT_MESSAGE hands the chat over; the notices are dropped.
 */
function afterAttempts(event: string): string {
  switch (event) {
    case 'CLIENT_MESSAGE':
      return 'hands the customer to an agent';
    case 'AGENT_JOINED':
      return 'gives up on AGENT_JOINED: the agent keeps the chat, and the bot is never told they joined';
    case 'AGENT_UNAVAILABLE':
      return 'gives up on AGENT_UNAVAILABLE: the chat stays with the bot, which is never told no agent is free';
    case 'CHAT_CLOSED':
      return 'gives up on CHAT_CLOSED: the chat is closed all the same, and the bot is never told';
    default:
      return `gives up on ${event}`;
  }
}

/** The path of a bot event's URL with its token (last segment) shown as `<token>`. */
function tokenPathOf(url: string): string {
  try {
    return new URL(url).pathname.replace(/[^/]*$/, '<token>');
  } catch {
    return url;
  }
}

/**
 * The platform's attempts at one CLIENT_MESSAGE, once the series has ended: a 200, or every
 * attempt of the policy (spec 4.3, 8: 2 attempts, 3 s each) made and answered or timed out.
 */
async function waitForSeries(harness: BotHarness, since: number): Promise<ExchangeRecord[]> {
  const { attempts } = BOT_DELIVERY_POLICY;
  const series = () => harness.sent('CLIENT_MESSAGE', since);
  // the platform's own timers end every series (an attempt is journaled once it is answered
  // or timed out): the bound only guards against a series that never started
  const ended = await harness.waitFor(() => {
    const sent = series();
    const done = sent.some((r) => r.response?.status === 200) || sent.length >= attempts;
    return done ? sent : undefined;
  }, EMBEDDED_MS);
  return ended ?? series();
}

/**
 * Each attempt's verdict: the first answered 200 passes; a later 200 passes with a warning
 * (the customer waited through a retry, as a bot that starts cold makes them); none fails
 * with every attempt's reason and the hand-over that followed (spec 3, 4.3, 8).
 */
function judgeSeries(attempts: ExchangeRecord[], clock: Clock): CheckOutcome {
  const first = judgeBotAnswer('CLIENT_MESSAGE', attempts[0], clock);
  if (first.length === 0) return [];
  // no attempt at all: there is no series to count, nor a hand-over that followed it
  if (attempts.length === 0) return first;
  const reasons = attempts.map((record, index) =>
    judgeBotAnswer('CLIENT_MESSAGE', record, clock)
      .map((reason) => `attempt ${index + 1}: ${reason}`)
      .join('; '),
  );
  const answered = attempts.findIndex((r) => r.response?.status === 200);
  if (answered > 0)
    return {
      warn: `${reasons.slice(0, answered).join('; ')}; attempt ${answered + 1} answered HTTP 200: the platform retried after 3 s, and the customer waited that long (spec 4.3, 8)`,
    };
  return [
    ...reasons,
    ...slashHintOf(attempts[0]),
    `after ${plural(attempts.length, 'attempt')} without a regular answer the platform hands the customer to an agent (spec 3, 8)`,
  ];
}

/**
 * The way out for a bot that routes only `<token>/` (a redirect there, Django's APPEND_SLASH
 * page): the platform posts to `{bot_provider_url}/<token>`, no slash after it (spec 4.3);
 * else, for a 404, the path it posted to, with the question whether the bot routes it.
 */
function slashHintOf(record: ExchangeRecord | undefined): string[] {
  if (!record?.response) return [];
  const { status, headers, body = '' } = record.response;
  const hint = trailingSlashHint(
    { status, headers: lowerCased(headers), body },
    record.request.url,
    {
      spec: '4.3',
    },
  );
  const unrouted = hint ?? botRouteHint(status, record.request.url);
  return unrouted === undefined ? [] : [unrouted];
}

const lowerCased = (headers: Record<string, string> | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));

/** The reasons a BOT_MESSAGE / INVITE_AGENT posted to the bot service is not conforming. */
export function judgeProviderEvent(
  record: ExchangeRecord,
  chat: Chat,
  customer: Customer,
  allowed: readonly string[] = ANSWERS,
): string[] {
  const json = parse(record.request.body);
  if (!json)
    return [
      `body: ${unreadBody(record) ?? `not a JSON object ${quote(record.request.body ?? '', 60)}`} (spec 2.5)`,
    ];
  const name = typeof json.event === 'string' ? json.event : undefined;
  if (!name || !allowed.includes(name))
    return [
      `event: ${JSON.stringify(json.event)}; the provider sends ${allowed.join(' or ')} (spec 6.1${allowed === ANSWERS ? '' : ', public docs'})`,
    ];
  const reasons = validate(`bot.event.${name}`, json).errors.map(
    (issue) => `${name} ${formatIssue(issue)}`,
  );
  // spec 6.1: chat_id names the chat (the BOT_MESSAGE sample omits it); client_id the user
  if (json.chat_id !== undefined && idText(json.chat_id) !== String(chat.id))
    reasons.push(
      `${name} chat_id: ${JSON.stringify(json.chat_id)}; expected "${chat.id}", the chat_id of the CLIENT_MESSAGE (spec 2.5, 6.1)`,
    );
  if (json.client_id !== undefined && json.client_id !== customer.clientId)
    reasons.push(
      `${name} client_id: ${JSON.stringify(json.client_id)}; expected "${customer.clientId}", the client_id of the CLIENT_MESSAGE (spec 2.5, 6.1)`,
    );
  return reasons;
}

/**
 * A body the bot service could not read, in words: the journal keeps no bytes of it (its body is
 * a marker such as `<invalid_encoding>`), and its refusal, judged next, says where it broke.
 */
function unreadBody(record: ExchangeRecord): string | undefined {
  if ((record.response?.status ?? 0) < 400) return undefined;
  const marker = /^<(invalid_encoding|body_too_large)>$/.exec(record.request.body ?? '')?.[1];
  if (marker === 'invalid_encoding')
    return 'not valid UTF-8, so not read as JSON (the refusal below names the byte)';
  if (marker === 'body_too_large') return 'over the body limit, so not read (the refusal below)';
  return undefined;
}

/**
 * The contract's warnings on the provider's events (a timestamp in milliseconds, a field the
 * contract does not list): the bot service accepts such an event, and says so, as the
 * simulator's terminal does; none when an event is not JSON (judgeProviderEvent says that).
 */
function providerEventWarnings(records: readonly ExchangeRecord[]): string[] {
  return records.flatMap((record) => {
    const json = parse(record.request.body);
    if (!json || typeof json.event !== 'string') return [];
    const name = json.event;
    const typed = contentTypeWarning(record.request.headers?.['content-type']);
    return [
      ...validate(`bot.event.${name}`, json).warnings.map(
        (issue) => `${name} ${formatIssue(issue)}`,
      ),
      ...(typed ? [`${name} ${typed}`] : []),
    ];
  });
}

/**
 * A check's outcome for the provider's events: their failures, else their warnings (the check
 * passes with them shown).
 */
function judgedEvents(
  records: readonly ExchangeRecord[],
  chat: Chat,
  customer: Customer,
  allowed: readonly string[],
): CheckOutcome {
  const failures = records.flatMap((record) => judgeProviderEvent(record, chat, customer, allowed));
  if (failures.length > 0) return failures;
  const warnings = providerEventWarnings(records);
  return warnings.length > 0 ? { warn: warnings.join('; ') } : [];
}

/** What the cases of one `conform bot` run share: the chat they open, and how they send. */
interface BotRun {
  options: BotSuiteOptions;
  harness: BotHarness;
  clock: Clock;
  answerWithin: number;
  texts: readonly string[];
  allowed: readonly string[];
  session: { chat?: Chat | undefined; customer?: Customer | undefined; since: number };
  noChat: { skip: string };
  /** the platform sends the bot one event of the chat; its answer judged (spec 4.3, 8) */
  sendEvent: (
    name: 'AGENT_JOINED' | 'AGENT_UNAVAILABLE' | 'CHAT_CLOSED',
  ) => () => Promise<CheckOutcome>;
}

/** The cases of `conform bot`, in the order they run; they share one chat. */
export function buildBotCases(options: BotSuiteOptions): ConformCase[] {
  const { harness, clock } = options;
  // a bot scripted on intents does not answer a fixed greeting; --text says what
  const texts = options.texts && options.texts.length > 0 ? options.texts : [DEFAULT_TEXT];
  const session: BotRun['session'] = { since: 0 };
  const sender = createBotSender(harness.core, {
    providerUrl: options.url,
    token: options.token,
    // one attempt: the check is on the regular answer, not on the platform's patience
    policy: { ...BOT_DELIVERY_POLICY, attempts: 1, failAfterMs: 0 },
  });
  const docs = options.botEvents === 'docs';
  const noChat = { skip: 'no chat: the customer message did not open one' };
  const run: BotRun = {
    options,
    harness,
    clock,
    answerWithin: options.answerWithinMs ?? DEFAULT_ANSWER_WITHIN_MS,
    texts,
    allowed: docs ? DOCS_ANSWERS : ANSWERS,
    session,
    noChat,
    sendEvent: (name) => async () => {
      const { chat, customer } = session;
      if (!chat || !customer) return noChat;
      const since = harness.mark();
      await sender.send(name, chat, customer);
      const [record] = harness.sent(name, since);
      const reasons = judgeBotAnswer(name, record, clock);
      if (reasons.length === 0) return reasons;
      return [...reasons, ...slashHintOf(record), ...noMessageHint(name, record, run)];
    },
  };
  return [
    clientMessageCase(run),
    answerCase(run),
    noticeCase(run, 'AGENT_JOINED', ['4.3', '6.1', '7.2', '8']),
    noticeCase(run, 'AGENT_UNAVAILABLE', ['3', '4.3', '6.1', '7.2', '8']),
    ...(docs ? docsCases(run) : []),
    malformedCase(run),
    // last: a bot that wrongly takes the event has no later case to disturb
    wrongTokenCase(run),
  ];
}

/**
 * AGENT_JOINED or AGENT_UNAVAILABLE: answered 200 within 3 s, and what the bot posts to the
 * bot service after the notice is taken. A bot that tells the customer something on a notice
 * (no agent is free) and has it refused passed on its 200 alone, while the customer heard
 * nothing.
 */
function noticeCase(
  run: BotRun,
  name: 'AGENT_JOINED' | 'AGENT_UNAVAILABLE',
  spec: string[],
): ConformCase {
  return {
    name: `${name} answered 200 within 3 s`,
    spec,
    async run(ctx) {
      const since = run.harness.mark();
      await ctx.check('answered HTTP 200 within 3 s', run.sendEvent(name));
      if (!run.session.chat) return;
      await ctx.check('what the bot posts back is taken (spec 4.3, 7.2)', () =>
        judgePostsBack(run.harness, since, name),
      );
    },
  };
}

/**
 * A notice the bot dropped (its connection closed without a reply, or a 5xx) after it answered
 * CLIENT_MESSAGE 200: the notices carry no `message` (spec 2.5, 6.1: event, id, client_id,
 * chat_id), and a bot that reads the message of every event as a CLIENT_MESSAGE's crashes on
 * them, as an open-source Java bot written for the real platform does.
 */
function noMessageHint(name: string, record: ExchangeRecord | undefined, run: BotRun): string[] {
  const status = record?.response?.status ?? 0;
  const dropped = record?.failure?.reason === 'reset' || status >= 500;
  const answered = run.harness
    .sent('CLIENT_MESSAGE', run.session.since)
    .some((r) => r.response?.status === 200);
  if (!dropped || !answered) return [];
  return [droppedNoticeHint(name)];
}

/** The customer's texts, each a CLIENT_MESSAGE the bot must answer 200 within 3 s. */
function clientMessageCase(run: BotRun): ConformCase {
  const { harness, texts, session } = run;
  return {
    name: `CLIENT_MESSAGE ${texts.map((t) => JSON.stringify(t)).join(', ')} answered 200 within 3 s`,
    spec: ['4.3', '6.1', '8'],
    async run(ctx) {
      const customerId = `svc-conform-${randomUUID().slice(0, 8)}`;
      session.since = harness.mark();
      // spec 3: once the chat has left the bot, the platform asks it nothing more about it
      const left: Array<{ chatId: number; to: string; reason: string }> = [];
      const off = harness.core.on((event) => {
        if (event.type === 'bot-handover' && event.to !== 'bot') left.push(event);
      });
      let previous = '';
      try {
        for (const [index, text] of texts.entries()) {
          const name = `${JSON.stringify(text)}: HTTP 200 within 3 s, expected on the first attempt`;
          const handover = left.find((event) => event.chatId === session.chat?.id);
          if (handover) {
            ctx.skip(name, notSentReason(previous, handover));
            continue;
          }
          previous = text;
          const more = index < texts.length - 1;
          await sendText(run, ctx, { customerId, text, index, name, left, more });
        }
      } finally {
        off();
      }
    },
  };
}

/**
 * Why a text was not sent: the chat left the bot after an earlier text, so the platform does
 * not ask the bot about it (spec 3); without this the text's check waited 60 s for a
 * CLIENT_MESSAGE that never came.
 */
function notSentReason(previous: string, handover: { to: string; reason: string }): string {
  const where =
    handover.to === 'agent' ? 'handed the chat to an agent' : 'queued the chat for an agent';
  const why = handover.reason.startsWith('INVITE_AGENT')
    ? `the bot's INVITE_AGENT after ${JSON.stringify(previous)}`
    : `${JSON.stringify(previous)}: ${handover.reason}`;
  return `not sent: the platform ${where} after ${why}, and asks the bot nothing more about that chat (spec 3, 8)`;
}

/** One customer text: posted on the channel, its CLIENT_MESSAGE series judged. */
async function sendText(
  run: BotRun,
  ctx: CaseContext,
  item: {
    customerId: string;
    text: string;
    index: number;
    name: string;
    left: ReadonlyArray<{ chatId: number }>;
    /** another text follows this one */
    more: boolean;
  },
): Promise<void> {
  const { harness, clock, session } = run;
  const { customerId, text, index, name, left, more } = item;
  const since = harness.mark();
  const posted = await postJson({
    url: harness.channelUrl,
    body: JSON.stringify({
      sender: { id: customerId, name: 'Conformance Customer' },
      message: { type: 'text', text },
    }),
    timeoutMs: EMBEDDED_MS,
    clock,
  });
  if (!posted.ok || posted.status !== 200)
    throw new Error(
      `the embedded channel did not take the customer message: ${posted.ok ? `HTTP ${posted.status}` : posted.message}`,
    );
  if (index === 0) {
    const chat = [...harness.core.state.chats.values()].find(
      (c) => harness.core.state.customers.get(c.customerKey)?.senderId === customerId,
    );
    session.chat = chat;
    session.customer = chat ? harness.core.state.customers.get(chat.customerKey) : undefined;
  }
  let series: ExchangeRecord[] = [];
  await ctx.check(name, async () => {
    series = await waitForSeries(harness, since);
    return judgeSeries(series, clock);
  });
  // a series without a 200 ends in the hand-over (spec 3, 8), announced just after its last
  // attempt: wait for it (protocol time, woken by the event), so the next text sees it
  const chatId = session.chat?.id;
  const handedOver = (): true | undefined =>
    left.some((event) => event.chatId === chatId) ? true : undefined;
  if (chatId === undefined || series.length === 0) return;
  if (!series.some((r) => r.response?.status === 200))
    await harness.waitFor(handedOver, ATTEMPT_MS);
  // a customer reads the answer before typing again: the next text waits for the bot's answer
  // to this one (up to --answer-within), so a hand-over it asks for (INVITE_AGENT, spec 3) is
  // taken before the next text, not raced by it (a text sent on the 200 went to the bot still)
  else if (more)
    await harness.waitFor(
      () => handedOver() ?? (harness.received(since).length > 0 ? true : undefined),
      run.answerWithin,
    );
}

/** The bot's answer to the CLIENT_MESSAGE: it arrives, is valid, and the bot service takes it. */
function answerCase(run: BotRun): ConformCase {
  const { harness, session, answerWithin, allowed, noChat } = run;
  return {
    name: 'the answer to CLIENT_MESSAGE: BOT_MESSAGE or INVITE_AGENT',
    spec: ['2.5', '3', '4.3', '6.1'],
    async run(ctx) {
      const { chat, customer } = session;
      if (!chat || !customer) return ctx.skip('arrives', noChat.skip);
      let answers: ExchangeRecord[] = [];
      const arrived = await ctx.check(
        `arrives at the bot service within ${answerWithin} ms`,
        async () => {
          answers =
            (await harness.waitFor(() => {
              const found = harness.received(session.since);
              return found.length > 0 ? found : undefined;
            }, answerWithin)) ?? [];
          return answers.length > 0
            ? []
            : [
                `no BOT_MESSAGE or INVITE_AGENT at ${harness.info.webhookUrl} within ${answerWithin} ms of the CLIENT_MESSAGE (spec 3, 6.1; the bound is an assumption, --answer-within)`,
                ...[
                  inlineAnswer(harness, session.since),
                  harness.silence(),
                  unknownTextHint(run),
                ].filter((line) => line !== undefined),
              ];
        },
      );
      if (!arrived) return ctx.skip('is valid', 'nothing arrived');
      await ctx.check('is a valid BOT_MESSAGE or INVITE_AGENT for that chat', () =>
        judgedEvents(answers, chat, customer, allowed),
      );
      await ctx.check('is accepted on the bot service path (spec 4.3, 5.2)', () =>
        refusedAnswers(answers),
      );
    },
  };
}

/**
 * Why the bot service refused each of these answers (a wrong provider id or token, spec 4.3,
 * 5.2): a refused answer never reaches the customer. Empty when every one was taken.
 * @example refusedAnswers(harness.received(since)) // ['the bot service answered HTTP 404 ...']
 */
export function refusedAnswers(answers: readonly ExchangeRecord[]): string[] {
  return answers.flatMap((record) => {
    const status = record.response?.status ?? 0;
    if (status === 200) return [];
    const reply = parse(record.response?.body)?.error as Json | undefined;
    const why = reply ? `${String(reply.code)}: ${String(reply.message)}` : '';
    return [`the bot service answered HTTP ${status} ${why} (spec 4.3, 7.2)`];
  });
}

/**
 * A bot written as a chat webhook answers in the body of its 200, which the platform never
 * reads (spec 4.3): the most common reason nothing arrives, said as the simulator says it.
 */
function inlineAnswer(harness: BotHarness, since: number): string | undefined {
  for (const record of harness.sent('CLIENT_MESSAGE', since)) {
    const answer = inlineAnswerOf(record.response?.body ?? '');
    if (answer !== undefined)
      return `the bot answered CLIENT_MESSAGE with ${answer} in its HTTP reply: the platform reads only the 200 (spec 4.3); post the answer as a BOT_MESSAGE to ${harness.info.webhookUrl} (spec 6.1)`;
  }
  return undefined;
}

/**
 * A bot that answers only texts it knows (commands, intents; a public Python framework's
 * example answers "hello", "hi" or "hey" and nothing else) takes the suite's greeting with a
 * 200 and stays silent: said when no --text was given and every CLIENT_MESSAGE got its 200.
 */
function unknownTextHint(run: BotRun): string | undefined {
  if (run.options.texts !== undefined && run.options.texts.length > 0) return undefined;
  const sent = run.harness.sent('CLIENT_MESSAGE', run.session.since);
  if (sent.length === 0 || sent.some((record) => record.response?.status !== 200)) return undefined;
  return `the bot took ${JSON.stringify(DEFAULT_TEXT)} (HTTP 200) and answered nothing: a bot that answers only texts it knows (commands, intents) needs one of them, --text "<a text it answers>" (repeatable) or --script <file>`;
}

/** A CLIENT_MESSAGE without client_id, chat_id and message: a 4xx (a warning if not). */
function malformedCase(run: BotRun): ConformCase {
  const { options, clock } = run;
  return {
    name: 'a malformed event (missing client_id, chat_id, message)',
    spec: ['2.5', '7.2'],
    async run(ctx) {
      await ctx.check('is refused with a 4xx (spec 7.2)', async () => {
        const url = `${options.url.replace(/\/+$/, '')}/${encodeURIComponent(options.token)}`;
        const out = await postJson({
          url,
          body: JSON.stringify({ event: 'CLIENT_MESSAGE', id: `conform-${randomUUID()}` }),
          timeoutMs: ATTEMPT_MS,
          clock,
        });
        const lax = `a strict provider refuses it with 400, as the platform refuses a malformed event (spec 7.2 lists the platform's answers), but the spec does not demand it of a provider`;
        // a handler that throws on the missing fields: a 500 from most servers, a closed
        // connection from some (Java's built-in HTTP server); the same lax provider either way
        if (!out.ok && out.reason === 'reset')
          return {
            warn: `closed the connection without an HTTP reply to a CLIENT_MESSAGE without client_id, chat_id and message, as a server does when its handler throws; ${lax}`,
          };
        if (!out.ok) return [`no answer: ${out.message} (spec 4.3)`];
        if (out.status >= 400 && out.status < 500) return [];
        return {
          warn: `answered HTTP ${out.status} to a CLIENT_MESSAGE without client_id, chat_id and message; ${lax}`,
        };
      });
    },
  };
}

/** The token conform sends where the bot's own belongs; never the --token itself. */
export const WRONG_TOKEN = 'svc-conform-wrong-token';

/**
 * An AGENT_JOINED to `<url>/<a wrong token>`: the token in the path is the provider's only
 * check that the platform is the one it was given to (spec 4.3, 5.2), so the event must be
 * refused. AGENT_JOINED asks the bot for no answer, and the chat and client ids are this run's
 * last, never opened: a bot that takes it does nothing that a later check could see. The spec
 * names no status for the provider's refusal (7.2 lists the platform's, 401 invalid_client for
 * a token): any 4xx passes.
 */
function wrongTokenCase(run: BotRun): ConformCase {
  const { options, clock, harness } = run;
  return {
    name: 'an event sent with a wrong token',
    spec: ['4.3', '5.2', '7.2'],
    async run(ctx) {
      await ctx.check('is refused with a 4xx (spec 5.2)', async () => {
        const wrong = options.token === WRONG_TOKEN ? `${WRONG_TOKEN}-2` : WRONG_TOKEN;
        const url = `${options.url.replace(/\/+$/, '')}/${wrong}`;
        const block = harness.info.firstChatId;
        const out = await postJson({
          url,
          body: JSON.stringify({
            event: 'AGENT_JOINED',
            id: `conform-${randomUUID()}`,
            client_id: String(block + 998),
            chat_id: String(block + 498),
          }),
          timeoutMs: ATTEMPT_MS,
          clock,
        });
        const refuse = `check the last path segment against the token you gave the platform (--token) and refuse any other, as the platform answers a wrong token 401 invalid_client (spec 4.3, 5.2, 7.2; the spec names no status for the provider's refusal, so any 4xx passes)`;
        // a bot that exited (a crash on the malformed event before) refuses nothing: say so
        if (!out.ok && (await botStopped(url, out)))
          return [botStoppedReason('AGENT_JOINED', url, out.message)];
        if (!out.ok)
          return [`no answer to AGENT_JOINED at ${tokenPathOf(url)}: ${out.message}; ${refuse}`];
        if (out.status >= 400 && out.status < 500) return [];
        const body = out.body ? ` ${quote(out.body, 80)}` : '';
        return [
          out.status >= 200 && out.status < 300
            ? `the bot took an event sent with a wrong token: AGENT_JOINED to ${tokenPathOf(url)} with "${wrong}" as <token> answered HTTP ${out.status}${body}; ${refuse}`
            : `AGENT_JOINED to ${tokenPathOf(url)} with "${wrong}" as <token> answered HTTP ${out.status}${body}, not a refusal; ${refuse}`,
        ];
      });
    },
  };
}

/**
 * --bot-events docs: the public Bot API's two events beyond spec 6.1. A bot
 * written to the spec may refuse them: warnings, never failures.
 */
function docsCases(run: BotRun): ConformCase[] {
  const { harness, session, allowed, noChat } = run;
  return [
    {
      name: 'CHAT_CLOSED (public docs) answered 200 within 3 s',
      spec: ['4.3', '6.1'],
      async run(ctx) {
        await ctx.check('answered HTTP 200 within 3 s', async () => {
          const reasons = await run.sendEvent('CHAT_CLOSED')();
          if (!Array.isArray(reasons) || reasons.length === 0) return reasons;
          return {
            warn: `${reasons.join('; ')}; the public Bot API sends CHAT_CLOSED when the chat closes (not in spec 6.1, so not a failure)`,
          };
        });
      },
    },
    {
      name: 'CLIENT_INFO (public docs), when the bot sends one',
      spec: ['6.1'],
      async run(ctx) {
        const { chat, customer } = session;
        if (!chat || !customer) return ctx.skip('is valid', noChat.skip);
        const infos = harness
          .received(session.since)
          .filter((record) => parse(record.request.body)?.event === 'CLIENT_INFO');
        if (infos.length === 0)
          return ctx.skip(
            'is valid',
            'the bot sent no CLIENT_INFO (a bot sends it with contact data the customer left; --text can leave some)',
          );
        await ctx.check(`is valid (${infos.length} sent)`, () =>
          judgedEvents(infos, chat, customer, allowed),
        );
      },
    },
  ];
}
