import type { ExchangeRecord } from '../journal/record.js';
import {
  ALL_INVARIANTS,
  BOT_BUDGET_MS,
  type InvariantName,
  type InvariantOptions,
  type Violation,
} from './rules.js';

/*
 * The invariants from the other side: in `conform bot`, `hooks` and `integrator` svc-cli plays
 * the platform, so a rule that judges what the platform sent would judge svc-cli itself. Where
 * a rule has a side the peer owns, it is judged here on the suite's journal (the embedded
 * platform's, as it recorded the peer); every other rule is skipped by name, with the reason
 * (docs/trace.md).
 */

/** The conform suites in which svc-cli plays the platform. */
export type PeerSuite = 'bot' | 'hooks' | 'integrator';

/** A rule skipped in a suite, and why. */
export interface SkippedInvariant {
  name: InvariantName;
  why: string;
}

type PeerCheck = (
  records: readonly ExchangeRecord[],
  options: { budgetMs: number; toleranceMs: number },
) => Array<Omit<Violation, 'rule' | 'spec' | 'run'>>;

interface PeerRule {
  name: InvariantName;
  spec: string;
  check: PeerCheck;
}

interface BotBody {
  event?: unknown;
  id?: unknown;
  chat_id?: unknown;
}

function bodyOf(record: ExchangeRecord): BotBody {
  try {
    const body: unknown = JSON.parse(record.request.body ?? '{}');
    return body !== null && typeof body === 'object' ? body : {};
  } catch {
    return {};
  }
}

/** a chat or event id as a string (spec 2.5: a number or a string) */
const idText = (id: unknown): string | undefined =>
  typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;

const chatOf = (record: ExchangeRecord): string | undefined =>
  idText(bodyOf(record).chat_id) ?? idText(record.chat);

const eventOf = (record: ExchangeRecord): string | undefined => {
  const event = bodyOf(record).event;
  return typeof event === 'string' ? event : undefined;
};

const at = (ms: number): string => `${(ms / 1000).toFixed(3)} s`;

/**
 * When the platform sent an event: it journals what it sent stamped at the answer, so the
 * send is that moment less the exchange's duration.
 */
const sentAt = (record: ExchangeRecord): number => record.protocolMs - (record.durationMs ?? 0);

/** what the platform sent the bot (`out`), and what the bot posted to the bot service (`in`) */
const toBot = (r: ExchangeRecord): boolean => r.iface === 'bot' && r.direction === 'out';
const fromBot = (r: ExchangeRecord): boolean => r.iface === 'bot' && r.direction === 'in';

/**
 * spec 2.5 (CHAT_CLOSED), 4.3: once the bot has answered CHAT_CLOSED for a chat, it posts
 * nothing more about that chat. Judged by arrival on the platform's clock, past the run's
 * tolerance: an answer to an earlier event may still be on its way when the close is sent
 * (bot-sim's reply to AGENT_UNAVAILABLE is). The platform journals its CHAT_CLOSED stamped at
 * the answer, so journal order says nothing. A post that answers a CLIENT_MESSAGE sent before
 * the close and not yet answered then is such an answer, however late a busy machine brings
 * it (a fixed bot's reply came 366 ms after the close once): one post per such message is let
 * pass, so a goodbye on top of it is still caught.
 */
const botAfterClose: PeerCheck = (records, options) => {
  const problems: ReturnType<PeerCheck> = [];
  for (const closed of records) {
    if (!toBot(closed) || eventOf(closed) !== 'CHAT_CLOSED') continue;
    const chat = chatOf(closed);
    const answered = closed.protocolMs;
    let underWay = chat === undefined ? 0 : unansweredBefore(records, chat, sentAt(closed));
    for (const post of records) {
      if (!fromBot(post) || post.protocolMs <= answered + options.toleranceMs) continue;
      if (chat === undefined || chatOf(post) !== chat) continue;
      if (underWay > 0) {
        underWay--;
        continue;
      }
      problems.push({
        chat: Number(chat),
        message: `the bot posted #${post.seq} ${eventOf(post) ?? post.kind ?? 'an event'} at ${at(post.protocolMs)} about chat ${chat}, after it answered #${closed.seq} CHAT_CLOSED at ${at(answered)}`,
        exchanges: [closed.seq, post.seq].sort((x, y) => x - y) as [number, number],
      });
    }
  }
  return problems;
};

/**
 * How many of the CLIENT_MESSAGEs the platform sent about `chat` before `beforeMs` the bot had
 * not answered (a post about the chat) by then: answers that may still be on their way.
 */
function unansweredBefore(
  records: readonly ExchangeRecord[],
  chat: string,
  beforeMs: number,
): number {
  const asked = new Set<string>();
  let answers = 0;
  for (const r of records) {
    if (chatOf(r) !== chat) continue;
    if (toBot(r) && eventOf(r) === 'CLIENT_MESSAGE' && sentAt(r) < beforeMs)
      asked.add(idText(bodyOf(r).id) ?? `#${r.seq}`);
    else if (fromBot(r) && r.protocolMs < beforeMs) answers++;
  }
  return Math.max(0, asked.size - answers);
}

/**
 * spec 8: the customer goes to an agent within the bot budget (6 s: 2 attempts 3 s apart), so a
 * bot that hands over (INVITE_AGENT) does so within the budget of the CLIENT_MESSAGE it answers
 * (its first attempt).
 */
const handoverBudget: PeerCheck = (records, options) => {
  const problems: ReturnType<PeerCheck> = [];
  const firstAttempt = new Map<string, ExchangeRecord>();
  const lastAsked = new Map<string, ExchangeRecord>();
  for (const record of records) {
    if (toBot(record) && eventOf(record) === 'CLIENT_MESSAGE') {
      const id = idText(bodyOf(record).id) ?? `#${record.seq}`;
      const first = firstAttempt.get(id) ?? record;
      firstAttempt.set(id, first);
      const chat = chatOf(record);
      if (chat !== undefined) lastAsked.set(chat, first);
      continue;
    }
    if (!fromBot(record) || eventOf(record) !== 'INVITE_AGENT') continue;
    const chat = chatOf(record);
    const asked = chat === undefined ? undefined : lastAsked.get(chat);
    if (!asked) continue;
    const took = record.protocolMs - sentAt(asked);
    if (took <= options.budgetMs + options.toleranceMs) continue;
    problems.push({
      chat: Number(chat),
      message: `the bot handed over (#${record.seq} INVITE_AGENT at ${at(record.protocolMs)}) ${at(took)} after #${asked.seq} CLIENT_MESSAGE at ${at(sentAt(asked))}; the hand-over is due within ${at(options.budgetMs)}`,
      exchanges: [asked.seq, record.seq],
    });
  }
  return problems;
};

const PEER_RULES: Readonly<Record<PeerSuite, readonly PeerRule[]>> = {
  bot: [
    { name: 'bot-after-close', spec: '2.5', check: botAfterClose },
    { name: 'handover-budget', spec: '8', check: handoverBudget },
  ],
  hooks: [],
  integrator: [],
};

/** Why each rule with no side the peer owns is skipped in a suite (docs/trace.md says the same). */
const SKIPPED_WHY: Readonly<Record<PeerSuite, Partial<Record<InvariantName, string>>>> = {
  bot: {
    transcript: 'no hooks here: the transcript is what the platform (svc-cli) logs',
    'hook-after-finish': 'no hooks here: hooks are sent by the platform (svc-cli)',
    'agent-joined':
      "conform bot sends AGENT_JOINED as a scripted step (its cause): the rule judges the platform's sending, svc-cli's own script; conform platform --bot-listen-port judges a platform's",
    'redelivery-id':
      "redeliveries are the platform's (svc-cli's) attempts; conform platform judges a platform's",
    'offline-message':
      "no offline form here: the platform (svc-cli) sends offline_message; conform platform judges a simulator's",
    'callback-order': 'no page here (interface C is not part of the bot interface)',
  },
  hooks: {},
  integrator: {},
};

const ALL_SVC =
  'every rule judges what the platform (svc-cli here) sends; none judges the answers of ';

/**
 * The rules checked and skipped in a conform suite that plays the platform.
 * @example peerScope('bot').checked // ['bot-after-close', 'handover-budget']
 */
export function peerScope(
  suite: PeerSuite,
  disabled: ReadonlySet<string> = new Set(),
): { checked: InvariantName[]; skipped: SkippedInvariant[] } {
  const checked = PEER_RULES[suite].map((r) => r.name).filter((name) => !disabled.has(name));
  const peer = suite === 'hooks' ? 'a hook receiver' : 'an integrator endpoint';
  const skipped = ALL_INVARIANTS.filter(
    (i) => !PEER_RULES[suite].some((r) => r.name === i.name),
  ).map((i) => ({ name: i.name, why: SKIPPED_WHY[suite][i.name] ?? `${ALL_SVC}${peer}` }));
  return { checked, skipped };
}

/**
 * The violations of the peer's side of the rules in one conform suite's journal (records in
 * journal order; the run's tolerance and a profile's bot budget as in replay).
 * @example checkPeer('bot', harness.core.journal.entries(), { toleranceMs: 250 })
 */
export function checkPeer(
  suite: PeerSuite,
  records: readonly ExchangeRecord[],
  options: InvariantOptions = {},
): Violation[] {
  const disabled = new Set(options.disabled ?? []);
  const settled = {
    budgetMs: options.botBudgetMs ?? BOT_BUDGET_MS,
    toleranceMs: options.toleranceMs ?? 0,
  };
  const sorted = [...records].sort((a, b) => a.seq - b.seq);
  const violations: Violation[] = [];
  for (const rule of PEER_RULES[suite]) {
    if (disabled.has(rule.name)) continue;
    for (const found of rule.check(sorted, settled))
      violations.push({ rule: rule.name, spec: rule.spec, run: sorted[0]?.run ?? '', ...found });
  }
  return violations;
}
