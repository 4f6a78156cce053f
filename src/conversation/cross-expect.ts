import { describeMismatches, isMatch, matchPartial } from './match.js';
import type { Observation } from './world.js';

/*
 * The cross-interface parts of an expectation (format.ts): `after` a named step within a time
 * budget, `where` dotted paths hold values, and `order` across the parties.
 */

/**
 * When each named step began and ended (protocol ms), and how many observations there were
 * as it began, for `after`.
 */
/** When a step ran: protocol ms, and the index of the first observation it may have caused. */
export interface StepTime {
  /** the step's name, or its number and description (`1. customer says "Hello"`) */
  label: string;
  startMs: number;
  firstSeen: number;
  endMs: number;
}

/** The steps run so far: by name (what `after` names), and all of them in order. */
export interface StepTimes {
  readonly byName: ReadonlyMap<string, StepTime>;
  readonly all: readonly StepTime[];
}

/**
 * The step during which observation `index` came (the last to begin before it), for a
 * payload that came too early: which step caused it.
 */
export function stepOfObservation(times: StepTimes, index: number): StepTime | undefined {
  let during: StepTime | undefined;
  for (const step of times.all) if (step.firstSeen <= index) during = step;
  return during;
}

/** The value at a dotted path (`chat.messages.length`, `messages.0.text`), or undefined. */
export function valueAt(value: unknown, path: string): unknown {
  let here: unknown = value;
  for (const key of path.split('.')) {
    if (here === null || typeof here !== 'object') return undefined;
    if (key === 'length' && Array.isArray(here)) here = here.length;
    else here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** The lines that say which `where` paths do not hold on `value` (empty: all hold). */
export function whereMismatches(
  where: Readonly<Record<string, unknown>> | undefined,
  value: unknown,
  toleranceMs = 0,
): string[] {
  if (!where) return [];
  return Object.entries(where).flatMap(([path, expected]) => {
    const actual = valueAt(value, path);
    if (isMatch(expected, actual, '', toleranceMs)) return [];
    const inner = describeMismatches(matchPartial(expected, actual, '', toleranceMs));
    return [
      `where ${path}: expected ${JSON.stringify(expected)}, got ${actual === undefined ? 'nothing' : JSON.stringify(actual)}${inner.length > 1 ? ` (${inner.join('; ')})` : ''}`,
    ];
  });
}

/**
 * Whether an observation falls in the window of `after`: it came once the step began, and by
 * its end plus `within`. An observation without a time (a remote simulator's event) only has
 * to exist.
 */
export function inWindow(o: Observation, index: number, window: ExpectWindow | undefined): boolean {
  if (!window) return true;
  return !cameBefore(o, index, window) && (o.at === undefined || when(o) <= window.byMs);
}

/**
 * An `after` expectation's window: from the named step's start (its protocol ms, and how
 * many observations there were then) to its end plus `within`.
 */
export interface ExpectWindow {
  fromMs: number;
  /** observations seen before the step began: on the virtual clock a whole conversation can
   * take place at protocol 0, so the time alone cannot tell before from after */
  fromIndex: number;
  byMs: number;
}

/** When the party got it: a real peer's sighting comes with its answer, later than it was sent. */
const when = (o: Observation): number => o.sentAt ?? o.at ?? 0;

/** Whether observation `o` (the `index`th seen) came before the window's step began. */
export function cameBefore(o: Observation, index: number, window: ExpectWindow): boolean {
  return index < window.fromIndex || (o.at !== undefined && when(o) < window.fromMs);
}

/** What one `order` label names: `hook:chat_accepted`, `integrator:agent-message`, ... */
export function matchesLabel(o: Observation, label: string): boolean {
  const at = label.indexOf(':');
  const party = label.slice(0, at);
  const what = label.slice(at + 1);
  if (o.party !== party) return false;
  const v = (o.value ?? {}) as Record<string, unknown>;
  switch (o.party) {
    case 'hook':
      return (
        v.event_name === what || (what === 'offline_message' && v.event_name === 'offline_messages')
      );
    case 'bot':
      return v.event === what;
    case 'integrator': {
      if (what === 'agent-message') return true;
      const message = (v.message ?? {}) as Record<string, unknown>;
      return message.type === what;
    }
    case 'event':
      return v.type === what;
    case 'page':
      return v.name === what;
  }
}

/** A short name of an observation for a failure line: `hook:chat_finished`. */
function labelOf(o: Observation): string {
  const v = (o.value ?? {}) as Record<string, unknown>;
  const message = (v.message ?? {}) as Record<string, unknown>;
  const what =
    o.party === 'hook'
      ? v.event_name
      : o.party === 'bot'
        ? v.event
        : o.party === 'integrator'
          ? message.type
          : o.party === 'page'
            ? v.name
            : v.type;
  return `${o.party}:${typeof what === 'string' ? what : '?'}`;
}

/**
 * The observations in the order the parties were sent them. A real peer's sighting is seen
 * when its answer comes, so a slow answer to the first of two hooks would otherwise put the
 * second first. Without a time on each (a remote simulator's events), the order they came.
 */
function inSentOrder(observations: readonly Observation[]): readonly Observation[] {
  // embedded roles see a request as it is sent: their arrival order is already the one, and
  // `order` polls this until it holds, so nothing is copied or sorted without a real peer
  if (!observations.some((o) => o.sentAt !== undefined)) return observations;
  const timed: { o: Observation; i: number; t: number }[] = [];
  for (const [i, o] of observations.entries()) {
    const t = o.sentAt ?? o.at;
    if (t === undefined) return observations;
    timed.push({ o, i, t });
  }
  return timed.sort((a, b) => a.t - b.t || a.i - b.i).map(({ o }) => o);
}

/**
 * The first observation of each label, in the order given: the problems (empty: in order),
 * or undefined while one has not come yet.
 */
export function orderProblems(
  seenInArrivalOrder: readonly Observation[],
  labels: readonly string[],
): string[] | undefined {
  const observations = inSentOrder(seenInArrivalOrder);
  const firsts = labels.map((label) => observations.findIndex((o) => matchesLabel(o, label)));
  if (firsts.some((i) => i < 0)) return undefined;
  for (let i = 1; i < firsts.length; i++) {
    if ((firsts[i] ?? 0) > (firsts[i - 1] ?? 0)) continue;
    const seen = observations
      .filter((o) => labels.some((label) => matchesLabel(o, label)))
      .map(labelOf);
    return [
      `expected ${labels.join(' → ')}; ${labels[i]} came before ${labels[i - 1]}`,
      `in the order they were sent: ${[...new Set(seen)].join(' → ')}`,
    ];
  }
  return [];
}

/** The labels not seen at all, for the failure line of an `order` that timed out. */
export function missingLabels(
  observations: readonly Observation[],
  labels: readonly string[],
): string[] {
  return labels.filter((label) => !observations.some((o) => matchesLabel(o, label)));
}
