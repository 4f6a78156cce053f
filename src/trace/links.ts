import type { TraceSpan } from './span.js';

/*
 * The causal links of one conversation. The recorder writes the links it holds for free (a
 * redelivery names the attempt before it: `causeBy: 'record'`); the rest are inferred here
 * (`causeBy: 'inferred'`) from what each exchange is, its chat, its message ids and texts,
 * its attempt number and the protocol time it started, following the order the platform
 * works in (spec 3, 4.3, 6.2, 8):
 *
 *   customer message -> CLIENT_MESSAGE attempts -> the bot's answer or INVITE_AGENT ->
 *   AGENT_JOINED -> the agent's message -> its delivery attempts -> the hooks it caused
 *
 * Causes are looked for among the spans that started no later than the effect: the simulator
 * records a served request when it came in and a delivery attempt when its reply came, so the
 * journal's seq order is not the order things started in.
 */

const isCustomerMessage = (s: TraceSpan): boolean =>
  s.iface === 'channel' &&
  s.direction === 'in' &&
  (s.kind?.startsWith('channel.customer.') ?? false);
const isAgentMessage = (s: TraceSpan): boolean => s.iface === 'channel' && s.direction === 'out';
const isBotOut =
  (event: string) =>
  (s: TraceSpan): boolean =>
    s.iface === 'bot' && s.direction === 'out' && s.event === event;
const isBotIn =
  (event?: string) =>
  (s: TraceSpan): boolean =>
    s.iface === 'bot' && s.direction === 'in' && (event === undefined || s.event === event);
const isClose = (s: TraceSpan): boolean => s.iface === 'control' && /\/close(\?|$)/.test(s.path);
/** What the visitor did on the page (spec 4.5): `widget.start_call`, `widget.visitor_message` ... */
const isPageAction =
  (type: string) =>
  (s: TraceSpan): boolean =>
    s.iface === 'widget' && s.kind === `widget.${type}`;

/**
 * Where a span stands among those that started in the same protocol ms. A served request is
 * recorded as it comes in, so its seq is its place. A delivery attempt is recorded when it
 * ends, so it started before its own record: a bot event just after its cause (the bot
 * answers while it is asked, so its answer is recorded first), any other just before its
 * record (hooks and agent messages are sent as the state changed, and answered without a
 * call back).
 */
type Rank = (s: TraceSpan) => number;

/**
 * The latest span that started before `effect` (the same ms: ranked before it) and matches.
 */
function latest(
  spans: readonly TraceSpan[],
  effect: TraceSpan,
  match: (s: TraceSpan) => boolean,
  rank: Rank,
): TraceSpan | undefined {
  const own = rank(effect);
  let best: TraceSpan | undefined;
  let bestRank = 0;
  for (const s of spans) {
    if (s === effect || s.startMs > effect.startMs || !match(s)) continue;
    const r = rank(s);
    if (s.startMs === effect.startMs && r >= own) continue;
    if (!best || s.startMs > best.startMs || (s.startMs === best.startMs && r > bestRank)) {
      best = s;
      bestRank = r;
    }
  }
  return best;
}

/**
 * How far apart (protocol ms) two exchanges one moment set off may start: the platform sends
 * them in one turn, but on a scaled clock the wall time between them is scaled up too.
 */
const SAME_MOMENT_MS = 100;

/**
 * The span matching that started nearest to `effect`, before or after it, within
 * SAME_MOMENT_MS: one moment set both off, and either may have started first by a hair.
 */
function sameMoment(
  spans: readonly TraceSpan[],
  effect: TraceSpan,
  match: (s: TraceSpan) => boolean,
): TraceSpan | undefined {
  let best: TraceSpan | undefined;
  for (const s of spans) {
    if (s === effect || !match(s)) continue;
    const d = Math.abs(s.startMs - effect.startMs);
    if (d > SAME_MOMENT_MS) continue;
    if (!best || d < Math.abs(best.startMs - effect.startMs)) best = s;
  }
  return best;
}

/** The attempt a redelivery repeats: same interface, kind and message or event id. */
function previousAttempt(
  spans: readonly TraceSpan[],
  retry: TraceSpan,
  rank: Rank,
): TraceSpan | undefined {
  const want = (retry.attempt ?? 1) - 1;
  return latest(
    spans,
    retry,
    (s) =>
      s.attempt === want &&
      s.iface === retry.iface &&
      s.direction === retry.direction &&
      s.kind === retry.kind &&
      s.messageId === retry.messageId,
    rank,
  );
}

/** What caused one span, inferred; undefined for a root (a customer's message, a control call). */
function inferCause(spans: readonly TraceSpan[], s: TraceSpan, rank: Rank): TraceSpan | undefined {
  if ((s.attempt ?? 1) > 1) return previousAttempt(spans, s, rank);
  // a customer's request of any kind is a root: one the platform ignored (a type it does not
  // know, spec 2.3) or refused has no kind, and was drawn as caused by the exchange before it
  if (isCustomerMessage(s) || (s.iface === 'channel' && s.direction === 'in')) return undefined;
  // bot interface (spec 4.3): the customer's message goes to the bot; the bot answers while
  // (or after) it is asked; the platform says AGENT_JOINED after an invitation, or after the
  // bot's attempts ran out (spec 8: hand-over)
  if (s.iface === 'bot' && s.direction === 'out') {
    if (s.event === 'CLIENT_MESSAGE') return latest(spans, s, isCustomerMessage, rank);
    if (s.event === 'AGENT_JOINED' || s.event === 'AGENT_UNAVAILABLE')
      return (
        latest(spans, s, isBotIn('INVITE_AGENT'), rank) ??
        latest(spans, s, isBotOut('CLIENT_MESSAGE'), rank) ??
        latest(spans, s, isCustomerMessage, rank)
      );
    if (s.event === 'CHAT_CLOSED')
      return latest(spans, s, isClose, rank) ?? latestExchange(spans, s, rank);
    return latest(spans, s, isCustomerMessage, rank);
  }
  if (s.iface === 'bot') return latest(spans, s, isBotOut('CLIENT_MESSAGE'), rank);
  // channel, platform -> integrator: a bot's message repeats the text of its BOT_MESSAGE; an
  // agent's first message after AGENT_JOINED follows it; else it answers the customer
  if (isAgentMessage(s)) {
    // the agent's typing notice follows the control request that set it (the console sends
    // one as the agent starts and stops typing), not the customer's message before it
    if (s.kind === 'channel.agent.typing') {
      const typed = latestStarted(
        spans,
        s,
        (c) => c.iface === 'control' && /^\/_sim\/agent\/typing(\?|$)/.test(c.path),
      );
      if (typed) return typed;
    }
    const fromBot = latest(
      spans,
      s,
      (b) => isBotIn()(b) && b.text !== undefined && b.text === s.text,
      rank,
    );
    if (fromBot) return fromBot;
    // the agent's control request (the console's Reply, a test's POST /_sim/agent/message):
    // journaled once the delivery it waits for is over, so after it, but started before
    const asked = latestStarted(
      spans,
      s,
      (c) =>
        isAgentControl(c) &&
        c.path.startsWith('/_sim/agent/message') &&
        (c.text ?? s.text) === s.text,
    );
    if (asked) return asked;
    const joined = latest(spans, s, isBotOut('AGENT_JOINED'), rank);
    const answeredSinceJoined =
      joined !== undefined &&
      latest(
        spans,
        s,
        (a) =>
          isAgentMessage(a) &&
          (a.attempt ?? 1) === 1 &&
          (a.startMs > joined.startMs || (a.startMs === joined.startMs && rank(a) > rank(joined))),
        rank,
      ) !== undefined;
    if (joined && !answeredSinceJoined) return joined;
    return latest(spans, s, isCustomerMessage, rank);
  }
  // hooks (spec 6.2): accepted by the agent's first message (sent in the same moment) or a
  // bot's hand-over (AGENT_JOINED), never by a message that came later; updated by the
  // customer's, finished after the chat's last exchange (or the close that ended it)
  if (s.iface === 'hook') {
    switch (s.event ?? '') {
      case 'chat_accepted':
        // a widget chat's accept is pushed to the page (spec 6.4), not sent to an integrator;
        // a recording without the pushes has the agent's control request
        return (
          sameMoment(spans, s, (a) => isAgentMessage(a) && (a.attempt ?? 1) === 1) ??
          sameMoment(spans, s, (p) => p.push?.event === 'agent_accepted') ??
          sameMoment(spans, s, isBotOut('AGENT_JOINED')) ??
          latest(spans, s, isBotOut('AGENT_JOINED'), rank) ??
          latestStarted(spans, s, isAgentControl) ??
          latest(spans, s, isCustomerMessage, rank)
        );
      case 'chat_updated':
      case 'offline_message':
        return latest(spans, s, isCustomerMessage, rank);
      case 'chat_finished':
        return latest(spans, s, isClose, rank) ?? latestExchange(spans, s, rank);
      // spec 3: a call's status changes follow the call the page or the control API started
      case 'call_event':
        return (
          latest(spans, s, isPageAction('start_call'), rank) ??
          latest(spans, s, (c) => c.iface === 'control', rank) ??
          latestExchange(spans, s, rank)
        );
      default:
        return (
          latest(spans, s, (c) => c.iface === 'control', rank) ?? latestExchange(spans, s, rank)
        );
    }
  }
  if (s.iface === 'widget') return pageCause(spans, s, rank);
  if (s.iface === 'control') return undefined;
  return latestExchange(spans, s, rank);
}

/**
 * The latest span matching that started no later than `effect`, whatever their ranks: a push
 * is journaled as it is written, inside the request that caused it, whose own record (written
 * once it is answered) comes later in the journal at the same protocol ms.
 */
function latestStarted(
  spans: readonly TraceSpan[],
  effect: TraceSpan,
  match: (s: TraceSpan) => boolean,
): TraceSpan | undefined {
  let best: TraceSpan | undefined;
  for (const s of spans) {
    if (s === effect || s.startMs > effect.startMs || !match(s)) continue;
    if (!best || s.startMs > best.startMs || (s.startMs === best.startMs && s.seq > best.seq))
      best = s;
  }
  return best;
}

/** The agent's side in the control API: a message (`chatId` in its body) or an assignment. */
const isAgentControl = (s: TraceSpan): boolean =>
  s.iface === 'control' && /^\/_sim\/(agent\/message|chats\/\d+\/assign)(\?|$)/.test(s.path);

/**
 * What made the platform push an event to the page (spec 4.5, 6.4): the agent's message (the
 * bot's BOT_MESSAGE with its text, else the agent's control request), the agent's accept (the
 * control request that pressed Reply, else AGENT_JOINED), the chat's close (the agent's close
 * request), a call's status (the call the page or the control API started). A chat_mode or a transcript has no cause in the chat.
 */
function pushCause(spans: readonly TraceSpan[], s: TraceSpan, rank: Rank): TraceSpan | undefined {
  switch (s.push?.event ?? '') {
    case 'agent_message':
      return (
        latest(spans, s, (b) => isBotIn()(b) && b.text !== undefined && b.text === s.text, rank) ??
        latestStarted(spans, s, (c) => isAgentControl(c) && (c.text ?? s.text) === s.text)
      );
    case 'agent_accepted':
      return (
        latestStarted(spans, s, isAgentControl) ?? latest(spans, s, isBotOut('AGENT_JOINED'), rank)
      );
    case 'chat_closed':
      // the agent's close (the control request); an idle close or the chat cap has no request
      return latestStarted(
        spans,
        s,
        (c) => c.iface === 'control' && /^\/_sim\/chats\/\d+\/close(\?|$)/.test(c.path),
      );
    case 'call_status':
      return latestStarted(
        spans,
        s,
        (c) =>
          isPageAction('start_call')(c) ||
          (c.iface === 'control' && /^\/_sim\/calls(\?|$)/.test(c.path)),
      );
    default:
      return undefined;
  }
}

/**
 * Interface C (spec 4.5, 6.4): what the visitor does on the page is a root; a push follows
 * what made the platform push it (`pushCause`); a callback follows the push whose stream id
 * it reports. In a recording without the pushes (made before they were journaled) a callback
 * follows what caused its push: a call's status change (the call the page asked for) or the
 * agent's accept (AGENT_JOINED, else the agent's message). Another callback is never the cause.
 */
function pageCause(spans: readonly TraceSpan[], s: TraceSpan, rank: Rank): TraceSpan | undefined {
  if (s.push) return pushCause(spans, s, rank);
  if (!s.callback) return undefined;
  const id = s.callback.eventId;
  const event = s.callback.event;
  const pushed = latestStarted(spans, s, (p) => p.push?.eventId === id && p.push.event === event);
  if (pushed) return pushed;
  if (s.callback.event === 'call_status') return latest(spans, s, isPageAction('start_call'), rank);
  if (s.callback.event === 'agent_accepted')
    return (
      latest(spans, s, isBotOut('AGENT_JOINED'), rank) ??
      latest(spans, s, (a) => isAgentMessage(a) && (a.attempt ?? 1) === 1, rank)
    );
  return undefined;
}

/** The last exchange with a party other than the hook receiver before `s`. */
function latestExchange(
  spans: readonly TraceSpan[],
  s: TraceSpan,
  rank: Rank,
): TraceSpan | undefined {
  return latest(spans, s, (c) => c.iface !== 'hook' && c.iface !== 'control', rank);
}

/**
 * The order causes are looked for in: the roots, then each step of the platform's work, so a
 * span's cause is linked (and ranked) before the spans it may cause are.
 */
function phaseOf(s: TraceSpan): number {
  if (s.causeBy === 'record' || isCustomerMessage(s) || s.iface === 'control') return 0;
  if (s.iface === 'bot' && s.direction === 'out' && s.event === 'CLIENT_MESSAGE') return 1;
  if (s.iface === 'bot' && s.direction === 'in') return 2;
  if (s.iface === 'bot') return 3;
  if (isAgentMessage(s)) return 4;
  if (s.iface === 'hook') return 5;
  // a callback after the push it reflects
  if (s.callback) return 7;
  return 6;
}

/**
 * A message the platform delivered to the integrator for the bot (its cause, through the
 * attempts before it, a bot's BOT_MESSAGE) is named by who wrote it: `bot.text`, not
 * `agent.text` (its `kind` stays the contract's `channel.agent.text`).
 */
function nameBotMessages(spans: readonly TraceSpan[], bySeq: ReadonlyMap<number, TraceSpan>): void {
  const byBot = (s: TraceSpan, seen: Set<TraceSpan>): boolean => {
    const cause = s.cause === undefined ? undefined : bySeq.get(s.cause);
    if (!cause || seen.has(cause)) return false;
    seen.add(cause);
    if (isBotIn()(cause)) return true;
    return isAgentMessage(cause) && byBot(cause, seen);
  };
  for (const s of spans)
    if (isAgentMessage(s) && s.name.startsWith('agent.') && byBot(s, new Set([s])))
      s.name = `bot.${s.name.slice('agent.'.length)}`;
}

/**
 * Links the spans of one conversation (each gets `cause`, recorded or inferred) and returns
 * them in the order they started: by protocol time, then by rank (a cause before what it
 * caused), then journal order.
 * @example const ordered = linkConversation(spans);
 */
export function linkConversation(spans: TraceSpan[]): TraceSpan[] {
  const bySeq = new Map<number, TraceSpan>();
  for (const s of spans) bySeq.set(s.seq, s);
  for (const s of spans) {
    if (s.cause !== undefined && bySeq.has(s.cause)) continue;
    delete s.cause;
    delete s.causeBy;
  }
  const ranks = new Map<TraceSpan, number>();
  const rank: Rank = (s) => {
    const known = ranks.get(s);
    if (known !== undefined) return known;
    const cause = s.cause === undefined ? undefined : bySeq.get(s.cause);
    ranks.set(s, s.seq); // a cycle (a broken recording) stops here
    const r =
      s.direction === 'in'
        ? s.seq
        : s.iface === 'bot' && cause && cause.startMs === s.startMs
          ? rank(cause) + 1e-3
          : s.seq - 0.5;
    ranks.set(s, r);
    return r;
  };
  const pending = spans
    .filter((s) => s.causeBy !== 'record')
    .sort((a, b) => phaseOf(a) - phaseOf(b) || a.seq - b.seq);
  for (const s of pending) {
    const cause = inferCause(spans, s, rank);
    ranks.delete(s);
    if (cause && cause !== s) {
      s.cause = cause.seq;
      s.causeBy = 'inferred';
    }
  }
  ranks.clear();
  nameBotMessages(spans, bySeq);
  const sorted = [...spans].sort(
    (a, b) => a.startMs - b.startMs || rank(a) - rank(b) || a.seq - b.seq,
  );
  // within one ms a cause comes before what it caused, whatever the ranks guessed
  const ordered: TraceSpan[] = [];
  const placed = new Set<TraceSpan>();
  const place = (s: TraceSpan, visiting: Set<TraceSpan>): void => {
    if (placed.has(s) || visiting.has(s)) return;
    visiting.add(s);
    const cause = s.cause === undefined ? undefined : bySeq.get(s.cause);
    if (cause && cause.startMs === s.startMs) place(cause, visiting);
    placed.add(s);
    ordered.push(s);
  };
  for (const s of sorted) place(s, new Set());
  return ordered;
}

/** The chain of causes from a span back to its root, the span first. */
export function causalChain(spans: readonly TraceSpan[], from: TraceSpan): TraceSpan[] {
  const bySeq = new Map(spans.map((s) => [s.seq, s] as const));
  const chain = [from];
  const seen = new Set([from.seq]);
  for (let s = from; s.cause !== undefined;) {
    const parent = bySeq.get(s.cause);
    if (!parent || seen.has(parent.seq)) break;
    chain.push(parent);
    seen.add(parent.seq);
    s = parent;
  }
  return chain;
}
