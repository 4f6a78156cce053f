/**
 * How the proxy judges one exchange: whether an answer ends a series, an attempt against a
 * profile's schedule, the drift from what a profile learned, and the journal record written
 * as the platform would record the exchange.
 */
import type { ContractIssue } from '../contract/types.js';
import {
  BOT_DELIVERY_POLICY,
  CHANNEL_DELIVERY_POLICY,
  judgeChannelReply,
  judgeChannelReplyByStatus,
  type ChannelReplyReading,
  type DeliveryPolicy,
} from '../contract/timing.js';
import type { ExchangeInput } from '../journal/index.js';
import { NOT_FORWARDED_NOTE } from '../journal/record.js';
import { answerDepartures, sentDepartures, type KindProfile } from './drift.js';
import type { LegName, LegSpec } from './legs.js';
import type { AttemptInfo } from './series.js';
import type { ProxyExchangeEvent } from './types.js';

/** An attempt further than this from the profile's schedule departs from it. */
const PROFILE_TOLERANCE_MS = 500;

/** A caller leaving after this share of the budget is the platform's own timeout. */
export const CALLER_GONE_AT = 0.9;

/** What a series is called in its lines: the message (or event) id, else the body's hash. */
export const seriesName = (key: string): string =>
  key.startsWith('id:') ? key.slice(3) : `body ${key.slice(0, 12)}`;

/**
 * What an answer does to its series: accepted (it ends), retry (another attempt follows), or
 * refused (it ends unaccepted, no redelivery: an integrator's 4xx under the docs reading, the
 * Chat API page).
 */
export function verdictOf(
  leg: LegSpec,
  status: number,
  body: string,
  replies: ChannelReplyReading = 'spec',
): 'accepted' | 'retry' | 'refused' {
  if (leg.name !== 'integrator') return status >= 200 && status < 300 ? 'accepted' : 'retry';
  const judged =
    replies === 'docs'
      ? judgeChannelReplyByStatus({ status, body })
      : judgeChannelReply({ status, body });
  if (judged.accepted) return 'accepted';
  return judged.final ? 'refused' : 'retry';
}

export const REFUSED =
  "the platform shows the agent the refusal at once and does not resend (the Chat API page's 4xx)";

/** What the platform does after the last attempt of an event to the bot other than CLIENT_MESSAGE. */
export const PROVIDER_DROPS =
  'the platform drops the event; only a CLIENT_MESSAGE hands the chat over (spec 3, 8)';

/** The start of what the platform does after the bot's last attempt at a CLIENT_MESSAGE. */
export const HANDS_OVER = 'the platform hands the chat to an agent';

export const GAVE_UP: Record<LegName, string> = {
  integrator: 'the platform shows the agent an error (spec 8: after 9 s)',
  provider: `${HANDS_OVER} (spec 8)`,
  receiver: 'the platform does not redeliver hooks (assumed; the spec is silent)',
  platform: '',
};

/**
 * What the platform does after a leg's last attempt, under a profile whose give-up differs
 * from the spec's: the profile's time, the spec's beside it (a line quoting 9 s under a
 * profile that gives up at 6 s read as the proxy's mistake).
 */
export function gaveUpUnder(
  leg: LegName,
  policy: DeliveryPolicy | undefined,
  profile: string | undefined,
): string {
  const spec = leg === 'integrator' ? CHANNEL_DELIVERY_POLICY : BOT_DELIVERY_POLICY;
  if (leg === 'receiver' || leg === 'platform' || profile === undefined) return GAVE_UP[leg];
  if (policy === undefined || policy.failAfterMs === spec.failAfterMs) return GAVE_UP[leg];
  const at = `after ${policy.failAfterMs / 1000} s under profile ${profile}; spec 8: ${spec.failAfterMs / 1000} s`;
  return leg === 'integrator'
    ? `the platform shows the agent an error (${at})`
    : `${HANDS_OVER} (${at})`;
}

/**
 * Under a profile: the profile's name, and whether the attempt departs from its schedule (more
 * attempts than it makes, or further than the tolerance from where it puts this one).
 */
export function profileMarkOf(name: string | undefined) {
  return (a: AttemptInfo): { against?: string; departs?: boolean } => {
    if (name === undefined) return {};
    const late =
      a.expectedGapMs !== undefined && Math.abs(a.gapMs - a.expectedGapMs) > PROFILE_TOLERANCE_MS;
    const beyond = a.of !== undefined && a.attempt > a.of;
    return { against: name, ...(late || beyond ? { departs: true } : {}) };
  };
}

/** The exchange's departures from the profile's kinds, when there are any (`drift`). */
export function driftOf(
  leg: LegSpec,
  kinds: Readonly<Record<string, KindProfile>> | undefined,
  kind: string | undefined,
  body: string,
  status: number | undefined,
): { drift?: string[] } {
  const learned = kinds && kind ? kinds[kind] : undefined;
  if (!learned) return {};
  const drift =
    leg.caller === 'platform'
      ? sentDepartures(learned, body)
      : leg.answerer === 'platform'
        ? answerDepartures(learned, status)
        : [];
  return drift.length > 0 ? { drift } : {};
}

/** The exchange as the platform's journal would record it (spec 8: its attempts judged alike). */
export function journalInput(
  leg: LegSpec,
  event: ProxyExchangeEvent,
  requestHeaders: Record<string, string>,
  requestBody: string,
  answerHeaders: Record<string, string>,
  answerBody: string,
  wallMs: number,
): ExchangeInput {
  const errors = [...event.requestIssues, ...event.answerIssues].filter(
    (i) => i.severity === 'error',
  );
  const warnings = [...event.requestIssues, ...event.answerIssues].filter(
    (i) => i.severity !== 'error',
  );
  const text = (i: ContractIssue): string => `${i.path === '' ? '(root)' : i.path}: ${i.rule}`;
  const notes = ['proxy', `leg:${leg.name}`];
  // an attempt of the platform's, judged as the platform's journal judges it (spec 8): a slow
  // 200 did not end the series; what read it (trace, coverage, record diff) sees the same
  if (event.attempt)
    notes.push(
      event.accepted
        ? 'accepted'
        : `rejected: ${event.failure?.reason ?? (event.slow ? 'over the budget' : `HTTP ${event.status ?? ''}`)}`,
    );
  if (event.slow) notes.push(`over the ${event.budgetMs ?? 0} ms budget`);
  if (event.outcome?.kind === 'gave-up') notes.push('gave up');
  if (!event.forwarded) notes.push(NOT_FORWARDED_NOTE);
  return {
    at: event.at,
    protocolMs: event.protocolMs,
    iface: leg.iface,
    direction: leg.direction,
    ...(event.kind === undefined ? {} : { kind: event.kind }),
    ...(event.attempt ? { attempt: event.attempt.attempt } : {}),
    request: {
      method: event.method,
      url: event.upstream,
      headers: requestHeaders,
      ...(requestBody === '' ? {} : { body: requestBody }),
    },
    ...(event.status === undefined
      ? {}
      : { response: { status: event.status, headers: answerHeaders, body: answerBody } }),
    ...(event.failure ? { failure: event.failure } : {}),
    durationMs: event.durationMs,
    wallMs,
    verdict: { ok: errors.length === 0, errors: errors.map(text), warnings: warnings.map(text) },
    ...(event.fault === undefined ? {} : { fault: event.fault }),
    notes,
  };
}
