/**
 * `record diff`: two observations (observe.ts) compared point by point. Each difference has
 * a severity: `behaviour` (what a peer sees happen: kinds sent, statuses, an error object in
 * success answers, attempts, timings, ordering), `shape` (fields, their forms, Content-Type)
 * or `cosmetic` (how often an optional field shows, the transfer framing, the platform's
 * Keep-Alive).
 */
import { plural } from '../../plural.js';
import type { Figure, KindObservation, RecordingObservation, Tally } from './observe.js';

export type Severity = 'behaviour' | 'shape' | 'cosmetic';
export const SEVERITIES: readonly Severity[] = ['behaviour', 'shape', 'cosmetic'];

export type DiffAspect =
  | 'kind'
  | 'status'
  | 'field'
  | 'response-field'
  | 'error-response-field'
  | 'answer-error'
  | 'content-type'
  | 'transfer'
  | 'keep-alive'
  | 'attempts'
  | 'outcome'
  | 'offset'
  | 'timeout'
  | 'hand-over'
  | 'order';

export interface Difference {
  severity: Severity;
  /** the payload kind, or `order` for the order across interfaces */
  kind: string;
  aspect: DiffAspect;
  /** the field path, attempt number or pair of kinds the difference is about */
  subject?: string;
  /** one line: what differs, with the counts behind it */
  detail: string;
  /**
   * whose doing the difference is: the platform's (what it sends, when it resends, how it
   * answers), the peer's that faces it (what the integrator, bot or receiver answers or sends),
   * or both (attempts and outcomes follow the peer's answers under the platform's policy). A
   * staging recording against the simulator's is about the platform's lines.
   */
  by: DifferenceBy;
  /** the peer, when `by` is `peer`: integrator, bot, hook receiver, page */
  peer?: string;
  a: unknown;
  b: unknown;
}

export type DifferenceBy = 'platform' | 'peer' | 'both';

/** The party across the platform on each interface. */
const PEER_OF: Readonly<Record<string, string>> = {
  channel: 'integrator',
  bot: 'bot',
  hook: 'hook receiver',
  widget: 'page',
};

/** What the platform itself decides of an exchange it sends (out) or answers (in). */
const PLATFORM_OUT = new Set<DiffAspect>([
  'kind',
  'field',
  'transfer',
  'offset',
  'timeout',
  'hand-over',
]);
const PLATFORM_IN = new Set<DiffAspect>([
  'status',
  'response-field',
  'error-response-field',
  'answer-error',
  'keep-alive',
]);

/**
 * Whose doing a difference of this aspect is, for a kind the platform sends or answers: the
 * request of an outgoing kind and the answer of an incoming one are the platform's; the
 * other half is the peer's.
 */
function byOf(
  direction: 'in' | 'out',
  aspect: DiffAspect,
  subject: string | undefined,
): DifferenceBy {
  if (aspect === 'order' || aspect === 'attempts' || aspect === 'outcome') return 'both';
  if (aspect === 'content-type') {
    const platformSide = (subject === 'request') === (direction === 'out');
    return platformSide ? 'platform' : 'peer';
  }
  if (aspect === 'kind') return direction === 'out' ? 'platform' : 'peer';
  return (direction === 'out' ? PLATFORM_OUT : PLATFORM_IN).has(aspect) ? 'platform' : 'peer';
}

export interface DiffOptions {
  /** timing figures (means) closer than this are the same; default 250 ms */
  timingToleranceMs?: number;
  /** the names the lines give the two sides (default `a` and `b`) */
  names?: [string, string];
}

export interface DiffResult {
  differences: Difference[];
  counts: Record<Severity, number>;
  /**
   * kinds seen on one side only, on a leg (interface and direction) the other side recorded
   * nothing of: a `proxy channel` recording, a proxy whose integrator leg never came through.
   * The other side could not have seen them, so they are no difference.
   */
  unobservable: Unobservable[];
}

/** Kinds of one leg that one side (`side`) recorded nothing of. */
export interface Unobservable {
  /** the side that did not record the leg */
  side: 'a' | 'b';
  /** `platform -> integrator (channel)` */
  leg: string;
  /** the kinds the other side saw on it, with their exchanges there */
  kinds: Record<string, number>;
}

/**
 * The leg of a kind: its interface and who sent the request, as a platform records it
 * (`out`: the platform sent it).
 * @example legOf({ iface: 'channel', direction: 'out' }) // 'platform -> integrator (channel)'
 */
export function legOf(observed: Pick<KindObservation, 'iface' | 'direction'>): string {
  const peer = PEER_OF[observed.iface] ?? observed.iface;
  const [from, to] = observed.direction === 'out' ? ['platform', peer] : [peer, 'platform'];
  return `${from} -> ${to} (${observed.iface})`;
}

const legsOf = (seen: RecordingObservation): Set<string> =>
  new Set(Object.values(seen.kinds).map(legOf));

/** @example formatTally({ '200': 3, '503': 1 }) // '200 x3, 503 x1' */
export function formatTally(tally: Tally | undefined): string {
  const entries = Object.entries(tally ?? {});
  if (entries.length === 0) return 'none';
  return entries
    .sort((x, y) => y[1] - x[1] || x[0].localeCompare(y[0]))
    .map(([k, n]) => `${k} x${n}`)
    .join(', ');
}

const sameKeys = (a: Tally, b: Tally): boolean => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => k in b);
};

const total = (tally: Tally | undefined): number =>
  Object.values(tally ?? {}).reduce((s, n) => s + n, 0);

const ms = (figure: Figure): string =>
  figure.n === 1 || figure.min === figure.max
    ? `${Math.round(figure.mean)} ms`
    : `${Math.round(figure.mean)} ms (${Math.round(figure.min)}-${Math.round(figure.max)})`;

/** The path a field hangs from: `a.b` of `a.b.c`, `a` of `a[]`; '' at the top. */
function parentOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('.'), path.endsWith('[]') ? path.length - 2 : -1);
  return cut <= 0 ? '' : path.slice(0, cut);
}

/**
 * Compares two recordings' observations.
 * @example diffObservations(await observeRecordings(['a.ndjson']), await observeRecordings(['b.ndjson'])).counts.behaviour
 */
export function diffObservations(
  a: RecordingObservation,
  b: RecordingObservation,
  options: DiffOptions = {},
): DiffResult {
  const tolerance = options.timingToleranceMs ?? 250;
  const [na, nb] = options.names ?? ['a', 'b'];
  const out: Difference[] = [];
  const push = (d: Difference) => out.push(d);
  /** a difference of a kind, marked with whose doing it is */
  const pushFor =
    (observed: KindObservation) =>
    (d: Omit<Difference, 'by' | 'peer'>): void => {
      const by = byOf(observed.direction, d.aspect, d.subject);
      const peer = PEER_OF[observed.iface];
      push({ ...d, by, ...(by === 'peer' && peer !== undefined ? { peer } : {}) });
    };

  const legs = { a: legsOf(a), b: legsOf(b) };
  const unobservable = new Map<string, Unobservable>();
  const kinds = [...new Set([...Object.keys(a.kinds), ...Object.keys(b.kinds)])].sort();
  for (const kind of kinds) {
    const ka = a.kinds[kind];
    const kb = b.kinds[kind];
    if (!ka || !kb) {
      const [has, name] = ka ? [ka, na] : [kb!, nb];
      // a side that recorded nothing of this leg could not have seen the kind: no drift
      const leg = legOf(has);
      const missing = ka ? 'b' : 'a';
      if (!legs[missing].has(leg)) {
        const entry = unobservable.get(`${missing} ${leg}`) ?? { side: missing, leg, kinds: {} };
        entry.kinds[kind] = has.count;
        unobservable.set(`${missing} ${leg}`, entry);
        continue;
      }
      pushFor(has)({
        severity: 'behaviour',
        kind,
        aspect: 'kind',
        detail: `sent only in ${name} (${plural(has.count, 'exchange')})`,
        a: ka?.count ?? 0,
        b: kb?.count ?? 0,
      });
      continue;
    }
    compareKind(ka, kb, { na, nb, tolerance, push: pushFor(ka) });
  }

  for (const pair of [...new Set([...Object.keys(a.order), ...Object.keys(b.order)])].sort()) {
    const [from, to] = pair.split(' -> ');
    if (!from || !to || !a.kinds[from] || !a.kinds[to] || !b.kinds[from] || !b.kinds[to]) continue;
    if ((a.order[pair] ?? 0) > 0 !== (b.order[pair] ?? 0) > 0)
      push({
        severity: 'behaviour',
        kind: 'order',
        aspect: 'order',
        subject: pair,
        by: 'both',
        detail: `${pair} follows each other only in ${a.order[pair] ? na : nb} (x${a.order[pair] ?? b.order[pair]})`,
        a: a.order[pair] ?? 0,
        b: b.order[pair] ?? 0,
      });
  }

  const counts: Record<Severity, number> = { behaviour: 0, shape: 0, cosmetic: 0 };
  for (const d of out) counts[d.severity] += 1;
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  out.sort((x, y) => rank(x.severity) - rank(y.severity));
  return { differences: out, counts, unobservable: [...unobservable.values()] };
}

interface Ctx {
  na: string;
  nb: string;
  tolerance: number;
  push: (d: Omit<Difference, 'by' | 'peer'>) => void;
}

function compareKind(ka: KindObservation, kb: KindObservation, ctx: Ctx): void {
  const { na, nb, tolerance, push } = ctx;
  const kind = ka.kind;
  const tallies = (
    severity: Severity,
    aspect: DiffAspect,
    what: string,
    x: Tally,
    y: Tally,
    subject?: string,
  ) => {
    if (total(x) === 0 || total(y) === 0 || sameKeys(x, y)) return;
    push({
      severity,
      kind,
      aspect,
      ...(subject === undefined ? {} : { subject }),
      detail: `${what}: ${na} ${formatTally(x)}; ${nb} ${formatTally(y)}`,
      a: x,
      b: y,
    });
  };
  tallies('behaviour', 'status', 'status codes', ka.statuses, kb.statuses);
  compareFields(ka.fields, ka.count, kb.fields, kb.count, 'field', ctx, kind);
  // answers per outcome: an error answer's fields are no optional fields of the success
  // answer, and a side with no answer of an outcome has nothing of it to compare
  if (ka.answered.success > 0 && kb.answered.success > 0) {
    const shown = compareAnswerErrors(ka, kb, ctx);
    compareFields(
      ka.responseFields,
      ka.answered.success,
      kb.responseFields,
      kb.answered.success,
      'response-field',
      ctx,
      kind,
      shown,
    );
  }
  if (ka.answered.error > 0 && kb.answered.error > 0)
    compareFields(
      ka.errorResponseFields,
      ka.answered.error,
      kb.errorResponseFields,
      kb.answered.error,
      'error-response-field',
      ctx,
      kind,
    );
  tallies(
    'shape',
    'content-type',
    'request Content-Type',
    ka.headers.requestContentType,
    kb.headers.requestContentType,
    'request',
  );
  tallies(
    'shape',
    'content-type',
    'answer Content-Type',
    ka.headers.responseContentType,
    kb.headers.responseContentType,
    'response',
  );
  tallies('cosmetic', 'transfer', 'request framing', ka.headers.transfer, kb.headers.transfer);
  // Keep-Alive is a transport header: the answering HTTP server's idle timeout, which the
  // contract does not set and a correct peer copes with (it reconnects), so it never fails a
  // diff. Of the platform's own answers it is shown, as cosmetic (a profile carries it); the
  // answers to what the platform sent come from the peer's server (the integrator's, the
  // bot's: nothing of the platform) and are left out; a recording made in process (a
  // replay) has no Keep-Alive at all, which is no difference either.
  if (ka.direction === 'in')
    tallies(
      'cosmetic',
      'keep-alive',
      'answer Keep-Alive',
      ka.headers.keepAlive,
      kb.headers.keepAlive,
    );

  const timing = (aspect: DiffAspect, what: string, x?: Figure, y?: Figure, subject?: string) => {
    if (!x || !y || Math.abs(x.mean - y.mean) <= tolerance) return;
    push({
      severity: 'behaviour',
      kind,
      aspect,
      ...(subject === undefined ? {} : { subject }),
      detail: `${what}: ${na} ${ms(x)}; ${nb} ${ms(y)} (tolerance ${tolerance} ms)`,
      a: x,
      b: y,
    });
  };
  timing('timeout', 'an attempt times out after', ka.timeouts, kb.timeouts);
  const sa = ka.series;
  const sb = kb.series;
  if (sa && sb) {
    tallies('behaviour', 'attempts', 'attempts per message', sa.attempts, sb.attempts);
    tallies('behaviour', 'outcome', 'how the series ended', sa.outcomes, sb.outcomes);
    for (const n of Object.keys(sa.offsets).sort())
      timing('offset', `attempt ${n} starts after the first by`, sa.offsets[n], sb.offsets[n], n);
    timing(
      'hand-over',
      ka.iface === 'bot' ? 'the platform hands over after' : 'the platform gives up after',
      sa.gaveUpAfter,
      sb.gaveUpAfter,
    );
  }
}

/** The top-level field of an answer body that says the exchange failed (spec 4.2, 7.1, 7.2). */
const ANSWER_ERROR = 'error';
/**
 * The fields of a widget visitor's failure answer (spec 7.3: `{result:'fail'}` with its
 * `reason` or `error`): once the failures are compared, their presence says it again.
 */
const WIDGET_FAILURE_FIELDS = [ANSWER_ERROR, 'reason'] as const;

/**
 * 2xx answers that tell the sender it failed against those that do not, on each side: a
 * behaviour difference when one side gave a kind of answer the other never did (as status
 * codes are compared: what was seen, not how often). The contract's failure answer is
 * `{error:{code,message}}`, under a 200 on the integrator side (spec 4.2: "200 with {result}
 * or {error:{code,message}}"; spec 7.1: the agent is shown the error, there is no
 * redelivery) and as the error body of the bot interface (spec 7.2); a widget visitor's is
 * `{result:'fail'}` (spec 7.3; the widget transport's `{ok:false, error}`). So such an answer
 * tells whoever sent the request that it failed, whatever its status: not a field's shape.
 * Returns the answer fields that said it, so the field comparison does not say it again as a
 * shape (none when no line was pushed).
 */
function compareAnswerErrors(
  ka: KindObservation,
  kb: KindObservation,
  ctx: Ctx,
): readonly string[] {
  const { na, nb, push } = ctx;
  const widget = ka.iface === 'widget';
  const [failed, fine] = widget ? ['failure', 'no failure'] : ['error object', 'no error object'];
  const side = (k: KindObservation): Tally => {
    const tally: Tally = {};
    if (k.failedAnswers > 0) tally[failed] = k.failedAnswers;
    if (k.answered.success > k.failedAnswers) tally[fine] = k.answered.success - k.failedAnswers;
    return tally;
  };
  const x = side(ka);
  const y = side(kb);
  if (sameKeys(x, y)) return [];
  const of = (k: KindObservation) => `${k.failedAnswers} of ${k.answered.success}`;
  const what = widget
    ? "2xx answers telling the visitor's page it failed (result fail, spec 7.3)"
    : '2xx answers carrying an error object (the sender is told it failed, spec 7)';
  push({
    severity: 'behaviour',
    kind: ka.kind,
    aspect: 'answer-error',
    subject: ANSWER_ERROR,
    detail: `${what}: ${na} ${of(ka)}; ${nb} ${of(kb)}`,
    a: x,
    b: y,
  });
  return widget ? WIDGET_FAILURE_FIELDS : [ANSWER_ERROR];
}

function compareFields(
  fa: Record<string, Tally>,
  countA: number,
  fb: Record<string, Tally>,
  countB: number,
  aspect: 'field' | 'response-field' | 'error-response-field',
  ctx: Ctx,
  kind: string,
  /** paths already reported as behaviour: only a difference in their forms is added */
  shown: readonly string[] = [],
): void {
  const { na, nb, push } = ctx;
  const where = aspect === 'field' ? '' : aspect === 'response-field' ? 'answer ' : 'error answer ';
  for (const path of [...new Set([...Object.keys(fa), ...Object.keys(fb)])].sort()) {
    const x = fa[path];
    const y = fb[path];
    if (shown.includes(path) && !(x && y && !sameKeys(x, y))) continue;
    if (!x || !y) {
      // only the top of a missing subtree is worth a line
      const parent = parentOf(path);
      if (parent !== '' && !(x ? fb[parent] : fa[parent])) continue;
      const [has, count, name, other] = x ? [x, countA, na, nb] : [y!, countB, nb, na];
      push({
        severity: 'shape',
        kind,
        aspect,
        subject: path,
        detail: `${where}${path}: present in ${name} (${total(has)} of ${count}, ${formatTally(has)}), absent in ${other}`,
        a: x ?? null,
        b: y ?? null,
      });
      continue;
    }
    if (!sameKeys(x, y)) {
      push({
        severity: 'shape',
        kind,
        aspect,
        subject: path,
        detail: `${where}${path}: typed differently: ${na} ${formatTally(x)}; ${nb} ${formatTally(y)}`,
        a: x,
        b: y,
      });
      continue;
    }
    const alwaysA = total(x) >= countA;
    const alwaysB = total(y) >= countB;
    if (alwaysA !== alwaysB && parentOf(path) === '')
      push({
        severity: 'cosmetic',
        kind,
        aspect,
        subject: path,
        detail: `${where}${path}: in ${total(x)} of ${countA} in ${na}, ${total(y)} of ${countB} in ${nb}`,
        a: total(x),
        b: total(y),
      });
  }
}
