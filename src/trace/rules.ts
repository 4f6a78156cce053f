import type { ExchangeRecord } from '../journal/record.js';
import { linkConversation } from './links.js';
import { spanOf, type TraceSpan } from './span.js';
import type { TracedConversation } from './read.js';

/*
 * Rules that hold across interfaces for one finished conversation: each reads the linked
 * spans of a chat (src/trace/links.ts) and names the two exchanges (journal seqs) a violation
 * relates. They check the platform's side as recorded; an embedded role or a real peer only
 * appears through what the platform sent it and was answered.
 */

/** One broken rule in one conversation. */
export interface Violation {
  /** the invariant's name (`--no-invariant <name>` switches it off) */
  rule: InvariantName;
  /** the contract section it comes from (`svc-cli explain <spec>`) */
  spec: string;
  run: string;
  /** the conversation; absent for a rule on the run (an offline message belongs to no chat) */
  chat?: number;
  /** what went wrong, naming both exchanges */
  message: string;
  /** the journal seqs of the exchanges it relates: the earlier one first */
  exchanges: [number] | [number, number];
}

export interface InvariantOptions {
  /** invariants not checked, by name */
  disabled?: ReadonlySet<string> | readonly string[];
  /**
   * the bot budget (spec 8: 2 attempts 3 s apart, 3 s each: the customer goes to an agent at
   * 6 s); `platform --bot-attempts` changes it
   */
  botBudgetMs?: number;
  /** protocol ms a timing may be off by (real time: the replay's tolerance; virtual: 0) */
  toleranceMs?: number;
}

/** What a rule reads: a conversation's linked spans, the options, how it names an exchange. */
interface CheckInput {
  spans: readonly TraceSpan[];
  options: Required<InvariantOptions>;
  /** `#5 agent.text attempt 2 at +3.000 s`: its offset from the conversation's first exchange */
  describe: (s: TraceSpan) => string;
  /** `+6.000 s`: a protocol time as an offset from the conversation's first exchange */
  offset: (ms: number) => string;
}

type Check = (input: CheckInput) => Omit<Violation, 'run' | 'chat' | 'rule' | 'spec'>[];

interface Invariant {
  name: InvariantName;
  spec: string;
  /** one line for docs and --help */
  summary: string;
  check: Check;
}

export const INVARIANT_NAMES = [
  'transcript',
  'bot-after-close',
  'hook-after-finish',
  'agent-joined',
  'redelivery-id',
  'handover-budget',
  'offline-message',
  'callback-order',
] as const;
export type InvariantName = (typeof INVARIANT_NAMES)[number];

/** spec 8: the bot's 2 attempts, 3 s apart, each waiting 3 s: the hand-over comes at 6 s. */
export const BOT_BUDGET_MS = 6000;

/** spec 2.1, 8: customer text longer than this is delivered (and logged) cut. */
const TEXT_CUT = 1000;

/**
 * How the rules on a conversation name an exchange: its time as the timeline shows it, an
 * offset from the conversation's first exchange (a platform's journal counts protocol time
 * from its start, which a chat opened an hour in would show as 3600 s).
 */
const offsetFrom =
  (start: number) =>
  (ms: number): string =>
    `+${((ms - start) / 1000).toFixed(3)} s`;

/** `#5 agent.text attempt 2`: an exchange by its number, name and attempt. */
const nameOf = (s: TraceSpan): string =>
  `#${s.seq} ${s.name}${s.attempt !== undefined && s.attempt > 1 ? ` attempt ${s.attempt}` : ''}`;

const describeFrom =
  (start: number) =>
  (s: TraceSpan): string =>
    `${nameOf(s)} at ${offsetFrom(start)(s.startMs)}`;

const isCustomerText = (s: TraceSpan): boolean =>
  s.iface === 'channel' &&
  s.direction === 'in' &&
  s.kind === 'channel.customer.text' &&
  s.status === 200;

/** Sent by the platform to the integrator on an agent's behalf (not a bot's: spec 2.6 logs no bot line). */
function agentMessages(spans: readonly TraceSpan[]): TraceSpan[] {
  const bySeq = new Map(spans.map((s) => [s.seq, s] as const));
  const seen = new Set<string>();
  const firsts: TraceSpan[] = [];
  for (const s of spans) {
    if (s.iface !== 'channel' || s.direction !== 'out' || s.kind !== 'channel.agent.text') continue;
    const cause = s.cause === undefined ? undefined : bySeq.get(s.cause);
    if (cause?.iface === 'bot') continue;
    // a redelivery belongs to its first attempt's message (its id is redelivery-id's business)
    if ((s.attempt ?? 1) > 1) continue;
    const key = s.messageId ?? `#${s.seq}`;
    if (seen.has(key)) continue;
    seen.add(key);
    firsts.push(s);
  }
  return firsts;
}

const cut = (text: string): string => [...text].slice(0, TEXT_CUT).join('');

/**
 * spec 2.6 (chat with its log items), 8: the chat_finished transcript holds each message the
 * chat exchanged, in order, a redelivered one once, customer text as cut at 1000.
 */
const transcript: Check = ({ spans, describe }) => {
  const finished = spans.find(
    (s) => s.iface === 'hook' && s.event === 'chat_finished' && s.transcript,
  );
  if (!finished?.transcript) return [];
  const exchanged = [
    ...spans.filter(isCustomerText).map((s) => ({
      span: s,
      type: 'visitor',
      text: s.text === undefined ? undefined : cut(s.text),
    })),
    ...agentMessages(spans).map((s) => ({ span: s, type: 'agent', text: s.text })),
  ]
    .filter((m) => m.text !== undefined && m.span.startMs <= finished.startMs)
    .sort((a, b) => spans.indexOf(a.span) - spans.indexOf(b.span));
  const lines = finished.transcript;
  const problems: ReturnType<Check> = [];
  let at = 0;
  for (const m of exchanged) {
    const found = lines.findIndex((l, i) => i >= at && l.type === m.type && l.text === m.text);
    if (found < 0) {
      const anywhere = lines.some((l) => l.type === m.type && l.text === m.text);
      problems.push({
        message: `chat_finished ${describe(finished)} ${anywhere ? 'has out of order' : 'misses'} the ${m.type} message ${describe(m.span)} "${m.text ?? ''}"`,
        exchanges: [m.span.seq, finished.seq],
      });
      continue;
    }
    at = found + 1;
  }
  // a message logged twice (a redelivery counted as a new line)
  for (const m of exchanged) {
    const sent = exchanged.filter((o) => o.type === m.type && o.text === m.text).length;
    const logged = lines.filter((l) => l.type === m.type && l.text === m.text).length;
    if (logged > sent && exchanged.find((o) => o.type === m.type && o.text === m.text) === m)
      problems.push({
        message: `chat_finished ${describe(finished)} logs the ${m.type} message ${describe(m.span)} "${m.text ?? ''}" ${logged} times; it was sent ${sent === 1 ? 'once' : `${sent} times`}`,
        exchanges: [m.span.seq, finished.seq],
      });
  }
  return problems;
};

/**
 * The spans that started after `mark`: later in protocol time, or in the same ms and after it
 * in the trace's order (links.ts).
 */
const after = (spans: readonly TraceSpan[], mark: TraceSpan): TraceSpan[] =>
  spans.slice(spans.indexOf(mark) + 1).filter((s) => s.startMs >= mark.startMs);

/** spec 2.5 (CHAT_CLOSED), 4.3: nothing more goes to the bot about a chat it was told closed. */
const botAfterClose: Check = ({ spans, describe }) => {
  const closed = spans.find(
    (s) => s.iface === 'bot' && s.direction === 'out' && s.event === 'CHAT_CLOSED',
  );
  if (!closed) return [];
  return after(spans, closed)
    .filter((s) => s.iface === 'bot' && s.direction === 'out' && s.event !== 'CHAT_CLOSED')
    .map((s) => ({
      message: `${describe(s)} went to the bot after ${describe(closed)}`,
      exchanges: [closed.seq, s.seq],
    }));
};

/**
 * Hooks about something other than the chat's life: a call (spec 3: "operators get a call";
 * a visitor may ask to be called back after the chat closed) and an offline message (spec
 * 6.2: no chat_id). They may follow chat_finished.
 */
const NOT_ABOUT_THE_CHAT = new Set(['call_event', 'offline_message', 'offline_messages']);

/** spec 3, 6.2: chat_finished is the chat's last hook; nothing is sent about it afterwards. */
const hookAfterFinish: Check = ({ spans, describe }) => {
  const finished = spans.find((s) => s.iface === 'hook' && s.event === 'chat_finished');
  if (!finished) return [];
  return after(spans, finished)
    .filter(
      (s) =>
        s.iface === 'hook' &&
        s.event !== 'chat_finished' &&
        (s.event === undefined || !NOT_ABOUT_THE_CHAT.has(s.event)),
    )
    .map((s) => ({
      message: `${describe(s)} went to the hook receiver after ${describe(finished)}`,
      exchanges: [finished.seq, s.seq],
    }));
};

/** A CLIENT_MESSAGE series that ended without a regular answer (spec 8: the hand-over). */
function failedBotSeries(spans: readonly TraceSpan[]): TraceSpan[][] {
  const series = new Map<string, TraceSpan[]>();
  for (const s of spans) {
    if (s.iface !== 'bot' || s.direction !== 'out' || s.event !== 'CLIENT_MESSAGE') continue;
    const key = s.messageId ?? `#${s.seq}`;
    series.set(key, [...(series.get(key) ?? []), s]);
  }
  return [...series.values()].filter((attempts) =>
    attempts.every((a) => a.accepted === false || a.failure !== undefined),
  );
}

/** spec 3, 2.5: AGENT_JOINED follows the bot's INVITE_AGENT or a hand-over. */
const agentJoined: Check = ({ spans, describe }) => {
  const problems: ReturnType<Check> = [];
  const handovers = failedBotSeries(spans).map((attempts) => attempts.at(-1) as TraceSpan);
  for (const joined of spans) {
    if (joined.iface !== 'bot' || joined.direction !== 'out' || joined.event !== 'AGENT_JOINED')
      continue;
    if ((joined.attempt ?? 1) > 1) continue;
    const before = spans.slice(0, spans.indexOf(joined));
    const invited = before.some(
      (s) => s.iface === 'bot' && s.direction === 'in' && s.event === 'INVITE_AGENT',
    );
    if (invited || handovers.some((h) => before.includes(h))) continue;
    const last =
      [...before].reverse().find((s) => s.iface === 'bot' && s.event === 'CLIENT_MESSAGE') ??
      before.at(-1);
    problems.push({
      message: `${describe(joined)} without an INVITE_AGENT or a hand-over before it${last ? ` (the exchange before: ${describe(last)})` : ''}`,
      exchanges: last ? [last.seq, joined.seq] : [joined.seq],
    });
  }
  return problems;
};

/** spec 2.2, 8: a redelivery repeats the message as it was, its id included. */
const redeliveryId: Check = ({ spans, describe }) => {
  const bySeq = new Map(spans.map((s) => [s.seq, s] as const));
  const problems: ReturnType<Check> = [];
  for (const retry of spans) {
    if ((retry.attempt ?? 1) < 2 || retry.cause === undefined) continue;
    const previous = bySeq.get(retry.cause);
    if (!previous || previous.iface !== retry.iface || previous.messageId === retry.messageId)
      continue;
    problems.push({
      message: `${describe(retry)} carries id ${retry.messageId ?? '(none)'}; the attempt before, ${describe(previous)}, carried ${previous.messageId ?? '(none)'}`,
      exchanges: [previous.seq, retry.seq],
    });
  }
  return problems;
};

/** spec 8: without a regular answer the customer goes to an agent within the bot budget. */
const handoverBudget: Check = ({ spans, options, describe, offset }) => {
  const problems: ReturnType<Check> = [];
  for (const attempts of failedBotSeries(spans)) {
    const first = attempts[0] as TraceSpan;
    const last = attempts.at(-1) as TraceSpan;
    const took = last.endMs - first.startMs;
    if (took <= options.botBudgetMs + options.toleranceMs) continue;
    problems.push({
      // the time the bot was asked up to is the last attempt's end, not its start
      message: `the bot was asked for ${(took / 1000).toFixed(3)} s, from ${describe(first)} to ${offset(last.endMs)}, the end of ${nameOf(last)} (sent at ${offset(last.startMs)}); the hand-over is due within ${(options.botBudgetMs / 1000).toFixed(3)} s`,
      exchanges: [first.seq, last.seq],
    });
  }
  return problems;
};

/**
 * spec 6.4: each page callback runs when the event it reflects happens (svc_onAccept when the
 * agent presses Reply, svc_onCallEnd when the call ends), so the callbacks the widget reports
 * come in the order of the pushes they reflect: the pushes' stream ids only grow.
 */
const callbackOrder: Check = ({ spans, describe }) => {
  const problems: ReturnType<Check> = [];
  const bySeq = new Map(spans.map((s) => [s.seq, s] as const));
  // the push a callback reflects, by its exchange, when the journal has it (links.ts)
  const pushOf = (s: TraceSpan): string => {
    const cause = s.cause === undefined ? undefined : bySeq.get(s.cause);
    return cause?.push ? `, #${cause.seq}` : '';
  };
  let latest: TraceSpan | undefined;
  for (const s of spans) {
    if (!s.callback || s.status !== 200) continue;
    if (latest?.callback && s.callback.eventId < latest.callback.eventId) {
      problems.push({
        message: `${describe(s)} reflects pushed event ${s.callback.eventId} (${s.callback.event}${pushOf(s)}) yet came after ${describe(latest)}, which reflects the later push ${latest.callback.eventId} (${latest.callback.event}${pushOf(latest)})`,
        exchanges: [latest.seq, s.seq],
      });
      continue;
    }
    latest = s;
  }
  return problems;
};

/** Every invariant, in the order a report lists them. */
export const INVARIANTS: readonly Invariant[] = [
  {
    name: 'transcript',
    spec: '2.6',
    summary:
      'the chat_finished transcript holds each message exchanged, in order, a redelivered one once, customer text cut at 1000',
    check: transcript,
  },
  {
    name: 'bot-after-close',
    spec: '2.5',
    summary: 'nothing is sent to the bot about a chat after CHAT_CLOSED',
    check: botAfterClose,
  },
  {
    name: 'hook-after-finish',
    spec: '6.2',
    summary:
      'no hook is sent about a chat after chat_finished (call_event and offline_message, about a call or the offline form, may follow it)',
    check: hookAfterFinish,
  },
  {
    name: 'agent-joined',
    spec: '3',
    summary: "AGENT_JOINED only after the bot's INVITE_AGENT or a hand-over",
    check: agentJoined,
  },
  {
    name: 'redelivery-id',
    spec: '8',
    summary: 'a redelivered message keeps its id',
    check: redeliveryId,
  },
  {
    name: 'handover-budget',
    spec: '8',
    summary:
      'without a regular answer from the bot, the hand-over comes within the bot budget (6 s)',
    check: handoverBudget,
  },
  {
    name: 'callback-order',
    spec: '6.4',
    summary:
      "the page script's callbacks follow the order of the pushed events they reflect (the widget reports each with the event's stream id)",
    check: callbackOrder,
  },
];

/**
 * A rule on a whole run rather than one chat: it reads the run's records in journal order
 * (some belong to no chat). Checked where the run's every record is at hand (replay, conform
 * platform), not by `trace` and `report`, which keep only the chats of a recording.
 */
interface RunInvariant {
  name: InvariantName;
  spec: string;
  summary: string;
  check: (
    records: readonly ExchangeRecord[],
  ) => Omit<Violation, 'run' | 'chat' | 'rule' | 'spec'>[];
}

/**
 * What an exchange says of agent availability (spec 3: the status body is 1 while agents are
 * online): a control request setting it, or a status read answering it.
 */
function availabilityOf(record: ExchangeRecord): boolean | undefined {
  const status = record.response?.status;
  if (status === undefined || status < 200 || status >= 300) return undefined;
  if (record.iface === 'control' && /\/_sim\/agents(\?|$)/.test(record.request.url)) {
    try {
      const online = (JSON.parse(record.request.body ?? '{}') as { online?: unknown }).online;
      return typeof online === 'boolean' ? online : undefined;
    } catch {
      return undefined;
    }
  }
  if (record.kind === 'channel.status' && record.direction === 'in') {
    const body = record.response?.body?.trim();
    return body === '1' ? true : body === '0' ? false : undefined;
  }
  return undefined;
}

const describeRecord = (r: ExchangeRecord): string => {
  const span = spanOf(r);
  return `#${r.seq} ${span.name} at ${(span.startMs / 1000).toFixed(3)} s`;
};

/**
 * spec 3 (offline form sent: hook offline_message; status 1: agents online), 6.2: the offline
 * form, and so its hook, comes only while no agent is online. Judged from what the run shows of
 * availability: the last control request setting it, or status read, before the hook.
 */
const offlineMessage: RunInvariant['check'] = (records) => {
  const problems: ReturnType<RunInvariant['check']> = [];
  let known: { online: boolean; record: ExchangeRecord } | undefined;
  for (const record of records) {
    const online = availabilityOf(record);
    if (online !== undefined) known = { online, record };
    if (record.iface !== 'hook' || record.direction !== 'out') continue;
    if (record.kind !== 'hook.offline_message') continue;
    if (!known?.online) continue;
    problems.push({
      message: `${describeRecord(record)} (an offline form) went out while agents were online, as ${describeRecord(known.record)} showed`,
      exchanges: [known.record.seq, record.seq],
    });
  }
  return problems;
};

/** The rules on a whole run. */
const RUN_INVARIANTS: readonly RunInvariant[] = [
  {
    name: 'offline-message',
    spec: '3',
    summary:
      'offline_message only while no agent is online (the last availability the run showed: a control request or a status read)',
    check: offlineMessage,
  },
];

/** Every invariant by name, section and summary, the rules on a chat first (docs, reference). */
export const ALL_INVARIANTS: readonly Pick<Invariant, 'name' | 'spec' | 'summary'>[] = [
  ...INVARIANTS,
  ...RUN_INVARIANTS,
];

/**
 * The violations of the rules on a whole run, run by run (records in journal order).
 * @example checkRuns(platform.core.journal.entries(), { disabled: ['offline-message'] })
 */
export function checkRuns(
  records: readonly ExchangeRecord[],
  options: Pick<InvariantOptions, 'disabled'> = {},
): Violation[] {
  const disabled = new Set(options.disabled ?? []);
  const runs = new Map<string, ExchangeRecord[]>();
  for (const record of records) {
    const run = record.run ?? '';
    let list = runs.get(run);
    if (!list) runs.set(run, (list = []));
    list.push(record);
  }
  const violations: Violation[] = [];
  for (const [run, list] of runs) {
    list.sort((a, b) => a.seq - b.seq);
    for (const invariant of RUN_INVARIANTS) {
      if (disabled.has(invariant.name)) continue;
      for (const found of invariant.check(list))
        violations.push({ rule: invariant.name, spec: invariant.spec, run, ...found });
    }
  }
  return violations;
}

/**
 * A violation as one line: the rule, its contract section, what went wrong, the two exchanges
 * and the flag that switches the rule off.
 * @example violationLine(v) // 'hook-after-finish (spec 6.2): #6 ... [exchanges #4 and #6; ...]'
 */
export function violationLine(v: Violation): string {
  return `${v.rule} (spec ${v.spec}): ${v.message} [exchanges ${v.exchanges.map((n) => `#${n}`).join(' and ')}; --no-invariant ${v.rule} switches it off]`;
}

/**
 * The violations of one conversation (linked spans of one chat).
 * @example checkConversation(conversation, { disabled: ['handover-budget'] })
 */
export function checkConversation(
  conversation: Pick<TracedConversation, 'run' | 'chat' | 'spans'>,
  options: InvariantOptions = {},
): Violation[] {
  const disabled = new Set(options.disabled ?? []);
  const settled: Required<InvariantOptions> = {
    disabled,
    botBudgetMs: options.botBudgetMs ?? BOT_BUDGET_MS,
    toleranceMs: options.toleranceMs ?? 0,
  };
  // the timeline's origin: the linked spans come in time order (links.ts)
  const origin = conversation.spans[0]?.startMs ?? 0;
  const describe = describeFrom(origin);
  const offset = offsetFrom(origin);
  const violations: Violation[] = [];
  for (const invariant of INVARIANTS) {
    if (disabled.has(invariant.name)) continue;
    for (const found of invariant.check({
      spans: conversation.spans,
      options: settled,
      describe,
      offset,
    }))
      violations.push({
        rule: invariant.name,
        spec: invariant.spec,
        run: conversation.run,
        chat: conversation.chat,
        ...found,
      });
  }
  return violations;
}

/**
 * Puts journal records in their chats a record at a time, as `conversationsOf` does: the
 * span of each, its chat recorded, in the body, or its customer's; undefined for a record of
 * no chat. The web console follows a live journal with one.
 * @example const chatOf = createChatSorter(); const span = chatOf(record);
 */
export function createChatSorter(): (record: ExchangeRecord) => TraceSpan | undefined {
  const chatOfCustomer = new Map<string, number>();
  return (record) => {
    const span = spanOf(record);
    if (span.chat === undefined && span.customer !== undefined) {
      const known = chatOfCustomer.get(`${span.run}\u0000${span.customer}`);
      if (known !== undefined) span.chat = known;
    }
    if (span.chat === undefined) return undefined;
    if (span.customer !== undefined)
      chatOfCustomer.set(`${span.run}\u0000${span.customer}`, span.chat);
    return span;
  };
}

/**
 * The conversations in a set of journal records (one run, or a few), chat by chat, linked;
 * records without a chat (recorded, in the body, or their customer's) are left out.
 * @example for (const c of conversationsOf(records)) checkConversation(c);
 */
export function conversationsOf(
  records: readonly ExchangeRecord[],
): Array<Pick<TracedConversation, 'run' | 'chat' | 'spans'>> {
  const chats = new Map<string, { run: string; chat: number; spans: TraceSpan[] }>();
  const chatOf = createChatSorter();
  for (const record of records) {
    const span = chatOf(record);
    if (span?.chat === undefined) continue;
    const key = `${span.run}\u0000${span.chat}`;
    let chat = chats.get(key);
    if (!chat) chats.set(key, (chat = { run: span.run, chat: span.chat, spans: [] }));
    chat.spans.push(span);
  }
  return [...chats.values()].map((c) => ({ ...c, spans: linkConversation(c.spans) }));
}

/**
 * The violations in a set of journal records (one run: a replayed conversation's platform
 * journal), chat by chat, then the rules on the whole run.
 * @example checkRecords(platform.core.journal.entries())
 */
export function checkRecords(
  records: readonly ExchangeRecord[],
  options: InvariantOptions = {},
): Violation[] {
  return [
    ...conversationsOf(records).flatMap((c) => checkConversation(c, options)),
    ...checkRuns(records, options),
  ];
}
