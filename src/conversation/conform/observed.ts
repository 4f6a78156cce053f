import type { Clock } from '../../clock.js';
import { detectKind } from '../../contract/detect.js';
import type { PostOutcome } from '../../http/client.js';
import type { ExchangeRecord, Journal } from '../../journal/index.js';
import {
  ALL_INVARIANTS,
  checkConversation,
  checkRuns,
  conversationsOf,
  violationLine,
  type InvariantOptions,
  type Violation,
} from '../../trace/invariants.js';
import {
  checkPeer,
  peerScope,
  type PeerSuite,
  type SkippedInvariant,
} from '../../trace/peer-rules.js';
import type { ConformCaseResult, ConformSuiteName } from './case.js';
import { recordExchange } from '../../journal/index.js';

/*
 * What a conform run saw of a conversation, for the cross-interface invariants
 * (src/trace/invariants.ts). The suite's own roles journal what they served (`in`: the agent
 * messages on the embedded listener, the hooks on the embedded receiver) and the customer
 * messages conform sent are journaled as sent (`out`); the invariants read a conversation as
 * the platform would have recorded it, so each record is turned around before they are checked.
 */

/** The name of the case a broken invariant fails (it appears only then, as in replay). */
export const INVARIANTS_CASE = 'cross-interface invariants';

/**
 * Journals one POST conform made with its answer: a customer message to the channel URL, or
 * (`iface`) a request to an svc simulator's control API or widget channel, with its `kind`.
 * @example recordPost(journal, clock, { url, body, startedAt, outcome });
 */
export function recordPost(
  journal: Journal | undefined,
  clock: Clock,
  post: {
    url: string;
    body: unknown;
    startedAt: number;
    outcome: PostOutcome;
    iface?: 'channel' | 'control' | 'widget' | 'bot';
    kind?: string;
  },
): void {
  if (!journal) return;
  const { outcome } = post;
  const iface = post.iface ?? 'channel';
  const kind = iface === 'channel' ? detectKind(post.body).kind : post.kind;
  recordExchange(journal, {
    protocolMs: post.startedAt,
    iface,
    direction: 'out',
    ...(kind === undefined ? {} : { kind }),
    request: { method: 'POST', url: post.url, body: JSON.stringify(post.body) },
    ...(outcome.ok
      ? { response: { status: outcome.status, body: outcome.body } }
      : { failure: { reason: outcome.reason, message: outcome.message } }),
    durationMs: clock.now() - post.startedAt,
  });
}

/**
 * The customer a record is about: sender.id of a customer message, recipient.id of an agent's;
 * the visitor of a page's event on the widget channel (its customer's sender id there).
 */
function customerOf(record: ExchangeRecord): string | undefined {
  if (record.request.body === undefined) return undefined;
  if (record.iface !== 'channel' && record.iface !== 'widget') return undefined;
  try {
    const body = JSON.parse(record.request.body) as {
      sender?: { id?: unknown };
      recipient?: { id?: unknown };
      visitorId?: unknown;
    };
    const id = record.iface === 'widget' ? body.visitorId : (body.sender?.id ?? body.recipient?.id);
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** message.text of an agent message the embedded listener was sent, else undefined. */
function agentTextOf(record: ExchangeRecord): string | undefined {
  if (record.iface !== 'channel' || !(record.kind ?? '').startsWith('channel.agent.'))
    return undefined;
  try {
    const text = (JSON.parse(record.request.body ?? '{}') as { message?: { text?: unknown } })
      .message?.text;
    return typeof text === 'string' ? text : '';
  } catch {
    return '';
  }
}

/**
 * The records without the agent messages conform did not have the agent write: with a bot on
 * the channel its answers reach the listener too, and nothing on the channel says who wrote a
 * message, while the transcript logs no bot line (spec 2.6). What conform caused it can judge.
 */
export function ownAgentMessages(
  records: readonly ExchangeRecord[],
  texts: ReadonlySet<string>,
): ExchangeRecord[] {
  return records.filter((r) => {
    const text = agentTextOf(r);
    return text === undefined || texts.has(text);
  });
}

/** An answer that asks for the message again (spec 8): no reply, or a status other than 2xx. */
const refused = (record: ExchangeRecord): boolean =>
  record.failure !== undefined ||
  record.response === undefined ||
  record.response.status < 200 ||
  record.response.status >= 300;

/**
 * The records with each redelivery series of an agent message linked, as the platform's
 * journal links its attempts (spec 8: "3 attempts, 3 seconds apart, until a valid reply"). An
 * agent message the embedded listener was sent for the same customer with the same text as
 * one it refused is that message's next attempt: it gets `attempt` (the one before + 1) and
 * `cause` (the one before's seq), whatever id it carries, so a platform that renames a retry
 * is seen by redelivery-id (spec 2.2, 8: a redelivery repeats the message, id included) and
 * the transcript counts the message once. An answer in 2xx ends the series: the same text
 * after it is a new message. Conform sends each text once per chat, so a text repeated while
 * its series is open is a redelivery, not the agent writing it again.
 */
export function linkRedeliveries(records: readonly ExchangeRecord[]): ExchangeRecord[] {
  const open = new Map<string, ExchangeRecord>();
  return records.map((record) => {
    const text = record.direction === 'in' ? agentTextOf(record) : undefined;
    const customer = text === undefined ? undefined : customerOf(record);
    if (text === undefined || customer === undefined) return record;
    const key = JSON.stringify([customer, text]);
    const before = open.get(key);
    const linked: ExchangeRecord = before
      ? { ...record, attempt: (before.attempt ?? 1) + 1, cause: before.seq }
      : record;
    if (refused(record)) open.set(key, linked);
    else open.delete(key);
    return linked;
  });
}

/**
 * The records as the platform would have journaled them: each direction turned around (and
 * what it sent stamped at its answer, as the platform's journal does), the attempts of a
 * redelivered agent message linked (`linkRedeliveries`), and a channel record given the chat
 * of its customer when `chatOf` knows it (the svc control API's chat list; a hook names its
 * chat itself).
 */
export function asPlatformRecorded(
  records: readonly ExchangeRecord[],
  chatOf: ReadonlyMap<string, number>,
): ExchangeRecord[] {
  return linkRedeliveries(records).map((record) => {
    const customer = customerOf(record);
    const chat = customer === undefined ? undefined : chatOf.get(customer);
    // the platform stamps what it sends when the answer came, what it serves when it came in
    const served = record.direction === 'in';
    return {
      ...record,
      direction: served ? 'out' : 'in',
      protocolMs: record.protocolMs + (served ? (record.durationMs ?? 0) : 0),
      ...(chat === undefined ? {} : { chat }),
    };
  });
}

/** What the invariants were checked on, for the run's summary. */
export interface InvariantsTally {
  /** the invariants checked: those not switched off */
  checked: string[];
  /** chats seen, and the exchanges in them */
  conversations: number;
  exchanges: number;
  violations: number;
  /**
   * suites where svc-cli plays the platform: the rules not checked, as they would judge
   * svc-cli (src/trace/peer-rules.ts)
   */
  skipped?: SkippedInvariant[];
}

/** What a run's check found: the tally, and the case a broken invariant fails. */
export interface InvariantsOutcome {
  tally: InvariantsTally;
  /** one failed step per violation; absent when all hold (as in replay) */
  broken?: ConformCaseResult;
}

/**
 * The invariants on the conversations in `records`: a failed step per violation (the rule,
 * its contract section and the two exchanges, by their seq in the run's observations).
 * @example const { broken } = checkObserved('platform', records, { toleranceMs: 1000 }, clock);
 */
export function checkObserved(
  suite: ConformSuiteName,
  records: readonly ExchangeRecord[],
  options: InvariantOptions,
  clock: Clock,
): InvariantsOutcome {
  const started = performance.now();
  const conversations = conversationsOf(records);
  const violations = [
    ...conversations.flatMap((c) => checkConversation(c, options)),
    ...checkRuns(records, options),
  ];
  const disabled = [...(options.disabled ?? [])];
  const tally: InvariantsTally = {
    checked: ALL_INVARIANTS.map((i) => i.name).filter((name) => !disabled.includes(name)),
    conversations: conversations.length,
    exchanges: conversations.reduce((sum, c) => sum + c.spans.length, 0),
    violations: violations.length,
  };
  if (violations.length === 0) return { tally };
  return { tally, broken: brokenCase(suite, violations, clock, started) };
}

/**
 * The peer's side of the invariants in a suite where svc-cli plays the platform (bot, hooks,
 * integrator), on the journal of what the suite exchanged with the peer; the rules that would
 * judge svc-cli are skipped by name.
 * @example const { tally, broken } = checkPeerObserved('bot', harness.core.journal.entries(), {}, clock);
 */
export function checkPeerObserved(
  suite: PeerSuite,
  records: readonly ExchangeRecord[],
  options: InvariantOptions,
  clock: Clock,
): InvariantsOutcome {
  const started = performance.now();
  const violations = checkPeer(suite, records, options);
  const { checked, skipped } = peerScope(suite, new Set(options.disabled ?? []));
  const chats = new Set(records.map((r) => r.chat).filter((c) => c !== undefined));
  const tally: InvariantsTally = {
    checked,
    conversations: chats.size,
    exchanges: records.length,
    violations: violations.length,
    skipped,
  };
  if (violations.length === 0) return { tally };
  return { tally, broken: brokenCase(suite, violations, clock, started) };
}

/** The case a broken invariant fails: one failed step per violation. */
function brokenCase(
  suite: ConformSuiteName,
  violations: readonly Violation[],
  clock: Clock,
  started: number,
): ConformCaseResult {
  const specs = [...new Set(violations.map((v) => v.spec))];
  return {
    suite,
    name: INVARIANTS_CASE,
    file: `spec ${specs.join(', ')}`,
    spec: specs,
    ok: false,
    steps: violations.map((v, index) => ({
      index,
      name: v.chat === undefined ? v.rule : `${v.rule} (chat ${v.chat})`,
      kind: 'expect' as const,
      status: 'failed' as const,
      details: [violationLine(v)],
      protocolMs: clock.now(),
      wallMs: 0,
    })),
    protocolMs: 0,
    wallMs: performance.now() - started,
  };
}
