/**
 * Redelivery series seen on the wire: attempts of one message recognised by
 * `message.id` or the event `id`, else a hash of the body (`messageKeyOf`), with the gap to
 * the first attempt against the policy's schedule (spec 8: 0, 3, 6 s to the integrator;
 * the bot's 2 attempts of 3 s), and how the series ended.
 */
import { attemptOffsetMs, type DeliveryPolicy } from '../contract/timing.js';

export interface AttemptInfo {
  /** 1-based attempt number of this message */
  attempt: number;
  /** the policy's attempt count, when the caller is the platform */
  of?: number;
  /** protocol ms since the first attempt */
  gapMs: number;
  /** where the policy puts this attempt: (attempt - 1) x interval */
  expectedGapMs?: number;
}

export type SeriesOutcome =
  { kind: 'delivered'; attempts: number } | { kind: 'gave-up'; attempts: number; then: string };

interface Series {
  firstAt: number;
  /** when its last attempt arrived: a repeat after a give-up continues it within the window */
  lastAt: number;
  attempts: number;
  /** accepted: a repeat of the message starts a new series */
  done: boolean;
  /**
   * the proxy called it given up (the policy's last attempt failed, or a refusal), and whether
   * the party's failure counted in `gaveUpByParty`: a repeat proves the platform had not
   */
  givenUp?: { byParty: boolean };
  /** an attempt failed by the upstream party's own doing (not the proxy's --fault) */
  partyFailed: boolean;
}

/** Series are remembered for this many distinct messages (bounded memory). */
const MAX_SERIES = 10_000;

export interface SeriesTracker {
  /** Counts an attempt of the message `key` arriving at protocol time `now`. */
  attempt(key: string, now: number): AttemptInfo;
  /**
   * The answer to that attempt: accepted ends the series; the last failed attempt too.
   * `injected`: the proxy's own fault answered (or slowed) it, not the party. `refused`: why
   * the answer ends the series unaccepted (no redelivery follows it).
   */
  settle(
    key: string,
    accepted: boolean,
    injected?: boolean,
    refused?: string,
  ): SeriesOutcome | undefined;
  /** messages seen more than once */
  readonly redelivered: number;
  readonly gaveUp: number;
  /** series given up with at least one failure of the party's own doing */
  readonly gaveUpByParty: number;
}

/**
 * @example const t = createSeriesTracker(CHANNEL_DELIVERY_POLICY, 'an error shown to the agent'); t.attempt('id:m1', 0);
 */
export function createSeriesTracker(
  policy: DeliveryPolicy | undefined,
  afterLastAttempt: string,
): SeriesTracker {
  const series = new Map<string, Series>();
  let redelivered = 0;
  let gaveUp = 0;
  let gaveUpByParty = 0;
  // how long after its last attempt a given-up series can still go on: the policy's whole
  // window (spec 8: an error at 9 s; the bot's 6 s; a hook's 10 s wait). Past it, the same
  // message again (an agent's "ok" with no message.id, hashed alike) is a message of its own
  const windowMs = policy ? Math.max(policy.failAfterMs, policy.attemptTimeoutMs) : Infinity;
  return {
    attempt(key, now) {
      let entry = series.get(key);
      if (entry?.givenUp && now - entry.lastAt <= windowMs) {
        // the proxy observes, it does not impose a policy: the platform tried the message again
        // after the attempts the policy allows (spec 8: 3), so the series goes on (attempt 4,
        // flagged beyond it) and was not given up after all
        gaveUp -= 1;
        if (entry.givenUp.byParty) gaveUpByParty -= 1;
        delete entry.givenUp;
        series.delete(key);
        series.set(key, entry);
      } else if (!entry || entry.done || entry.givenUp) {
        entry = { firstAt: now, lastAt: now, attempts: 0, done: false, partyFailed: false };
        series.delete(key);
        series.set(key, entry);
        if (series.size > MAX_SERIES) {
          const oldest = series.keys().next().value;
          if (oldest !== undefined) series.delete(oldest);
        }
      }
      entry.attempts += 1;
      entry.lastAt = now;
      if (entry.attempts === 2) redelivered += 1;
      const info: AttemptInfo = { attempt: entry.attempts, gapMs: now - entry.firstAt };
      if (policy) {
        info.of = policy.attempts;
        // beyond the policy's attempts, it has no place for this one
        if (entry.attempts <= policy.attempts)
          info.expectedGapMs = attemptOffsetMs(policy, entry.attempts);
      }
      return info;
    },
    settle(key, accepted, injected = false, refused = undefined) {
      const entry = series.get(key);
      if (!entry || entry.done || entry.givenUp) return undefined;
      if (accepted) {
        entry.done = true;
        return { kind: 'delivered', attempts: entry.attempts };
      }
      if (!injected) entry.partyFailed = true;
      if (refused !== undefined || (policy && entry.attempts >= policy.attempts)) {
        entry.givenUp = { byParty: entry.partyFailed };
        gaveUp += 1;
        if (entry.partyFailed) gaveUpByParty += 1;
        return { kind: 'gave-up', attempts: entry.attempts, then: refused ?? afterLastAttempt };
      }
      return undefined;
    },
    get redelivered() {
      return redelivered;
    },
    get gaveUpByParty() {
      return gaveUpByParty;
    },
    get gaveUp() {
      return gaveUp;
    },
  };
}
