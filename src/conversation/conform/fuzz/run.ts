/**
 * `conform hooks|integrator --fuzz N`: property-based traffic from the contract
 * against a user's endpoint. Each generated payload (arbitraries.ts) is delivered as the
 * platform would, then delivered again as a redelivery would (spec 8), and four properties
 * are checked on the peer: it survives (no 5xx, reset or hang), it answers within the
 * spec's budget, its answer is valid for that request, and it answers the redelivery the
 * same way. fast-check shrinks a failure to the fewest mutations; the seed and path replay it
 * exactly (`--seed S --fuzz-path P`), and the minimal request is written to a file with the
 * command that reproduces it.
 */
import { randomInt } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { writeFileWholeAsync } from '../../../io/write-whole.js';
import { join, resolve } from 'node:path';
import fc from 'fast-check';
import type { Clock } from '../../../clock.js';
import { validateMaybeHookReply } from '../../../contract/hook-reply.js';
import { postJson, type PostOutcome } from '../../../http/client.js';
import {
  CHANNEL_DELIVERY_POLICY,
  HOOK_DELIVERY_POLICY,
  judgeChannelReply,
} from '../../../contract/timing.js';
import type { ConformCase } from '../case.js';
import { SvcError } from '../../../errors.js';
import type { PayloadArbitrary, Mutations } from './arbitraries.js';
import { plural } from '../../../plural.js';
import { agentMessageArbitraries, hookArbitraries, sweepCases } from './payloads.js';
import { HOOK_LIFECYCLE } from '../../../roles/hooks/samples.js';
import { integratorDeliveryUrl } from '../../../contract/integrator-url.js';

/** spec 3: the order a chat's hooks come in; offline_message stands apart, last. */
const HOOK_ORDER: readonly string[] = [...HOOK_LIFECYCLE];

export const FUZZ_PROPERTIES = [
  'survives: no 5xx, no reset, no hang',
  'answers within the budget',
  'answers validly for the request',
  'answers a redelivery the same way',
] as const;
export type FuzzProperty = (typeof FUZZ_PROPERTIES)[number];

/** The generated cases finished so far in one run, and its seed. */
export interface FuzzTally {
  finished: number;
  failed: number;
  seed: number;
}

export interface FuzzSettings {
  /** generated cases (with `timeLimitMs` alone: as many as fit) */
  runs: number;
  /** wall ms after which no new case starts (`--fuzz-time`) */
  timeLimitMs?: number;
  /** as each case starts: how many ran so far */
  onCase?: (done: number) => void;
  /**
   * as each case ends: the tally so far, which an interrupted run reports (the suite's own
   * result exists only once fast-check has finished)
   */
  onCaseDone?: (tally: FuzzTally) => void;
  /**
   * `--fuzz-stateful`: each case is a sequence of 2-8 payloads of one chat, in lifecycle
   * order (hooks) or as one conversation's agent messages (integrator), delivered in turn
   */
  stateful?: boolean;
  /** default: random, printed */
  seed?: number;
  /** fast-check's path of a failure: replays exactly that case */
  path?: string;
  /** where the minimal failing request is written (default .svc/failures) */
  failuresDir?: string;
  /** cwd the failures folder is relative to */
  cwd: string;
  /** places a generated case changes on average (`--fuzz-changes`, default 2) */
  changes?: number;
}

export interface FuzzTarget {
  suite: 'hooks' | 'integrator';
  url: string;
  clock: Clock;
  /** integrator: the channel public id in the path (spec 4.2) */
  channel?: string;
  /**
   * integrator: this run's message ids are `fuzz-<runId>-<n>` (default random 1-999999), so an
   * integrator that remembers message ids does not take a new run's messages for redeliveries
   * of the last run's (spec 2.2, 8)
   */
  runId?: number;
  /** hooks: protocol ms (default 10 s, assumed) */
  timeoutMs?: number;
  /**
   * hooks, `--fuzz-stateful`: the chat id of the first sequence, the next ones counting up
   * (default 90001); a fresh block per run keeps a receiver that remembers finished chats
   * from seeing the last run's chat start again
   */
  firstChatId?: number;
}

export interface FuzzFailure {
  property: FuzzProperty;
  reasons: string[];
  kind: string;
  /** what the shrunk case changed in the kind's valid sample: `visitor.name = "😀"` */
  changes: string[];
  /** the minimal request, as sent */
  request: Record<string, unknown>;
  /** what a report calls `request` (default `request`; conform bot: `customer message`) */
  requestLabel?: string;
  /** what the peer received of it, when that is another payload (Broken's `sent`) */
  sent?: { label: string; body: Record<string, unknown> };
  seed: number;
  path: string;
  shrinks: number;
  /** cases run before the failure */
  runs: number;
  /** files written and the commands that reproduce the failure */
  written: { file: string; command: string }[];
  /** set when fixed conform calls this a warning: why */
  warning?: string;
  /** other kinds that failed the same way at the same places */
  alsoIn?: string[];
  /** found by --fuzz-path: the one case the path names was sent, not `runs` of them */
  fromPath?: true;
}

export interface FuzzSummary {
  /** the run's cases (`--fuzz N`): what `--fuzz-path` is a path within */
  runs: number;
  /**
   * `--fuzz-path`: the cases this replay sent, the one the path names and its shrink steps (not
   * `runs`: a line saying 300 when 1 went out misread the replay)
   */
  sentByPath?: number;
  seed: number;
  /** the first distinct failure (the one `failures` starts with) */
  failure?: FuzzFailure;
  /** each distinct failure (by property and kind), shrunk, with its repro */
  failures: FuzzFailure[];
  /** what fixed conform calls a warning (a refused offline_messages spelling), shrunk too */
  warnings: FuzzFailure[];
  /** the generator's edges this run took: every one is in the run's first cases */
  edges?: {
    total: number;
    covered: number;
    uncovered: string[];
    /** the cases that take every edge (the run's first): a shorter run meets fewer */
    sweep: number;
  };
}

interface FuzzCase {
  p: PayloadArbitrary;
  m: Mutations;
}

const isFuzzCase = (value: unknown): value is FuzzCase =>
  value !== null && typeof value === 'object' && 'p' in value && 'm' in value;

export interface Broken {
  property: FuzzProperty;
  reasons: string[];
  /**
   * what the peer under test received, when it is not the request conform made (conform bot
   * posts a customer message; the bot gets the platform's CLIENT_MESSAGE, with its id)
   */
  sent?: { label: string; body: Record<string, unknown> };
  /**
   * the peer refused the connection: it no longer accepts any (its process ended), so no later
   * case can say anything about it and the run stops (exit 3) instead of failing every case
   */
  gone?: true;
}

const shortBody = (text: string): string =>
  text.length > 120 ? `${JSON.stringify(text.slice(0, 120))}…` : JSON.stringify(text);

/** What one delivery tells about the four properties (all but the redelivery one). */
function judge(
  target: FuzzTarget,
  kind: string,
  outcome: PostOutcome,
  budgetMs: number,
  attempt: string,
): Broken | undefined {
  if (!outcome.ok) {
    if (outcome.reason === 'refused')
      return {
        property: 'survives: no 5xx, no reset, no hang',
        reasons: [`${attempt}: ${outcome.message}`],
        gone: true,
      };
    if (outcome.reason === 'timeout')
      return {
        property: 'answers within the budget',
        reasons: [`${attempt}: no answer within ${budgetMs} ms (spec 8)`],
      };
    return {
      property: 'survives: no 5xx, no reset, no hang',
      reasons: [`${attempt}: ${outcome.message}`],
    };
  }
  if (outcome.status >= 500)
    return {
      property: 'survives: no 5xx, no reset, no hang',
      reasons: [`${attempt}: HTTP ${outcome.status} ${shortBody(outcome.body)}`],
    };
  if (outcome.durationMs > budgetMs)
    return {
      property: 'answers within the budget',
      reasons: [
        `${attempt}: answered in ${Math.round(outcome.durationMs)} ms, over ${budgetMs} ms`,
      ],
    };
  const reasons = replyProblems(target, kind, outcome);
  return reasons.length === 0
    ? undefined
    : {
        property: 'answers validly for the request',
        reasons: reasons.map((r) => `${attempt}: ${r}`),
      };
}

function replyProblems(
  target: FuzzTarget,
  kind: string,
  outcome: Extract<PostOutcome, { ok: true }>,
): string[] {
  if (target.suite === 'integrator') {
    const judged = judgeChannelReply(outcome);
    return judged.accepted
      ? []
      : [
          `HTTP ${outcome.status} ${shortBody(outcome.body)} is no valid reply; expected 200 with {"result":"ok"} or {"error":{code,message}} (spec 2.2, 4.2)`,
        ];
  }
  if (outcome.status !== 200)
    return [
      `HTTP ${outcome.status} ${shortBody(outcome.body)}; expected 200 with the event's reply (spec 4.4)`,
    ];
  const replyKind = `${kind.replace('offline_messages', 'offline_message')}.reply`;
  if (kind === 'hook.call_event' && outcome.body.trim() === '') return [];
  let reply: unknown;
  try {
    reply = JSON.parse(outcome.body);
  } catch {
    return [`the reply ${shortBody(outcome.body)} is not JSON (spec 6.2)`];
  }
  const result = validateMaybeHookReply(replyKind, reply);
  return result.errors.map(
    (e) => `reply ${e.path === '' ? '(root)' : e.path}: ${e.rule} (spec ${e.spec})`,
  );
}

/** The same answer, as the platform would judge it (status and acceptance). */
function sameAnswer(
  target: FuzzTarget,
  kind: string,
  first: Extract<PostOutcome, { ok: true }>,
  second: Extract<PostOutcome, { ok: true }>,
): string | undefined {
  if (first.status !== second.status)
    return `the first delivery got HTTP ${first.status}, the redelivery HTTP ${second.status}`;
  const a = replyProblems(target, kind, first).length === 0;
  const b = replyProblems(target, kind, second).length === 0;
  if (a !== b) return 'the first answer and the redelivery answer differ in validity';
  if (target.suite === 'integrator') {
    const errorOf = (o: Extract<PostOutcome, { ok: true }>) => {
      const judged = judgeChannelReply(o);
      return judged.accepted ? judged.errorReply : undefined;
    };
    const ea = errorOf(first);
    const eb = errorOf(second);
    if ((ea === undefined) !== (eb === undefined))
      return `the first answer was ${shortBody(first.body)}, the redelivery answer ${shortBody(second.body)}`;
  }
  return undefined;
}

/** What a suite's traffic goes through: its payloads, the answer budget and the URL. */
interface FuzzTraffic {
  target: FuzzTarget;
  settings: FuzzSettings;
  payloads: PayloadArbitrary[];
  /** spec 8: protocol ms an answer may take */
  budgetMs: number;
  url: string;
  arbitrary: fc.Arbitrary<FuzzCase>;
  coverage: { labels: string[]; edgesOf: (c: FuzzCase) => number[] };
  /**
   * the request last delivered for a case, as sent: an integrator message with the run's id
   * (`fuzz-<runId>-<n>`), so the repro names a message the integrator's log has
   */
  sent: WeakMap<FuzzCase, Record<string, unknown>>;
  /** one payload delivered, then delivered again as a redelivery (spec 8) */
  checkOne(
    c: FuzzCase,
    adjust?: (request: Record<string, unknown>) => void,
  ): Promise<Broken | undefined>;
}

/** One case of any of the payloads; the unmapper lets fast-check shrink the sweep's cases. */
function caseArbitrary(payloads: readonly PayloadArbitrary[]): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    ...payloads.map((p) =>
      p.arbitrary.map(
        (m): FuzzCase => ({ p, m }),
        (value) => {
          if (isFuzzCase(value) && value.p === p) return value.m;
          throw new Error('not a case of this kind');
        },
      ),
    ),
  );
}

/** Every edge of every kind, numbered across the kinds, for the run's edge coverage. */
function edgeCoverage(payloads: readonly PayloadArbitrary[]): FuzzTraffic['coverage'] {
  const offsets = new Map<PayloadArbitrary, number>();
  const labels: string[] = [];
  for (const p of payloads) {
    offsets.set(p, labels.length);
    for (const e of p.edges) labels.push(`${e.kind} ${e.path} #${e.option + 1}`);
  }
  return {
    labels,
    edgesOf: (c) => c.p.edgesOf(c.m).map((e) => (offsets.get(c.p) ?? 0) + e),
  };
}

/** The delivery of one case and its redelivery, judged; integrator messages get fresh ids. */
function createCaseChecker(
  target: FuzzTarget,
  url: string,
  budgetMs: number,
  sent: FuzzTraffic['sent'],
): FuzzTraffic['checkOne'] {
  let messageSeq = 0;
  const deliver = (body: Record<string, unknown>): Promise<PostOutcome> =>
    postJson({ url, body: JSON.stringify(body), timeoutMs: budgetMs, clock: target.clock });
  return async (c, adjust) => {
    const request = c.p.build(c.m);
    if (target.suite === 'integrator') {
      // each case is its own message; its redelivery keeps the id (spec 2.2, 8)
      const message = request.message as Record<string, unknown>;
      message.id = `fuzz-${target.runId ?? 0}-${++messageSeq}`;
    }
    adjust?.(request);
    sent.set(c, request);
    const first = await deliver(request);
    const firstBroken = judge(target, c.p.kind, first, budgetMs, 'delivery');
    if (firstBroken) return firstBroken;
    const second = await deliver(request);
    const secondBroken = judge(target, c.p.kind, second, budgetMs, 'redelivery');
    if (secondBroken) return secondBroken;
    const differ = first.ok && second.ok ? sameAnswer(target, c.p.kind, first, second) : undefined;
    return differ
      ? { property: 'answers a redelivery the same way', reasons: [differ] }
      : undefined;
  };
}

/** The traffic of a suite: hook events or agent messages, to the receiver or the channel. */
function fuzzTraffic(given: FuzzTarget, settings: FuzzSettings): FuzzTraffic {
  // one run id for the run's message ids, its shrinking's included
  const target =
    given.suite === 'integrator' && given.runId === undefined
      ? { ...given, runId: randomInt(1, 1_000_000) }
      : given;
  const payloads =
    target.suite === 'hooks'
      ? hookArbitraries(settings.changes)
      : agentMessageArbitraries(settings.changes);
  const budgetMs =
    target.suite === 'hooks'
      ? (target.timeoutMs ?? HOOK_DELIVERY_POLICY.attemptTimeoutMs)
      : CHANNEL_DELIVERY_POLICY.attemptTimeoutMs;
  const url =
    target.suite === 'integrator'
      ? integratorDeliveryUrl(target.url, target.channel ?? 'conform')
      : target.url;
  const sent: FuzzTraffic['sent'] = new WeakMap();
  return {
    target,
    settings,
    payloads,
    budgetMs,
    url,
    arbitrary: caseArbitrary(payloads),
    coverage: edgeCoverage(payloads),
    sent,
    checkOne: createCaseChecker(target, url, budgetMs, sent),
  };
}

/** The peer under test, as a message names it. */
const peerOf = (target: FuzzTarget): string =>
  `${target.suite === 'hooks' ? 'the hook receiver' : 'the integrator endpoint'} at ${target.url}`;

/** The sections a property's failure cites. */
function propertySpec(target: FuzzTarget): (name: FuzzProperty) => string[] {
  return (name) =>
    name.startsWith('answers within') || name.includes('redelivery')
      ? ['8']
      : target.suite === 'hooks'
        ? ['6.2']
        : ['2.2', '4.2'];
}

/**
 * The shrunk case as a report shows it (offline_messages named as sent): the request as it was
 * delivered when the checker sent it (an integrator message's id from this run), else built.
 */
function describeFuzzCase(c: FuzzCase, sent?: Record<string, unknown>) {
  // the changes are the generator's: the id the checker gives each message is none of them
  const built = c.p.build(c.m);
  const request = sent ?? built;
  const kind = request.event_name === 'offline_messages' ? 'hook.offline_messages' : c.p.kind;
  return { kind, request, changes: changesFrom(c.p.base, built) };
}

/** One payload per case: the sweep's examples first, then generated ones. */
function singleSource(traffic: FuzzTraffic): PropertySource<FuzzCase> {
  const { target, settings } = traffic;
  return {
    arbitrary: traffic.arbitrary,
    examples: sweepCases(traffic.payloads),
    coverage: traffic.coverage,
    check: (c) => traffic.checkOne(c),
    describe: (c) => describeFuzzCase(c, traffic.sent.get(c)),
    /** spec 6.2 note: fixed conform warns when only this spelling is refused; so does fuzz */
    warning: (c, why) =>
      target.suite === 'hooks' &&
      why.property === 'answers validly for the request' &&
      c.p.build(c.m).event_name === 'offline_messages'
        ? 'the receiver refuses the offline_messages spelling (the spec 6.2 note asks for both)'
        : undefined,
    reproduce: (kind, request, seed) => writeReproduction(target, settings, kind, request, seed),
    spec: propertySpec(target),
    peer: peerOf(target),
  };
}

/**
 * `--fuzz-stateful`: a chat's traffic: hooks in lifecycle order with one chat id and visitor,
 * or one customer's agent messages; the sequence shrinks to its shortest failing prefix.
 */
function sequenceArbitrary(traffic: FuzzTraffic): fc.Arbitrary<FuzzCase[]> {
  const order = (kind: string): number => {
    const at = HOOK_ORDER.indexOf(kind.replace(/^hook\./, ''));
    return at === -1 ? HOOK_ORDER.length : at;
  };
  return fc
    .array(traffic.arbitrary, { minLength: 2, maxLength: 8 })
    .map((steps) =>
      traffic.target.suite === 'hooks'
        ? [...steps].sort((a, b) => order(a.p.kind) - order(b.p.kind))
        : steps,
    );
}

/** A sequence's steps, delivered in turn in one chat: the first step that broke. */
function createSequenceChecker(
  traffic: FuzzTraffic,
): (steps: FuzzCase[]) => Promise<Broken | undefined> {
  const { target } = traffic;
  const firstChatId = target.firstChatId ?? 90_001;
  let chatSeq = 0;
  return async (steps) => {
    const chat = ++chatSeq;
    const same = (request: Record<string, unknown>): void => {
      if (target.suite === 'hooks') {
        if ('chat_id' in request) request.chat_id = firstChatId + chat - 1;
      } else if (request.recipient && typeof request.recipient === 'object') {
        // a customer of this run's: not one the integrator met in the last run
        (request.recipient as Record<string, unknown>).id =
          `fuzz-customer-${target.runId ?? 0}-${chat}`;
      }
    };
    for (const [index, step] of steps.entries()) {
      const broken = await traffic.checkOne(step, same);
      if (broken)
        return {
          ...broken,
          reasons: broken.reasons.map(
            (r) => `step ${index + 1} of ${steps.length} (${step.p.kind}): ${r}`,
          ),
        };
    }
    return undefined;
  };
}

/** A sequence of payloads per case (`--fuzz-stateful`), each step's repro written apart. */
function sequenceSource(traffic: FuzzTraffic): PropertySource<FuzzCase[]> {
  const { target, settings } = traffic;
  return {
    arbitrary: sequenceArbitrary(traffic),
    coverage: {
      labels: traffic.coverage.labels,
      edgesOf: (steps) => steps.flatMap(traffic.coverage.edgesOf),
    },
    check: createSequenceChecker(traffic),
    describe(steps) {
      const requests = steps.map((step) => step.p.build(step.m));
      return {
        kind: `sequence of ${steps.length}: ${steps.map((step) => step.p.kind).join(', ')}`,
        request: { sequence: requests },
        changes: steps.flatMap((step, i) =>
          changesFrom(step.p.base, requests[i]).map((c) => `step ${i + 1} ${c}`),
        ),
      };
    },
    async reproduce(_kind, request, seed) {
      const list = (request.sequence as Record<string, unknown>[]) ?? [];
      const written: { file: string; command: string }[] = [];
      for (const [i, step] of list.entries()) {
        const kind = target.suite === 'hooks' ? `hook.${String(step.event_name)}` : 'channel.agent';
        for (const w of await writeReproduction(
          target,
          settings,
          kind,
          step,
          seed,
          `-step${i + 1}`,
        ))
          written.push(w);
      }
      return written;
    },
    spec: propertySpec(target),
    peer: peerOf(target),
  };
}

/**
 * The fuzz cases of a suite: one per property, so JUnit lists each; the first runs the
 * generated traffic, the others report from the same run.
 * @example const { cases, summary } = buildFuzzCases(target, { runs: 300, cwd: '.' });
 */
export function buildFuzzCases(
  target: FuzzTarget,
  settings: FuzzSettings,
): { cases: ConformCase[]; summary: () => FuzzSummary | undefined } {
  const traffic = fuzzTraffic(target, settings);
  return settings.stateful
    ? propertyCases<FuzzCase[]>(sequenceSource(traffic), settings)
    : propertyCases(singleSource(traffic), settings);
}

/** What a suite gives the shared fuzz runner. */
export interface PropertySource<C> {
  arbitrary: fc.Arbitrary<C>;
  /**
   * cases run first, before the generated ones, the same for every seed (the plain samples,
   * then every edge of the generator); they count within the run's cases
   */
  examples?: readonly C[];
  /** the generator's edges, and the ones a case takes (for the edge coverage of a run) */
  coverage?: { labels: readonly string[]; edgesOf(c: C): number[] };
  /** runs one generated case against the peer; what broke, or undefined */
  check(c: C, n: number): Promise<Broken | undefined>;
  /** the shrunk case as a report shows it */
  describe(c: C): {
    kind: string;
    request: Record<string, unknown>;
    changes: string[];
    requestLabel?: string;
  };
  /** a broken case that fixed `conform` calls a warning (a refused offline_messages spelling) */
  warning?(c: C, why: Broken): string | undefined;
  /** writes the failing request with the command that sends it again */
  reproduce(
    kind: string,
    request: Record<string, unknown>,
    seed: number,
  ): Promise<{ file: string; command: string }[]>;
  spec(name: FuzzProperty): string[];
  /** the peer as a message names it (`the integrator endpoint at <url>`) */
  peer?: string;
}

/**
 * The peer stopped accepting connections part way through (exit 3): what ran, and how to
 * run the same cases again once it is up.
 */
function peerGone(
  source: { peer?: string },
  at: { seed: number; cases: number; why: Broken; path?: string },
): SvcError {
  const peer = source.peer ?? 'the peer';
  const why = at.why.reasons.join('; ');
  // while a failure was shrunk: the failing case or one of its shrinks may have ended it
  if (at.path !== undefined)
    return new SvcError(
      'SVC_E_PEER_UNREACHABLE',
      `Could not finish fuzzing: ${peer} stopped accepting connections while a failure was shrunk (${why}); a case sent then may have brought it down.`,
      `Start it again; --fuzz ${at.cases} --seed ${at.seed} --fuzz-path ${at.path} sends that failing case again.`,
    );
  return new SvcError(
    'SVC_E_PEER_UNREACHABLE',
    `Could not finish fuzzing: ${peer} stopped accepting connections after ${plural(at.cases, 'generated case')} (${why}); the case before may have brought it down.`,
    `Start it again; --fuzz ${at.cases} --seed ${at.seed} sends the same cases up to there.`,
  );
}

/** At most this many distinct failures are shrunk and reported in one run. */
const MAX_DISTINCT = 8;

/** fast-check's cases given as examples: run first, the same for every seed. */
type Examples<C> = [C][];

/** What fast-check shrank one failure to, replayed from its path. */
interface Shrunk<C> {
  c: C;
  why: Broken | undefined;
  path: string;
  shrinks: number;
}

/** fast-check's shrink of one failure, replayed from `path`: what it shrank to. */
async function shrinkAt<C extends object>(
  source: PropertySource<C>,
  examples: Examples<C>,
  at: { seed: number; path: string; numRuns: number; sent?: { cases: number } },
  fails: (why: Broken, c: C) => boolean,
): Promise<Shrunk<C> | undefined> {
  const { seed, path, numRuns, sent } = at;
  const broken = new WeakMap<C, Broken>();
  let gone: Broken | undefined;
  const details = await fc.check<[C]>(
    fc.asyncProperty(source.arbitrary, async (c) => {
      // the peer is gone: nothing more is sent, the shrink runs out at once
      if (gone) return true;
      if (sent) sent.cases += 1;
      const why = await source.check(c, 0);
      if (why?.gone) {
        gone = why;
        return true;
      }
      if (why && fails(why, c)) {
        broken.set(c, why);
        return false;
      }
      return true;
    }),
    { numRuns, seed, path, examples, endOnFailure: false },
  );
  if (gone) throw peerGone(source, { seed, cases: numRuns, why: gone, path });
  if (!details.failed || !details.counterexample) return undefined;
  const c = details.counterexample[0];
  return {
    c,
    why: broken.get(c),
    path: details.counterexamplePath ?? path,
    shrinks: details.numShrinks,
  };
}

/** A shrunk failure as the summary holds it, its repro written. */
async function reportFailure<C extends object>(
  source: PropertySource<C>,
  found: Shrunk<C>,
  why: Broken,
  seed: number,
  runs: number,
): Promise<FuzzFailure> {
  const shown = source.describe(found.c);
  const warning = source.warning?.(found.c, why);
  return {
    ...why,
    ...shown,
    seed,
    path: found.path,
    shrinks: found.shrinks,
    runs,
    written: await source.reproduce(shown.kind, shown.request, seed),
    ...(warning === undefined ? {} : { warning }),
  };
}

/** A failure goes with the failures, or with the warnings when fixed conform calls it one. */
function fileFailure(result: FuzzSummary, failure: FuzzFailure): void {
  if (failure.warning === undefined) result.failures.push(failure);
  else result.warnings.push(failure);
}

/** --fuzz-path: exactly the case a run printed, shrunk again. */
async function replayPath<C extends object>(
  source: PropertySource<C>,
  settings: FuzzSettings & { path: string },
  examples: Examples<C>,
  seed: number,
): Promise<FuzzSummary> {
  const sent = { cases: 0 };
  const at = { seed, path: settings.path, numRuns: settings.runs, sent };
  const found = await shrinkAt(source, examples, at, () => true);
  const result: FuzzSummary = {
    runs: settings.runs,
    sentByPath: sent.cases,
    seed,
    failures: [],
    warnings: [],
  };
  if (found) {
    const why = found.why ?? { property: FUZZ_PROPERTIES[0], reasons: ['failed'] };
    const failure: FuzzFailure = {
      ...(await reportFailure(source, found, why, seed, settings.runs)),
      fromPath: true,
    };
    if (failure.warning === undefined) result.failure = failure;
    fileFailure(result, failure);
  }
  return result;
}

/** The distinct failures of a pass, by property, kind and warning: the first few of each. */
type Firsts<C> = Map<string, { indices: number[]; cases: C[]; why: Broken }>;

/** A failure's key: its property, the kind it broke on and whether it is a warning. */
const failureKey = <C extends object>(source: PropertySource<C>, c: C, why: Broken): string =>
  `${why.property}\u0000${source.describe(c).kind}\u0000${source.warning?.(c, why) ? 'w' : ''}`;

/**
 * The pass: every case runs (the examples first), noting what broke without stopping at
 * the first failure; the first of each distinct failure is kept by its index.
 */
async function runPass<C extends object>(
  source: PropertySource<C>,
  settings: FuzzSettings,
  examples: Examples<C>,
  seed: number,
): Promise<{ runs: number; firsts: Firsts<C>; covered: Set<number> }> {
  const firsts: Firsts<C> = new Map();
  const covered = new Set<number>();
  let casesRun = 0;
  let finished = 0;
  let failed = 0;
  let gone: Broken | undefined;
  const details = await fc.check<[C]>(
    fc.asyncProperty(source.arbitrary, async (c) => {
      const n = ++casesRun;
      settings.onCase?.(n);
      for (const edge of source.coverage?.edgesOf(c) ?? []) covered.add(edge);
      const why = await source.check(c, n);
      // the peer is gone: the one failure of this property, which ends the pass at once
      if (why?.gone) {
        gone = why;
        return false;
      }
      finished++;
      if (why) failed++;
      settings.onCaseDone?.({ finished, failed, seed });
      if (why) {
        const key = failureKey(source, c, why);
        const seen = firsts.get(key);
        // a few of each: a peer that failed once by chance (a slow answer) does not hide
        // the same failure met later for a reason
        if (!seen) firsts.set(key, { indices: [n - 1], cases: [c], why });
        else if (seen.indices.length < 3) {
          seen.indices.push(n - 1);
          seen.cases.push(c);
        }
      }
      return true;
    }),
    {
      numRuns: settings.runs,
      seed,
      examples,
      endOnFailure: true,
      // --fuzz-time: no new case after the limit; what ran so far is the result
      ...(settings.timeLimitMs === undefined
        ? {}
        : { plugins: [fc.interruptAfterTimeLimit(settings.timeLimitMs) as fc.Plugin<[C]>] }),
    },
  );
  if (gone) throw peerGone(source, { seed, cases: casesRun, why: gone });
  return { runs: details.numRuns, firsts, covered };
}

/**
 * Each distinct failure (at most MAX_DISTINCT) replayed from its place in the run and shrunk,
 * with its own repro. One that does not come back when its case is sent again is reported as
 * it came, unshrunk and said to be intermittent: a peer that answers 5xx to one payload in
 * twenty broke the property all the same (a run reported it green). A slow answer that does
 * not come back is dropped: the machine running svc-cli may have been the slow one.
 */
async function shrinkDistinct<C extends object>(
  source: PropertySource<C>,
  examples: Examples<C>,
  pass: { runs: number; firsts: Firsts<C> },
  result: FuzzSummary,
): Promise<void> {
  const { seed } = result;
  for (const [key, first] of [...pass.firsts].slice(0, MAX_DISTINCT)) {
    let found: Shrunk<C> | undefined;
    for (const index of first.indices) {
      const at = { seed, path: String(index), numRuns: 1 };
      found = await shrinkAt(source, examples, at, (why, c) => failureKey(source, c, why) === key);
      if (found) break;
    }
    if (found) {
      fileFailure(
        result,
        await reportFailure(source, found, found.why ?? first.why, seed, pass.runs),
      );
      continue;
    }
    if (first.why.property === 'answers within the budget') continue;
    const [c] = first.cases;
    if (c === undefined) continue;
    const times = plural(first.indices.length, 'case');
    const why: Broken = {
      ...first.why,
      reasons: [
        ...first.why.reasons,
        `intermittent: sent again, the same payload did not fail this way (${times} of the run failed so${first.indices.length >= 3 ? ', or more' : ''}; not shrunk)`,
      ],
    };
    const as = { c, why, path: String(first.indices[0]), shrinks: 0 };
    fileFailure(result, await reportFailure(source, as, why, seed, pass.runs));
  }
}

/** One run of a suite's fuzzing: the pass, its edge coverage, each distinct failure shrunk. */
async function runFuzz<C extends object>(
  source: PropertySource<C>,
  settings: FuzzSettings,
): Promise<FuzzSummary> {
  const examples: Examples<C> = (source.examples ?? []).map((c): [C] => [c]);
  const seed = settings.seed ?? Math.floor(Math.random() * 2 ** 31);
  if (settings.path !== undefined)
    return replayPath(source, { ...settings, path: settings.path }, examples, seed);
  const pass = await runPass(source, settings, examples, seed);
  const result: FuzzSummary = { runs: pass.runs, seed, failures: [], warnings: [] };
  if (source.coverage) {
    const { labels } = source.coverage;
    result.edges = {
      total: labels.length,
      covered: pass.covered.size,
      uncovered: labels.filter((_l, i) => !pass.covered.has(i)),
      sweep: examples.length,
    };
  }
  await shrinkDistinct(source, examples, pass, result);
  result.failures = mergeSame(result.failures);
  result.warnings = mergeSame(result.warnings);
  if (result.failures[0]) result.failure = result.failures[0];
  return result;
}

/** The case of one property: it awaits the one run and checks what broke that property. */
function propertyCase(
  name: FuzzProperty,
  spec: string[],
  settings: FuzzSettings,
  run: (by: FuzzProperty) => { result: Promise<FuzzSummary>; sent: boolean },
): ConformCase {
  return {
    name: `fuzz: ${name}`,
    spec,
    async run(ctx) {
      // the first property's case sends the run, and its check is timed from there; the
      // others judge the same traffic and have no time of their own
      const from = { protocolMs: ctx.clock.now(), wallMs: performance.now() };
      const pass = run(name);
      if (!pass.sent) ctx.judgedOnEarlierRun();
      const result = await pass.result;
      const replayed =
        settings.path === undefined || result.failure
          ? ''
          : `; the case at --fuzz-path ${settings.path} and those after it passed`;
      // a --fuzz-path replay sent the path's case and its shrink steps, not the run's N;
      // a --fuzz-stateful case is a chat's 2-8 payloads, so it is counted as a sequence
      const unit = settings.stateful ? 'generated sequence' : 'generated payload';
      const sent =
        result.sentByPath === undefined
          ? `${plural(result.runs, unit)}${settings.stateful ? ' of one chat each' : ''} (seed ${result.seed}${replayed})`
          : `${plural(result.sentByPath, unit)} sent by --fuzz-path ${settings.path ?? ''} (within the run of ${result.runs}, seed ${result.seed}${replayed})`;
      await ctx.check(
        sent,
        () => {
          const failing = result.failures.filter((f) => f.property === name);
          if (failing.length > 0) return failing.flatMap(describeFailure);
          const warned = result.warnings.filter((f) => f.property === name);
          return warned.length > 0
            ? { warn: warned.map((w) => `${w.warning ?? ''}: ${w.reasons.join('; ')}`).join(' | ') }
            : [];
        },
        pass.sent ? from : undefined,
      );
    },
  };
}

/**
 * The shared runner of every fuzzed suite. One pass runs every case (the examples first) and
 * notes what broke, without stopping at the first failure; then each distinct failure (by
 * property and kind) is replayed from its place in the run and shrunk by fast-check, each
 * with its own repro. One ConformCase per property, so JUnit lists each; the first runs the
 * traffic, the others report from the same run.
 */
export function propertyCases<C extends object>(
  source: PropertySource<C>,
  settings: FuzzSettings,
): { cases: ConformCase[]; summary: () => FuzzSummary | undefined } {
  let running: Promise<FuzzSummary> | undefined;
  let sender: FuzzProperty | undefined;
  let summary: FuzzSummary | undefined;
  const run = (by: FuzzProperty): { result: Promise<FuzzSummary>; sent: boolean } => {
    sender ??= by;
    running ??= runFuzz(source, settings).then((result) => (summary = result));
    return { result: running, sent: sender === by };
  };
  const cases = FUZZ_PROPERTIES.map((name) => propertyCase(name, source.spec(name), settings, run));
  return { cases, summary: () => summary };
}

/**
 * One failure per property and set of changed places: a receiver that crashes on an emoji in
 * `visitor.name` does so in every event that carries a visitor, which is one bug, not six.
 */
function mergeSame(failures: FuzzFailure[]): FuzzFailure[] {
  const byPlaces = new Map<string, FuzzFailure>();
  for (const failure of failures) {
    const places = failure.changes.map((c) => c.replace(/ = .*$| absent$/s, '')).sort();
    const key = `${failure.property}\u0000${places.join('\u0000')}`;
    const first = byPlaces.get(key);
    if (first) first.alsoIn = [...(first.alsoIn ?? []), failure.kind];
    else byPlaces.set(key, failure);
  }
  return [...byPlaces.values()];
}

/** Longest request a report shows inline; the file written holds it whole. */
const REQUEST_SHOWN_CHARS = 300;

/** A payload, cut after REQUEST_SHOWN_CHARS with where the whole one is (a 2 KB line buried the report). */
function shortRequest(payload: Record<string, unknown>, file: string | undefined): string {
  const text = JSON.stringify(payload);
  if (text.length <= REQUEST_SHOWN_CHARS) return text;
  return `${text.slice(0, REQUEST_SHOWN_CHARS)}… (${text.length} characters${file ? `; whole in ${file}` : ''})`;
}

/** The lines a report shows for one shrunk failure. */
function describeFailure(failure: FuzzFailure): string[] {
  // a failure that did not come back when sent again is not shrunk, and its case, plain sample
  // or not, passed the second time: "shrunk 0 times" and "the plain sample fails" said otherwise
  const intermittent = failure.reasons.some((r) => r.startsWith('intermittent: '));
  const noChange = intermittent ? 'no change' : 'no change (the plain sample fails)';
  return [
    ...failure.reasons,
    `${failure.kind}${failure.alsoIn ? ` (the same in ${failure.alsoIn.join(', ')})` : ''}, ${intermittent ? 'as it came' : `shrunk ${failure.shrinks} times`}, ${failure.fromPath ? `the case --fuzz-path ${failure.path} names` : `after ${plural(failure.runs, 'case')}`}; the sample with ${failure.changes.length === 0 ? noChange : failure.changes.join(', ')}`,
    `${failure.requestLabel ?? 'request'}: ${shortRequest(failure.request, failure.written[0]?.file)}`,
    // the payload the peer got, when conform's request is not it: its ids are the ones to look up
    ...(failure.sent
      ? [`${failure.sent.label}: ${shortRequest(failure.sent.body, undefined)}`]
      : []),
    `replay exactly: --fuzz ${failure.runs} --seed ${failure.seed} --fuzz-path ${failure.path}`,
    ...failure.written.map((w) => `reproduce: ${w.command}`),
  ];
}

/** Where `after` differs from `before`, as `path = value` (removed fields: `path absent`). */
export function changesFrom(before: unknown, after: unknown, path = ''): string[] {
  const isObj = (v: unknown): v is Record<string, unknown> =>
    v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(before) && isObj(after)) {
    const out: string[] = [];
    for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
      const at = path === '' ? key : `${path}.${key}`;
      if (!(key in after)) out.push(`${at} absent`);
      else if (!(key in before)) out.push(`${at} = ${JSON.stringify(after[key])}`);
      else out.push(...changesFrom(before[key], after[key], at));
    }
    return out;
  }
  if (JSON.stringify(before) === JSON.stringify(after)) return [];
  const text = JSON.stringify(after);
  if (text.length <= 60) return [`${path} = ${text}`];
  // its start and its end: what breaks a receiver is often the last character (an emoji)
  const chars = [...text];
  return [
    `${path} = ${chars.slice(0, 40).join('')}…${chars.slice(-16).join('')} (${[...String(after)].length} characters)`,
  ];
}

/** The minimal request as a file, with the command that sends it again. */
async function writeReproduction(
  target: FuzzTarget,
  settings: FuzzSettings,
  kind: string,
  request: Record<string, unknown>,
  seed: number,
  suffix = '',
): Promise<{ file: string; command: string }[]> {
  const dir = resolve(settings.cwd, settings.failuresDir ?? join('.svc', 'failures'));
  await mkdir(dir, { recursive: true });
  const stem = `${target.suite}-${kind.replace(/^hook\.|^channel\./, '').replace(/\./g, '-')}-seed${seed}${suffix}`;
  const requestFile = join(dir, `${stem}.request.json`);
  await writeFileWholeAsync(requestFile, `${JSON.stringify(request, null, 2)}\n`);
  if (target.suite === 'hooks') {
    return [
      { file: requestFile, command: `svc-cli hook-fire --from ${requestFile} --url ${target.url}` },
    ];
  }
  const channelUrl = integratorDeliveryUrl(target.url, target.channel ?? 'conform');
  const written = [
    {
      file: requestFile,
      command: `curl -X POST ${channelUrl} -H 'content-type: application/json' --data @${requestFile}`,
    },
  ];
  // the same message through the simulator as a conversation fixture (spec 2.2 fields the
  // platform sets itself, such as sender, come from the simulator there)
  const message = { ...(request.message as Record<string, unknown>) };
  delete message.id;
  const recipient = request.recipient as { id?: unknown } | undefined;
  const to =
    typeof recipient?.id === 'string' && recipient.id !== '' ? recipient.id : 'fuzz-customer';
  const content =
    message.type === 'text' && typeof message.text === 'string'
      ? { text: message.text }
      : message.type === 'typein' || message.type === 'typeout'
        ? { typing: message.type === 'typein' ? 'start' : 'stop' }
        : { media: message };
  const fixtureFile = join(dir, `${stem}.conversation.json`);
  await writeFileWholeAsync(
    fixtureFile,
    `${JSON.stringify(
      {
        version: 1,
        name: `fuzz failure ${kind} (seed ${seed})`,
        description:
          'Written by svc-cli conform integrator --fuzz: the message the integrator failed on, accepted on its first attempt (HTTP 200 with {"result": "ok"} within 3 s, spec 2.2, 8).',
        tags: ['fuzz'],
        steps: [
          { customer: { text: 'hello', sender: { id: to } } },
          // a 5xx, a late or an invalid reply makes the platform try again: one attempt
          { agent: { ...content, to }, delivery: { result: 'delivered', attempts: 1 } },
          {
            expect: {
              integrator: { message: { type: message.type }, $attempt: 1, $status: 200 },
            },
          },
        ],
      },
      null,
      2,
    )}\n`,
  );
  written.push({
    file: fixtureFile,
    command: `svc-cli replay ${fixtureFile} --integrator-url ${target.url}`,
  });
  return written;
}
