/**
 * What `load` sends, per role, through the platform's own delivery engine (`deliver()` with
 * the spec's policies: integrator 3 attempts at 0/3/6 s, bot 2 x 3 s, hooks 1 x 10 s as
 * assumed; channel customers 1 attempt). Payloads are valid by the contract, except the share
 * asked for with `--invalid`, which is sent broken on purpose and reported apart.
 */
import { performance } from 'node:perf_hooks';
import { createClock, type Clock } from '../clock.js';
import { checkReply } from '../roles/hooks/fire.js';
import { buildSampleHookEvent, HOOK_LIFECYCLE } from '../roles/hooks/samples.js';
import { buildAgentPayload, buildSampleMedia } from '../conversation/conform/integrator.js';
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  judgeChannelReply,
  type DeliveryPolicy,
  type ReplyJudgement,
} from '../contract/timing.js';
import { deliver } from '../platform/delivery.js';
import type { OutboundLimiter } from '../platform/outbound-limiter.js';
import type { FinalState } from './figures.js';
import type { HookEventName } from '../contract/hooks.js';
import type { LoadTrace, TracedSeries } from './trace.js';
import { integratorDeliveryUrl } from '../contract/integrator-url.js';

export const LOAD_ROLES = ['integrator', 'channel', 'hooks', 'bot'] as const;
export type LoadRole = (typeof LOAD_ROLES)[number];

/** A payload template: a message kind and how often it is drawn. */
export interface MixEntry {
  /** `text`, `typing`, a media type of spec 2.4, or a fixture customer step */
  kind: string;
  weight: number;
  /** channel: a customer step's message as a fixture wrote it */
  message?: Record<string, unknown>;
  /** channel with think time: a whole conversation's customer messages, in order */
  messages?: Record<string, unknown>[];
}

export interface LoadTargetOptions {
  role: LoadRole;
  /** integrator_url, bot_provider_url, hook URL or channel URL */
  url: string;
  clock: Clock;
  /** integrator: channel public id in the path (spec 4.2) */
  channel?: string;
  /** bot: the token, the last path segment (spec 4.3, 5.2) */
  token?: string;
  /** distinct customers (integrator recipients, channel senders, bot clients) */
  customers: number;
  mix: readonly MixEntry[];
  /** hooks: the events to send in turn (default the lifecycle of spec 3) */
  events?: readonly HookEventName[];
  /** a run id that makes message ids unique across runs */
  runId: string;
  /**
   * channel: each arrival is one customer's whole conversation (the mix's `messages`), one
   * message after another with this many wall ms between them
   */
  thinkTimeMs?: number;
  /** `--report`: the sampled conversations' exchanges are journaled here */
  trace?: LoadTrace;
}

export interface AttemptFigure {
  attempt: number;
  /** wall ms of the exchange */
  wallMs: number;
  accepted: boolean;
  reason?: string;
}

export interface SeriesOutcome {
  state: FinalState;
  /** the attempts that ended: answered, refused or timed out */
  attempts: AttemptFigure[];
  /** an attempt on the wire when the run stopped: its number and wall ms so far */
  cutShort?: { attempt: number; wallMs: number };
  /** why the series did not end delivered (the last attempt's reason) */
  reason?: string;
}

/** Each attempt of a series as it happens, for the live figures. */
export interface AttemptObserver {
  /** attempt `attempt` of the series (of its message, for a conversation) went on the wire */
  started: (attempt: number) => void;
  /** it ended: answered, refused or timed out */
  ended: (figure: AttemptFigure) => void;
}

/** One series: payload `index`, broken on purpose when `invalid`. */
export type FireSeries = (
  index: number,
  invalid: boolean,
  limiter: OutboundLimiter,
  signal: AbortSignal,
  observer?: AttemptObserver,
) => Promise<SeriesOutcome>;

export interface LoadTarget {
  role: LoadRole;
  /** where each payload goes */
  url: string;
  policy: DeliveryPolicy;
  fire: FireSeries;
  /** the JSON text of payload `index` (what `fire` sends; `--export` embeds samples) */
  payload: (index: number, invalid: boolean) => string;
}

/** spec 4.1: the customer's message POST answers 200 on success. */
const CHANNEL_POLICY: DeliveryPolicy = {
  attempts: 1,
  intervalMs: 0,
  attemptTimeoutMs: 10_000,
  failAfterMs: 0,
};

const trim = (url: string): string => url.replace(/\/+$/, '');

/** Builds the target of a role. */
export function createLoadTarget(options: LoadTargetOptions): LoadTarget {
  switch (options.role) {
    case 'integrator': {
      const url = integratorDeliveryUrl(options.url, options.channel ?? 'load'); // spec 4.2
      return target(
        options,
        url,
        CHANNEL_DELIVERY_POLICY,
        judgeChannelReply,
        byCustomer(options),
        (i, invalid) =>
          invalid
            ? { recipient: {}, message: { id: `${options.runId}-${i}` } }
            : buildAgentPayload({ ...agentMessage(pick(options.mix, i)) }, `${options.runId}-${i}`),
      );
    }
    case 'channel': {
      const single = target(
        options,
        options.url,
        CHANNEL_POLICY,
        judgeStatus200,
        byCustomer(options),
        (i, invalid) => ({
          sender: { id: invalid ? '' : `load-customer-${i % options.customers}` },
          message: { ...customerMessage(pick(options.mix, i)), id: `${options.runId}-${i}` },
        }),
      );
      const thinkTimeMs = options.thinkTimeMs;
      if (thinkTimeMs === undefined) return single;
      return {
        ...single,
        fire: (i, invalid, limiter, signal, observer) =>
          invalid
            ? single.fire(i, invalid, limiter, signal, observer)
            : fireConversation(options, thinkTimeMs, i, { limiter, signal, observer }),
      };
    }
    case 'bot': {
      const url = `${trim(options.url)}/${encodeURIComponent(options.token ?? '')}`; // spec 4.3
      const chats = byCustomer(options);
      // this run's chats and clients: a bot with a database must not take a second run's
      // chat for the first one's (spec 2.5: ids are unique within the account)
      const base = runIdBase(options.runId);
      return target(
        options,
        url,
        BOT_DELIVERY_POLICY,
        judgeStatus200,
        (i) => [chats(i)[0], base + chats(i)[0]],
        (i, invalid) => ({
          // spec 2.5, 6.1: event, id, client_id, chat_id, message
          event: invalid ? 'NOT_AN_EVENT' : 'CLIENT_MESSAGE',
          id: `${options.runId}-${i}`,
          // digits in a string, as the platform sends them (docs/FIDELITY.md 2.5)
          client_id: String(base + CLIENTS_AFTER + (i % options.customers)),
          chat_id: String(base + (i % options.customers)),
          message: {
            type: 'TEXT',
            text: `load message ${i}`,
            timestamp: options.clock.epochSeconds(),
          },
        }),
      );
    }
    case 'hooks': {
      const events = options.events ?? HOOK_LIFECYCLE;
      const bodies = new Map(events.map((e) => [e, JSON.stringify(buildSampleHookEvent(e))]));
      const eventOf = (i: number): HookEventName => events[i % events.length] as HookEventName;
      const payload = (i: number, invalid: boolean): string =>
        invalid ? JSON.stringify({ event_name: eventOf(i) }) : (bodies.get(eventOf(i)) as string);
      return {
        role: 'hooks',
        url: options.url,
        policy: HOOK_DELIVERY_POLICY,
        payload,
        fire: (i, invalid, limiter, signal, observer) => {
          const event = eventOf(i);
          const body = payload(i, invalid);
          // one conversation per round of the events: a chat's lifecycle
          const rank = Math.floor(i / events.length);
          return fireSeries(options, options.url, HOOK_DELIVERY_POLICY, {
            body,
            traced: options.trace?.series(rank, rank + 1, body),
            // spec 4.4, 6.2: 200 with the event's reply
            judge: (reply) => {
              const { verdict } = checkReply(event, reply.status, reply.body);
              const first = verdict.errors[0];
              return verdict.ok || !first
                ? { accepted: true }
                : {
                    accepted: false,
                    reason: `${first.path ? `${first.path}: ` : ''}${first.rule}`,
                  };
            },
            id: `${options.runId}-${i}`,
            limiter,
            signal,
            observer,
          });
        },
      };
    }
    default: {
      const never: never = options.role;
      throw new Error(`unknown role ${String(never)}`);
    }
  }
}

function judgeStatus200(reply: { status: number }): ReplyJudgement {
  return reply.status === 200
    ? { accepted: true }
    : { accepted: false, reason: `HTTP ${reply.status}` };
}

/** Payload i's conversation: its rank (0-based, dense) and chat number. */
type ConversationOf = (index: number) => readonly [rank: number, chat: number];

/** One conversation per customer, as the payloads cycle through them. */
const byCustomer =
  (options: LoadTargetOptions): ConversationOf =>
  (i) => {
    const k = i % options.customers;
    return [k, k + 1];
  };

/** Where a run's client ids start after its chat ids (`load bot`). */
const CLIENTS_AFTER = 100_000;

/**
 * The first chat id of a `load bot` run: one of 200 blocks of ten million, picked by the run
 * id, from 100,000. The ids stay below 2^31 (a bot may keep them in a 32-bit integer column,
 * docs/FIDELITY.md 2.5).
 * @example runIdBase('load-m3x') // 100000 + 10000000 * <0..199>
 */
export function runIdBase(runId: string): number {
  let hash = 0;
  for (let i = 0; i < runId.length; i++) hash = (hash * 31 + runId.charCodeAt(i)) >>> 0;
  return 100_000 + (hash % 200) * 10_000_000;
}

function target(
  options: LoadTargetOptions,
  url: string,
  policy: DeliveryPolicy,
  judge: (reply: { status: number; body: string }) => ReplyJudgement,
  conversationOf: ConversationOf,
  build: (index: number, invalid: boolean) => unknown,
): LoadTarget {
  const payload = (i: number, invalid: boolean): string => JSON.stringify(build(i, invalid));
  const traced = (i: number, body: string): TracedSeries | undefined => {
    if (!options.trace) return undefined;
    const [rank, chat] = conversationOf(i);
    return options.trace.series(rank, chat, body);
  };
  return {
    role: options.role,
    url,
    policy,
    payload,
    fire: (i, invalid, limiter, signal, observer) => {
      const body = payload(i, invalid);
      return fireSeries(options, url, policy, {
        body,
        traced: traced(i, body),
        judge,
        id: `${options.runId}-${i}`,
        limiter,
        signal,
        observer,
      });
    },
  };
}

/** One series through `deliver()`: the engine the simulator itself uses. */
async function fireSeries(
  options: LoadTargetOptions,
  url: string,
  policy: DeliveryPolicy,
  series: {
    body: string;
    id: string;
    /** `--report`: the journal, chat and kind this series records under */
    traced?: TracedSeries | undefined;
    judge: (reply: { status: number; body: string }) => ReplyJudgement;
    limiter: OutboundLimiter;
    signal: AbortSignal;
    observer?: AttemptObserver | undefined;
  },
): Promise<SeriesOutcome> {
  const attempts: AttemptFigure[] = [];
  let saturated = false;
  // wall time the attempt now on the wire went out, if one is
  let onWireSince: number | undefined;
  const { limiter } = series;
  // The generator's limiter refuses a payload at once when every series slot is taken: that
  // is the generator's limit, not the endpoint's failure, and is reported as "not sent".
  const watching: OutboundLimiter = {
    acquire: async (signal) => {
      const grant = await limiter.acquire(signal);
      if (!grant.ok) saturated = true;
      else {
        onWireSince = performance.now();
        series.observer?.started((attempts.at(-1)?.attempt ?? 0) + 1);
      }
      return grant;
    },
    admit: async (signal) => {
      const grant = await limiter.admit(signal);
      if (!grant.ok) saturated = true;
      return grant;
    },
    get waitingSeries() {
      return limiter.waitingSeries;
    },
    get backlogFull() {
      return limiter.backlogFull;
    },
    get inFlight() {
      return limiter.inFlight;
    },
    get queued() {
      return limiter.queued;
    },
    get peakInFlight() {
      return limiter.peakInFlight;
    },
  };
  const result = await deliver({
    deliveryId: series.id,
    target: options.role === 'bot' ? 'bot' : options.role === 'hooks' ? 'hook' : 'integrator',
    url,
    body: series.body,
    policy,
    clock: options.clock,
    judge: series.judge,
    limiter: watching,
    signal: series.signal,
    ...(series.traced
      ? {
          journal: series.traced.journal,
          chatId: series.traced.chat,
          ...(series.traced.kind === undefined ? {} : { kind: series.traced.kind }),
        }
      : {}),
    emit: (event) => {
      if (event.type !== 'delivery-attempt') return;
      onWireSince = undefined;
      const figure: AttemptFigure = {
        attempt: event.attempt,
        wallMs: event.wallMs,
        accepted: event.outcome === 'accepted',
        ...(event.reason === undefined ? {} : { reason: event.reason }),
      };
      attempts.push(figure);
      series.observer?.ended(figure);
    },
  });
  const last = attempts.at(-1);
  const state: FinalState = saturated ? 'not-sent' : result.result;
  return {
    state,
    attempts,
    ...(state === 'interrupted' && onWireSince !== undefined
      ? {
          cutShort: {
            attempt: (attempts.at(-1)?.attempt ?? 0) + 1,
            wallMs: performance.now() - onWireSince,
          },
        }
      : {}),
    ...(state === 'delivered' || state === 'error-reply' || !last?.reason
      ? {}
      : { reason: last.reason }),
  };
}

/**
 * Think time is wall time, whatever the run's time scale. Its sleeps wait on the run's stop
 * signal through one listener (src/io/on-abort.ts), not one per conversation.
 */
const wallClock = createClock();

/**
 * One customer's conversation: its messages in order, `thinkTimeMs` apart, each one attempt
 * (spec 4.1); the series ends at the first message not answered 200.
 */
async function fireConversation(
  options: LoadTargetOptions,
  thinkTimeMs: number,
  index: number,
  run: { limiter: OutboundLimiter; signal: AbortSignal; observer: AttemptObserver | undefined },
): Promise<SeriesOutcome> {
  const { limiter, signal, observer } = run;
  const entry = pick(options.mix, index);
  const messages = entry.messages ?? [customerMessage(entry)];
  const attempts: AttemptFigure[] = [];
  for (const [k, message] of messages.entries()) {
    if (k > 0) {
      try {
        await wallClock.sleep(thinkTimeMs, signal);
      } catch {
        return { state: 'interrupted', attempts };
      }
    }
    const body = JSON.stringify({
      sender: { id: `load-customer-${index % options.customers}` },
      message: { ...message, id: `${options.runId}-${index}-${k}` },
    });
    const outcome = await fireSeries(options, options.url, CHANNEL_POLICY, {
      body,
      // each arrival is one customer's whole conversation
      traced: options.trace?.series(index, index + 1, body),
      id: `${options.runId}-${index}-${k}`,
      judge: judgeStatus200,
      limiter,
      signal,
      observer,
    });
    attempts.push(...outcome.attempts);
    // a conversation cut short keeps its message's attempt on the wire (outcome.cutShort)
    if (outcome.state !== 'delivered') return { ...outcome, attempts };
  }
  return { state: 'delivered', attempts };
}

function pick(mix: readonly MixEntry[], index: number): MixEntry {
  // a deterministic weighted round: entry k takes weight_k of every sum(weights) indexes
  const total = mix.reduce((sum, e) => sum + e.weight, 0);
  let slot = index % total;
  for (const entry of mix) {
    if (slot < entry.weight) return entry;
    slot -= entry.weight;
  }
  return mix[0] as MixEntry;
}

function agentMessage(entry: MixEntry): { type: string } & Record<string, unknown> {
  if (entry.kind === 'text')
    return { type: 'text', text: 'Thanks for waiting, your order ships today.' };
  if (entry.kind === 'typing') return { type: 'typein' };
  return buildSampleMedia(entry.kind);
}

function customerMessage(entry: MixEntry): Record<string, unknown> {
  if (entry.message) return entry.message;
  if (entry.kind === 'text') return { type: 'text', text: 'Hello, is my order on its way?' };
  if (entry.kind === 'typing') return { type: 'typein' };
  return buildSampleMedia(entry.kind);
}
