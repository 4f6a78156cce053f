import type { Clock } from '../clock.js';
import { postJson, type PostOutcome } from '../http/client.js';
import { quoteReplyBody } from '../http/error-page.js';
import { botRouteHint, trailingSlashHint, type SlashReply } from '../http/trailing-slash.js';
import type { ExchangeInput, Journal } from '../journal/journal.js';
import type { OutboundLimiter, SlotGrant } from './outbound-limiter.js';
import type { DeliveryAttemptEvent, DeliveryDoneEvent, DeliveryTarget } from './events.js';
import { plural } from '../plural.js';

// the timing rules are the contract's (src/contract/timing.ts); re-exported for the platform's
// own modules, which deliver by them
export {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  judgeChannelReply,
  judgeChannelReplyByStatus,
  shapeProblem,
  type ChannelReplyReading,
  type DeliveryPolicy,
  type ReplyJudgement,
} from '../contract/timing.js';
import { attemptOffsetMs, type DeliveryPolicy, type ReplyJudgement } from '../contract/timing.js';
import { recordExchange } from '../journal/index.js';
import { ERROR_REPLY_NOTE } from '../journal/record.js';

export interface DeliverOptions {
  deliveryId: string;
  target: DeliveryTarget;
  url: string;
  /** the URL as the events show it, a secret in it masked (the bot token, spec 5.2) */
  shownUrl?: string;
  /** the secret `shownUrl` masks: masked as `***` where a reason quotes the peer's reply too */
  secret?: string;
  /** JSON text */
  body: string;
  /** the body of attempt n when it is not `body` (a simulator mutant's redelivery) */
  bodyFor?: (attempt: number) => string;
  chunked?: boolean;
  headers?: Record<string, string>;
  /** headers computed per attempt (a renewed access token, spec 5.3); merged over `headers` */
  headersFor?: (attempt: number) => Promise<Record<string, string>>;
  policy: DeliveryPolicy;
  clock: Clock;
  judge: (reply: Extract<PostOutcome, { ok: true }>) => ReplyJudgement;
  emit: (event: DeliveryAttemptEvent | DeliveryDoneEvent) => void;
  journal?: Journal;
  kind?: string;
  /** the chat the payload belongs to; events carry it so overlapping series can be told apart */
  chatId?: number;
  signal?: AbortSignal;
  /**
   * aborted when the sender stops taking new work (`core.stopping`): a series waiting for its
   * next attempt, or for its failure to be due, ends there as `interrupted`; an attempt under
   * way keeps `signal`'s grace
   */
  stopping?: AbortSignal;
  /** the core's outbound limiter: bounded concurrency across every delivery */
  limiter?: OutboundLimiter;
}

export interface DeliveryResult {
  result: DeliveryDoneEvent['result'];
  attempts: number;
  /** the accepted reply's JSON */
  reply?: unknown;
  errorReply?: { code: string; message: string };
  agentNotice?: string;
  /** why the last attempt of a failed series was not accepted (timeout, HTTP 404, ...) */
  reason?: string;
  /** what that attempt's reply said, for the reader (`reason`'s `said`, see the attempt event) */
  said?: string;
  /**
   * the last attempt of a failed series was dropped by the peer: its connection closed before a
   * reply, or a 5xx (a peer that failed on this payload, not one that was away or slow)
   */
  dropped?: true;
  elapsedMs: number;
}

const iface = { integrator: 'channel', bot: 'bot', hook: 'hook' } as const;

/**
 * Delivers one payload with a redelivery policy: attempts at t = 0, interval, 2 x interval ...
 * each waiting at most attemptTimeoutMs; the first accepted reply ends the series. Never
 * throws for the peer or for a stop: a series waits for the limiter to admit it (or is refused,
 * `failed` at once, when the limiter refuses rather than queues), the
 * platform stopping mid-series as `interrupted` (journaled too).
 * @example await deliver({ ...opts, policy: CHANNEL_DELIVERY_POLICY, judge: judgeChannelReply });
 */
export function deliver(options: DeliverOptions): Promise<DeliveryResult> {
  const { clock, limiter } = options;
  if (!limiter) return runAdmitted(options, undefined);
  // a series waits for its turn while the limiter's series are all under way, as
  // the real platform queues messages; it starts (attempt 1 at t = 0) once admitted. While it
  // waits it holds no async frame: tens of thousands wait under load.
  const queuedAt = clock.now();
  return limiter.admit(options.signal).then(
    (admission) =>
      admission.ok ? runAdmitted(options, admission) : refuse(options, queuedAt, 1, admission),
    (error: unknown) => interrupted(options, error, 0, queuedAt),
  );
}

/** The series of an admitted delivery; its slot is released when the series ends. */
async function runAdmitted(
  options: DeliverOptions,
  admission: SlotGrant | undefined,
): Promise<DeliveryResult> {
  const start = options.clock.now();
  let attempt = 0;
  try {
    return await runSeries(options, start, (n) => (attempt = n));
  } catch (error) {
    return interrupted(options, error, attempt, start);
  } finally {
    if (admission?.ok) admission.release();
  }
}

/** The platform stopped mid-series (or while it waited): journaled and announced. */
function interrupted(
  options: DeliverOptions,
  error: unknown,
  attempt: number,
  start: number,
): DeliveryResult {
  const stopped = options.signal?.aborted ? options.signal : options.stopping;
  if (!stopped?.aborted) throw error;
  const reason: unknown = stopped.reason;
  const why = reason instanceof Error ? reason.message : 'stopped';
  recordAttempt(options, attempt, undefined, {
    failure: { reason: 'interrupted', message: `interrupted: ${why}` },
    notes: ['interrupted'],
  });
  const done: DeliveryResult = {
    result: 'interrupted',
    attempts: attempt,
    agentNotice: `interrupted before a valid reply: ${why}`,
    elapsedMs: options.clock.now() - start,
  };
  emitDone(options, done);
  return done;
}

/** A series the limiter would not take: failed at once with the reason. */
function refuse(
  options: DeliverOptions,
  start: number,
  attempt: number,
  slot: Extract<SlotGrant, { ok: false }>,
): DeliveryResult {
  recordAttempt(options, attempt, undefined, {
    failure: { reason: slot.reason, message: slot.message },
    notes: [`rejected: ${slot.message}`],
  });
  const failed: DeliveryResult = {
    result: 'failed',
    attempts: attempt - 1,
    agentNotice: `not delivered: ${slot.message}`,
    elapsedMs: options.clock.now() - start,
  };
  emitDone(options, failed);
  return failed;
}

async function runSeries(
  options: DeliverOptions,
  start: number,
  onAttempt: (attempt: number) => void,
): Promise<DeliveryResult> {
  const { clock, policy } = options;
  let lastReason = 'no attempt made';
  let lastSaid: string | undefined;
  let lastDropped = false;
  // the journal seq of the attempt before: a redelivery names it as its cause (the trace)
  let previous: number | undefined;
  for (let attempt = 1; attempt <= policy.attempts; attempt++) {
    const scheduled = start + attemptOffsetMs(policy, attempt);
    const wait = scheduled - clock.now();
    // a redelivery is new work: none is sent once the sender is stopping (spec 8's series
    // ends there, journaled as interrupted)
    const between = attempt > 1 ? (options.stopping ?? options.signal) : options.signal;
    if (wait > 0) await clock.sleep(wait, between);
    if (attempt > 1 && options.stopping?.aborted) throw options.stopping.reason;
    onAttempt(attempt);
    const slot = options.limiter ? await options.limiter.acquire(options.signal) : undefined;
    // a hanging peer must not pile up work; fail fast with the reason
    if (slot && !slot.ok) return refuse(options, start, attempt, slot);
    const offsetMs = clock.now() - start;
    let sentMs = 0;
    let outcome: PostOutcome;
    let headers: Record<string, string> | undefined;
    try {
      headers = options.headersFor
        ? { ...options.headers, ...(await options.headersFor(attempt)) }
        : options.headers;
      sentMs = clock.now();
      outcome = await postJson({
        url: options.url,
        body: bodyOf(options, attempt),
        timeoutMs: policy.attemptTimeoutMs,
        clock,
        ...(options.chunked === undefined ? {} : { chunked: options.chunked }),
        ...(headers ? { headers } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } finally {
      if (slot?.ok) slot.release();
    }
    if (!outcome.ok && outcome.reason === 'aborted' && options.signal?.aborted) {
      throw options.signal.reason ?? new Error('stopped');
    }
    const judgement: ReplyJudgement = outcome.ok
      ? options.judge(outcome)
      : {
          accepted: false,
          reason:
            outcome.reason === 'timeout'
              ? `timeout after ${policy.attemptTimeoutMs} ms`
              : outcome.message,
        };
    previous = recordAttempt(options, attempt, headers, {
      cause: previous,
      endedMs: sentMs + outcome.durationMs,
      ...(outcome.ok
        ? { response: { status: outcome.status, headers: outcome.headers, body: outcome.body } }
        : { failure: { reason: outcome.reason, message: outcome.message } }),
      durationMs: outcome.durationMs,
      wallMs: outcome.wallMs,
      notes: attemptNotes(judgement),
    });
    const said = withFirstHint(
      outcome.ok ? replySaid(judgement, outcome, options) : undefined,
      attempt === 1 && options.target === 'integrator'
        ? integratorHint(outcome, policy.attemptTimeoutMs, options.url)
        : undefined,
    );
    options.emit({
      type: 'delivery-attempt',
      deliveryId: options.deliveryId,
      target: options.target,
      ...seriesRef(options),
      url: options.shownUrl ?? options.url,
      attempt,
      attempts: policy.attempts,
      offsetMs,
      durationMs: outcome.durationMs,
      wallMs: outcome.wallMs,
      outcome: judgement.accepted ? 'accepted' : 'rejected',
      ...verdictOf(judgement, said),
      ...(outcome.ok ? { status: outcome.status } : {}),
      transfer: options.chunked ? 'chunked' : 'content-length',
      protocolMs: clock.now(),
    });
    if (judgement.accepted) {
      const errorReply = judgement.errorReply;
      const done: DeliveryResult = {
        result: errorReply ? 'error-reply' : 'delivered',
        attempts: attempt,
        ...(judgement.json === undefined ? {} : { reply: judgement.json }),
        ...(errorReply
          ? { errorReply, agentNotice: `${errorReply.code}: ${errorReply.message}` }
          : {}),
        elapsedMs: clock.now() - start,
      };
      emitDone(options, done);
      return done;
    }
    // a rejection that ends the series (the docs' 4xx): failed now, no redelivery
    if (judgement.final) return failedNow(options, start, attempt, judgement.reason, said);
    lastReason = judgement.reason;
    lastSaid = said;
    lastDropped = outcome.ok ? outcome.status >= 500 : outcome.reason === 'reset';
  }
  // spec 8: the failure is announced when the series' time is up (9 s for the channel).
  const failAt = start + policy.failAfterMs;
  const wait = failAt - clock.now();
  if (wait > 0) await clock.sleep(wait, options.stopping ?? options.signal);
  const failed: DeliveryResult = {
    result: 'failed',
    attempts: policy.attempts,
    agentNotice: `not delivered after ${plural(policy.attempts, 'attempt')}: ${lastReason}`,
    reason: lastReason,
    ...(lastSaid === undefined ? {} : { said: lastSaid }),
    ...(lastDropped ? { dropped: true as const } : {}),
    elapsedMs: clock.now() - start,
  };
  emitDone(options, failed);
  return failed;
}

/**
 * What a rejected reply said, for the reader, apart from the judge's reason (which events and
 * fixtures match on: `HTTP 500` stays `HTTP 500`): for a rejection by the status alone, the
 * reply's error page by title or its start (a web framework answers an unhandled exception
 * with a page naming it, which is what its author needs); and, for a peer that routes its path
 * only with a trailing slash (a redirect to it, Django's APPEND_SLASH page), the way out.
 */
function replySaid(
  judgement: ReplyJudgement,
  reply: SlashReply & { status: number; body: string },
  options: DeliverOptions,
): string | undefined {
  if (judgement.accepted) return undefined;
  let quoted = judgement.reason === `HTTP ${reply.status}` ? quoteReplyBody(reply.body) : '';
  // a framework's page names the path it failed at, and the bot's path ends in its token
  if (options.secret)
    for (const form of new Set([options.secret, encodeURIComponent(options.secret)]))
      quoted = quoted.split(form).join('***');
  const hint =
    trailingSlashHint(reply, options.url, {
      shownUrl: options.shownUrl,
      spec: urlSpec[options.target],
    }) ?? (options.target === 'bot' ? botRouteHint(reply.status, options.url) : undefined);
  const said = [quoted, hint].filter((part) => part !== undefined && part !== '').join('; ');
  return said === '' ? undefined : said;
}

const urlSpec = { integrator: '4.2', bot: '4.3', hook: '4.4' } as const;

/**
 * The journal's notes on an attempt. An error object ends the series as an accepted reply
 * does (spec 2.2), but the agent is shown the error: the trace and the report say so instead
 * of a green "accepted".
 */
function attemptNotes(judgement: ReplyJudgement): string[] {
  if (!judgement.accepted) return [`rejected: ${judgement.reason}`];
  const { errorReply, warning } = judgement;
  return [
    'accepted',
    ...(errorReply ? [`${ERROR_REPLY_NOTE}${errorReply.code}: ${errorReply.message}`] : []),
    ...(warning ? [`warning: ${warning}`] : []),
  ];
}

/**
 * What a rejected first attempt at the integrator asks of it, said once per message (the
 * console showed "HTTP 201" or "timeout after 3000 ms" where conform says what to fix).
 */
function integratorHint(outcome: PostOutcome, waitMs: number, url: string): string | undefined {
  if (!outcome.ok)
    return outcome.reason === 'timeout'
      ? `answer within ${waitMs / 1000} s: each attempt waits that long for the whole reply, then the platform tries again (spec 8)`
      : undefined;
  // svc-cli proxy refused the path, not the integrator: the integrator URL misses its leg
  if (outcome.status === 404 && outcome.headers['x-svc-proxy'] === 'no_route')
    return `svc-cli proxy answered, not your integrator: it takes the platform's agent messages at its /integrator path; give the platform --integrator-url ${new URL(url).origin}/integrator`;
  if (outcome.status === 404)
    return 'the platform posts to <integrator URL>/<channel public id>: serve that path (spec 4.2)';
  if (outcome.status !== 200)
    return 'the platform takes only HTTP 200 with {"result":"ok"} or {"error":{"code","message"}} (spec 2.2, 4.2)';
  return undefined;
}

function withFirstHint(said: string | undefined, hint: string | undefined): string | undefined {
  if (hint === undefined || said?.includes(hint)) return said;
  return said === undefined ? hint : `${said}; ${hint}`;
}

/** An attempt event's verdict: an accepted reply's warning, or a rejection's reason and what the reply said. */
function verdictOf(
  judgement: ReplyJudgement,
  said: string | undefined,
): Pick<DeliveryAttemptEvent, 'warning' | 'reason' | 'said' | 'final'> {
  if (judgement.accepted) return judgement.warning ? { warning: judgement.warning } : {};
  return {
    reason: judgement.reason,
    ...(said === undefined ? {} : { said }),
    ...(judgement.final ? { final: true } : {}),
  };
}

/** A series a final rejection ended: failed at that attempt, announced at once. */
function failedNow(
  options: DeliverOptions,
  start: number,
  attempt: number,
  reason: string,
  said: string | undefined,
): DeliveryResult {
  const failed: DeliveryResult = {
    result: 'failed',
    attempts: attempt,
    ...(said === undefined ? {} : { said }),
    agentNotice: `not delivered: ${reason}`,
    reason,
    elapsedMs: options.clock.now() - start,
  };
  emitDone(options, failed);
  return failed;
}

type AttemptRecord = Pick<
  ExchangeInput,
  'response' | 'failure' | 'durationMs' | 'wallMs' | 'notes'
> & {
  cause?: number | undefined;
  /**
   * protocol ms the reply ended: the attempt's start plus its duration. Read from the clock when
   * the journal line is written instead, the start (end - duration) would move later by however
   * long the continuation waited behind other work, enough on a busy machine to put a hook
   * sent first after one sent 15 ms later (the hook-after-finish invariant, spec 6.2).
   */
  endedMs?: number;
};

/**
 * One journal line per attempt (or per refusal / interruption), direction `out`; returns its
 * seq. It names its chat and, for a redelivery, the attempt before it (`cause`): two numbers
 * the series already holds, so the trace costs the ingest path nothing else.
 */
function recordAttempt(
  options: DeliverOptions,
  attempt: number,
  headers: Record<string, string> | undefined,
  { cause, endedMs, ...extra }: AttemptRecord,
): number | undefined {
  return recordExchange(options.journal, {
    protocolMs: endedMs ?? options.clock.now(),
    iface: iface[options.target],
    direction: 'out',
    ...(options.kind ? { kind: options.kind } : {}),
    ...(attempt > 0 ? { attempt } : {}),
    ...(options.chatId === undefined ? {} : { chat: options.chatId }),
    ...(cause === undefined ? {} : { cause }),
    request: {
      method: 'POST',
      url: options.url,
      // what went on the wire (postJson sets the type and the framing), so the journal and
      // the console show the outbound headers; secrets are redacted by the journal
      headers: {
        'content-type': 'application/json',
        ...(options.chunked
          ? { 'transfer-encoding': 'chunked' }
          : { 'content-length': String(Buffer.byteLength(bodyOf(options, attempt))) }),
        ...headers,
      },
      body: bodyOf(options, attempt),
    },
    ...extra,
    notes: [
      options.chunked ? 'transfer: chunked' : 'transfer: content-length',
      ...(extra.notes ?? []),
    ],
  });
}

/** What attempt n sends: `body`, unless the caller shapes each attempt's own. */
const bodyOf = (options: DeliverOptions, attempt: number): string =>
  options.bodyFor?.(attempt) ?? options.body;

/** The chat and kind a series' events name, when the caller gave them. */
function seriesRef(options: DeliverOptions): { chatId?: number; kind?: string } {
  return {
    ...(options.chatId === undefined ? {} : { chatId: options.chatId }),
    ...(options.kind === undefined ? {} : { kind: options.kind }),
  };
}

function emitDone(options: DeliverOptions, result: DeliveryResult): void {
  options.emit({
    type: 'delivery-done',
    deliveryId: options.deliveryId,
    target: options.target,
    ...seriesRef(options),
    result: result.result,
    attempts: result.attempts,
    ...(result.agentNotice === undefined ? {} : { agentNotice: result.agentNotice }),
    elapsedMs: result.elapsedMs,
    protocolMs: options.clock.now(),
  });
}
