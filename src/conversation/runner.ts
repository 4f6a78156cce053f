import { atLeastWallMs, type VirtualClock } from '../clock.js';
import { SvcError, errorText } from '../errors.js';
import { Agent, type Dispatcher } from 'undici';
import { getText, postJson } from '../http/client.js';
import { DEFAULT_WITHIN_MS, type Step } from './format.js';
import {
  countTimingFigures,
  describeMismatches,
  isMatch,
  matchPartial,
  resolveRefs,
} from './match.js';
import { createEmbeddedWorld, type Observation, type World, type WorldOptions } from './world.js';
import {
  cameBefore,
  inWindow,
  type ExpectWindow,
  missingLabels,
  orderProblems,
  whereMismatches,
  stepOfObservation,
  type StepTime,
  type StepTimes,
} from './cross-expect.js';
import { checkRecords, violationLine, type InvariantOptions } from '../trace/invariants.js';
import type { ExchangeRecord } from '../journal/record.js';
import { countBotAnswers, findBotEvent } from './bot-answers.js';
import { plural } from '../plural.js';
import { shiftChatIds } from './run-ids.js';
import { compact } from '../compact.js';
import { peerReplyWarning } from './peer-replies.js';

export type { ReplayPeers } from './world.js';

export interface ReplayOptions extends WorldOptions {
  /** called as each step ends (reporters stream with it) */
  onStep?: (step: StepResult) => void;
  /**
   * the cross-interface invariants checked on the platform's journal once the steps ran
   * (src/trace/invariants.ts); `disabled` names those not checked
   */
  invariants?: Pick<InvariantOptions, 'disabled' | 'botBudgetMs'>;
}

export type StepKind =
  | 'customer'
  | 'agent'
  | 'agents'
  | 'close'
  | 'control'
  | 'bot'
  | 'redeliver'
  | 'advance'
  | 'page'
  | 'expect';

export interface StepResult {
  index: number;
  name: string;
  kind: StepKind;
  status: 'passed' | 'failed' | 'skipped';
  /** why a step was skipped: its setup does not apply, or an earlier step failed */
  skip?: 'not-applicable' | 'after-failure';
  /** what was expected and what came, one line each, when failed or skipped */
  details: string[];
  /** replay: protocol ms at the end of the step; conform: the check's own protocol ms */
  protocolMs: number;
  wallMs: number;
  /** the step's result, referenced by later steps as ${name.path} */
  value?: unknown;
  /** what a step with a name of its own does (`agent says "Hi"`): its name alone says not */
  what?: string;
  /** not a step of the conversation: the invariant check after its steps, when it failed */
  invariants?: true;
}

export interface ConversationResult {
  name: string;
  file?: string;
  ok: boolean;
  /** not run, and why (its setup does not apply to a running simulator) */
  skipped?: string;
  /** real time: the protocol-ms tolerance timing figures were matched with */
  timingToleranceMs?: number;
  /** real time: how many timing figures (`elapsedMs` ...) the steps that ran compared */
  timingFigures?: number;
  /**
   * with a real peer: the peers (one phrase each) and how many expectations were checked and
   * how many could not be observed (skipped, with the reason in the step)
   */
  realPeers?: readonly string[];
  /**
   * with a real bot (--bot-url): it refused an event, or the bot service refused its post, as
   * another token or provider id does (401, 403, 404; spec 4.3), which the failing step names
   */
  botRefused?: true;
  /**
   * with a real hook receiver (--hook-url): it answered a hook 404 or 405, as one serving
   * another path does (spec 4.4), which the failing step asks about
   */
  hookRefused?: true;
  /** the run id of its exchanges in the `recordFile` journal (replay --record, --report) */
  run?: string;
  /** the run id its chat and client ids were numbered by (fresh ids against a real peer) */
  runId?: number;
  expectations?: { checked: number; skipped: number };
  steps: StepResult[];
  protocolMs: number;
  wallMs: number;
}

interface StepOutcome {
  ok: boolean;
  details: string[];
  value?: unknown;
  /** the step could not be checked here (reported as skipped, with the reason) */
  skipped?: boolean;
}

/** protocol ms a step may take before it is reported stuck */
const STEP_LIMIT_MS = 120_000;

/** The embedded world, or a running svc simulator with `platformUrl` (loaded lazily). */
async function createWorld(options: ReplayOptions): Promise<World> {
  if (options.platformUrl === undefined) return createEmbeddedWorld(options);
  const { createRemoteWorld } = await import('./world-remote.js');
  return createRemoteWorld({ ...options, platformUrl: options.platformUrl });
}

/**
 * Replays one conversation against the embedded simulator and roles (or real peers, or a
 * running svc simulator with `platformUrl`) and reports each step. A virtual clock makes a
 * 9 s redelivery series take milliseconds.
 * @example const result = await replayConversation({ conversation });
 */
export async function replayConversation(options: ReplayOptions): Promise<ConversationResult> {
  if (options.runId === undefined) return replayIn(options);
  // fresh ids (a real peer's database remembers the last run's chat 1): the fixture's literal
  // chat ids move into the run's block with the platform's
  const result = await replayIn({
    ...options,
    conversation: shiftChatIds(options.conversation, options.runId),
  });
  return { ...result, runId: options.runId };
}

/** A conversation this world cannot run (page steps against --platform-url): skipped, passed. */
function notApplicable(
  options: ReplayOptions,
  reason: string,
  wallStart: number,
): ConversationResult {
  return {
    name: options.conversation.name,
    ...(options.file ? { file: options.file } : {}),
    ok: true,
    skipped: reason,
    steps: [],
    protocolMs: 0,
    wallMs: performance.now() - wallStart,
  };
}

async function replayIn(options: ReplayOptions): Promise<ConversationResult> {
  const wallStart = performance.now();
  let world: World;
  try {
    world = await createWorld(options);
  } catch (error) {
    // an unreachable --platform-url ends the run (exit 3): no conversation can say anything
    if (error instanceof SvcError && error.category === 'network') throw error;
    return setupFailed(options, error, wallStart);
  }
  if (world.notApplicable !== undefined) {
    await world.close();
    return notApplicable(options, world.notApplicable, wallStart);
  }
  const scope: Record<string, unknown> = {};
  const times = { byName: new Map<string, StepTime>(), all: [] as StepTime[] };
  const steps: StepResult[] = [];
  let journalRun: string | undefined;
  let failed = false;
  let timingFigures = 0;
  if (world.ignoredSetup !== undefined) {
    const step: StepResult = {
      index: -1,
      name: 'setup',
      kind: 'control',
      status: 'skipped',
      details: [world.ignoredSetup],
      protocolMs: 0,
      wallMs: 0,
    };
    steps.push(step);
    options.onStep?.(step);
  }
  try {
    for (const [index, step] of options.conversation.steps.entries()) {
      const kind = kindOf(step);
      const what = describeStep(step, scope);
      const name = step.name ?? `${index + 1}. ${what}`;
      if (failed) {
        steps.push({
          index,
          name,
          ...(step.name === undefined ? {} : { what }),
          kind,
          status: 'skipped',
          skip: 'after-failure',
          details: ['an earlier step failed'],
          protocolMs: world.clock.now(),
          wallMs: 0,
        });
        continue;
      }
      const started = performance.now();
      const startMs = world.clock.now();
      const firstSeen = world.observations.length;
      let outcome: StepOutcome;
      try {
        outcome = await runStep(world, step, scope, times);
      } catch (error) {
        // an SvcError's hint says what to change (a chat starts with a customer step)
        const hint = error instanceof SvcError ? error.hint : undefined;
        outcome = { ok: false, details: [errorText(error), ...(hint ? [hint] : [])] };
      }
      if (!outcome.skipped) timingFigures += countTimingFigures(step);
      const span = { label: name, startMs, firstSeen, endMs: world.clock.now() };
      times.all.push(span);
      if (step.name) times.byName.set(step.name, span);
      if (step.name && outcome.value !== undefined) scope[step.name] = outcome.value;
      const result: StepResult = {
        index,
        name,
        ...(step.name === undefined ? {} : { what }),
        kind,
        status: outcome.skipped ? 'skipped' : outcome.ok ? 'passed' : 'failed',
        details: outcome.details,
        protocolMs: world.clock.now(),
        wallMs: performance.now() - started,
        ...(outcome.value === undefined ? {} : { value: outcome.value }),
      };
      steps.push(result);
      options.onStep?.(result);
      if (!outcome.ok) failed = true;
    }
    const records = world.records?.();
    // with a recording, the journal run names the conversation in it (replay --report)
    if (options.recordFile) journalRun = records?.[0]?.run;
    const broken = records && checkInvariants(world, records, options);
    if (broken) {
      steps.push(broken);
      options.onStep?.(broken);
      failed = true;
    }
  } finally {
    await world.close();
    await dispatchers.get(world)?.close();
  }
  const expects = steps.filter((s) => s.kind === 'expect' && s.skip !== 'after-failure');
  return {
    name: options.conversation.name,
    ...(options.file ? { file: options.file } : {}),
    ok: !failed,
    ...compact({
      run: journalRun,
      timingToleranceMs: world.timingToleranceMs,
      timingFigures: world.timingToleranceMs === undefined ? undefined : timingFigures,
      realPeers: world.realPeers,
      botRefused:
        failed && realBot(world) && botIdentityRefused(world) ? (true as const) : undefined,
      hookRefused: failed && hookRouteRefused(world) ? (true as const) : undefined,
    }),
    ...(world.realPeers === undefined && !expects.some((s) => s.status === 'skipped')
      ? {}
      : {
          expectations: {
            checked: expects.filter((s) => s.status !== 'skipped').length,
            skipped: expects.filter((s) => s.status === 'skipped').length,
          },
        }),
    steps,
    protocolMs: world.clock.now(),
    wallMs: performance.now() - wallStart,
  };
}

/**
 * The connections a conversation's steps open to an embedded platform, its own: the next
 * conversation's platform may listen on the same port (--platform-port), and a kept-alive
 * socket to the one that just closed would be reused before its close is read, resetting the
 * first step there. A running simulator (--platform-url, no records of ours) outlives the
 * conversations: its steps keep the global dispatcher, with the trust --ca and --insecure set.
 */
const dispatchers = new WeakMap<World, Dispatcher>();
function dispatcherOf(world: World): { dispatcher?: Dispatcher } {
  if (world.records === undefined) return {};
  let dispatcher = dispatchers.get(world);
  if (!dispatcher) {
    dispatcher = new Agent();
    dispatchers.set(world, dispatcher);
  }
  return { dispatcher };
}

/** A setup that cannot start (a missing bot script, a port) fails the conversation, not the run. */
function setupFailed(
  options: ReplayOptions,
  error: unknown,
  wallStart: number,
): ConversationResult {
  const step: StepResult = {
    index: 0,
    name: 'setup',
    kind: 'control',
    status: 'failed',
    details: [errorText(error)],
    protocolMs: 0,
    wallMs: performance.now() - wallStart,
  };
  options.onStep?.(step);
  return {
    name: options.conversation.name,
    ...(options.file ? { file: options.file } : {}),
    ok: false,
    steps: [step],
    protocolMs: 0,
    wallMs: performance.now() - wallStart,
  };
}

/**
 * The invariants over what the platform recorded (every exchange of the conversation, across
 * the channel, bot and hook interfaces): a failed step naming each broken rule, its spec
 * section and the two exchanges (journal seqs), or undefined when all hold. A running
 * simulator (`--platform-url`) keeps its journal to itself: nothing is checked there.
 */
function checkInvariants(
  world: World,
  records: readonly ExchangeRecord[],
  options: ReplayOptions,
): StepResult | undefined {
  const started = performance.now();
  const violations = checkRecords(records, {
    // a profile's bot policy moves the hand-over (docs: 3 attempts, at 9 s)
    ...(options.settings ? { botBudgetMs: options.settings.botPolicy.failAfterMs } : {}),
    ...options.invariants,
    ...(world.timingToleranceMs === undefined ? {} : { toleranceMs: world.timingToleranceMs }),
  });
  if (violations.length === 0) return undefined;
  return {
    index: options.conversation.steps.length,
    name: 'invariants',
    kind: 'expect',
    invariants: true,
    status: 'failed',
    details: violations.map(violationLine),
    protocolMs: world.clock.now(),
    wallMs: performance.now() - started,
  };
}

function kindOf(step: Step): StepKind {
  if ('customer' in step) return 'customer';
  if ('agent' in step) return 'agent';
  if ('agents' in step) return 'agents';
  if ('close' in step) return 'close';
  if ('control' in step) return 'control';
  if ('bot' in step) return 'bot';
  if ('redeliver' in step) return 'redeliver';
  if ('advance' in step) return 'advance';
  if ('page' in step) return 'page';
  return 'expect';
}

/**
 * The bot event a step names by `id` (`${asked.id}` resolved, or as written while it cannot
 * be: a step skipped after an earlier one failed), else the last CLIENT_MESSAGE.
 */
function eventNamed(id: string | undefined, scope: Record<string, unknown>): string {
  if (id === undefined) return 'the last CLIENT_MESSAGE';
  const resolved = resolveRefs(id, scope);
  return `event ${typeof resolved === 'string' ? resolved : id}`;
}

/** A step's label in reports: what it does or expects, with `${name.path}` references resolved. */
function describeStep(step: Step, scope: Record<string, unknown>): string {
  const quote = (text: string): string =>
    JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);
  if ('customer' in step) {
    const c = step.customer;
    if (c.text !== undefined) return `customer says ${quote(c.text)}`;
    if (c.typing) return `customer typing ${c.typing}`;
    if (c.media) return `customer sends ${c.media.type}`;
    return 'customer sends a raw body';
  }
  if ('agent' in step) {
    const a = step.agent;
    if (a.text !== undefined) return `agent says ${quote(a.text)}`;
    if (a.typing) return `agent typing ${a.typing}`;
    if (a.media) return `agent sends ${a.media.type}`;
    return 'agent sends';
  }
  if ('agents' in step) return `agents go ${step.agents}`;
  if ('close' in step) return 'agent closes the chat';
  if ('control' in step) {
    const path = resolveRefs(step.control.path, scope);
    return `${step.control.method} ${typeof path === 'string' ? path : step.control.path}`;
  }
  if ('bot' in step) return `the bot sends ${step.bot.event}`;
  if ('redeliver' in step) {
    return `the platform sends the bot ${eventNamed(step.redeliver.id, scope)} again`;
  }
  if ('advance' in step) return `${step.advance} ms pass`;
  if ('page' in step) {
    if (step.page.say !== undefined)
      return `the visitor writes ${quote(step.page.say)} in the widget`;
    if (step.page.call !== undefined)
      return `the visitor asks the widget for a call to ${step.page.call}`;
    if (step.page.api !== undefined)
      return `the page calls svc_api.${step.page.api}(${(step.page.args ?? []).map((a) => JSON.stringify(a)).join(', ')})`;
    if (step.page.contacts !== undefined) return 'the visitor fills the contacts form';
    return 'the widget page opens';
  }
  if (step.expect.answers) {
    return `expect the bot to answer ${eventNamed(step.expect.answers.to, scope)} ${plural(step.expect.answers.count, 'time')}`;
  }
  const party =
    (['integrator', 'bot', 'hook', 'event', 'page'] as const).find(
      (p) => step.expect[p] !== undefined,
    ) ?? 'event';
  if (step.expect.order) return `expect order ${step.expect.order.join(' → ')}`;
  const after = step.expect.after === undefined ? '' : ` after ${step.expect.after}`;
  return `${step.expect.absent ? 'no' : 'expect'} ${party}${expectedWhat(step.expect[party])}${after}`;
}

/** The few fields that say what an expectation waits for: a type, an event, a text. */
function expectedWhat(expected: unknown): string {
  if (typeof expected === 'string') return ` ${expected}`;
  if (expected === null || typeof expected !== 'object') return '';
  const e = expected as Record<string, unknown>;
  const message = (e.message ?? {}) as Record<string, unknown>;
  const what = [e.type, e.event, e.event_name, e.target, e.name, message.type]
    .filter((v): v is string => typeof v === 'string')
    .concat(typeof e.attempt === 'number' ? [`attempt ${e.attempt}`] : []);
  const text = typeof message.text === 'string' ? message.text : undefined;
  return [
    what.length > 0 ? ` ${what.join(' ')}` : '',
    text === undefined
      ? ''
      : ` ${JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text)}`,
  ].join('');
}

/** Runs `work` while the clock moves: a virtual clock jumps from timer to timer until it ends. */
async function drive<T>(world: World, work: Promise<T>, limitMs = STEP_LIMIT_MS): Promise<T> {
  let done = false;
  const tracked = work.finally(() => {
    done = true;
  });
  // a step that fails at once (an agent step with no chat) rejects while the clock runs:
  // handled here for the process, and still returned to the caller below
  tracked.catch(() => undefined);
  if (world.clock.kind === 'virtual') {
    const finished = await (world.clock as VirtualClock).runUntil(() => done, limitMs);
    if (!finished) {
      // Nothing is left on the clock, yet the work has not ended: wait a bounded wall time
      // for stray IO, then fail the step rather than hang the run.
      const settled = await Promise.race([
        tracked.then(
          () => true,
          () => true,
        ),
        new Promise<false>((resolve) => setTimeout(() => resolve(false), 5000).unref()),
      ]);
      if (!settled) {
        throw new SvcError(
          'SVC_E_STEP_STUCK',
          `the step did not finish within ${limitMs} ms of protocol time and nothing is left to wait for`,
        );
      }
    }
  }
  return tracked;
}

/** Waits (in protocol time) until `cond` holds or `within` passes. */
async function waitFor(world: World, cond: () => boolean, within: number): Promise<boolean> {
  if (world.clock.kind === 'virtual') return (world.clock as VirtualClock).runUntil(cond, within);
  const deadline = world.clock.now() + within;
  while (!cond()) {
    if (world.clock.now() >= deadline) return false;
    await world.clock.sleep(Math.min(50, deadline - world.clock.now()));
  }
  return true;
}

async function runStep(
  world: World,
  step: Step,
  scope: Record<string, unknown>,
  times: StepTimes,
): Promise<StepOutcome> {
  if ('customer' in step) {
    const c = resolveRefs(step.customer, scope) as typeof step.customer;
    const sender = { id: 'customer-1', ...(c.sender ?? {}) };
    const body =
      c.raw !== undefined
        ? c.raw
        : c.typing
          ? { sender, message: { type: c.typing === 'start' ? 'typein' : 'typeout' } }
          : c.media
            ? { sender, message: c.media }
            : { sender, message: { type: 'text', text: c.text ?? '' } };
    const out = await drive(
      world,
      postJson({
        url: world.channelUrl,
        body: JSON.stringify(body),
        // svc-cli's own simulator answers at once: a safety limit, on the wall
        timeoutMs: atLeastWallMs(10_000, world.clock),
        clock: world.clock,
        ...dispatcherOf(world),
      }),
    );
    if (!out.ok) return { ok: false, details: [`the channel did not answer: ${out.message}`] };
    let parsed: unknown = out.body;
    try {
      parsed = JSON.parse(out.body);
    } catch {
      // keep text
    }
    const value = { status: out.status, body: parsed };
    const expected = step.response ?? { status: 200 };
    const mismatches = matchPartial(resolveRefs(expected, scope), value);
    return { ok: mismatches.length === 0, details: describeMismatches(mismatches), value };
  }
  if ('agent' in step) {
    const a = resolveRefs(step.agent, scope) as typeof step.agent;
    const message = a.typing
      ? { type: a.typing === 'start' ? ('typein' as const) : ('typeout' as const) }
      : a.media
        ? (a.media as never)
        : { type: 'text' as const, text: a.text ?? '' };
    const sending = world.sendAgent({ to: a.to, message, wait: a.wait !== false });
    const verdict = await drive(world, sending);
    if (verdict === undefined) return { ok: true, details: [] };
    const { reason, said, ...value } = verdict;
    const mismatches = matchPartial(
      resolveRefs(step.delivery ?? { result: 'delivered' }, scope),
      value,
      '',
      world.timingToleranceMs ?? 0,
    );
    const details = describeMismatches(mismatches);
    // 'expected "delivered", got "failed"' alone does not say what the endpoint did
    if (details.length > 0 && value.result === 'failed' && reason)
      details.push(`the last of ${value.attempts} attempts: ${reason}${said ? `: ${said}` : ''}`);
    return { ok: mismatches.length === 0, details, value };
  }
  if ('agents' in step) {
    await world.setAgents(step.agents === 'online');
    return { ok: true, details: [] };
  }
  if ('close' in step) {
    const value = await drive(world, world.closeChat(step.close.customer));
    return { ok: true, details: [], value };
  }
  if ('control' in step || 'bot' in step) {
    let url: string;
    let method: 'GET' | 'POST' = 'POST';
    let body: string | undefined;
    if ('bot' in step) {
      if (!world.botEventsUrl)
        return {
          ok: false,
          details: ['no bot service here: a bot step needs "setup": { "bot": {} } (spec 4.3)'],
        };
      url = world.botEventsUrl;
      body = JSON.stringify(resolveRefs(step.bot, scope));
    } else {
      const path = String(resolveRefs(step.control.path, scope));
      url = `${world.controlBase}${path.startsWith('/') ? '' : '/'}${path}`;
      method = step.control.method;
      body =
        step.control.body === undefined
          ? undefined
          : JSON.stringify(resolveRefs(step.control.body, scope));
    }
    // postJson and getText are tracked, so the virtual clock waits for the answer (and its
    // body) instead of jumping to the next timer while it is on the way
    // as a step's own limit (drive's), and no cap on the answer (a long /_sim/journal)
    const common = {
      url,
      timeoutMs: STEP_LIMIT_MS,
      maxResponseBytes: Number.MAX_SAFE_INTEGER,
      clock: world.clock,
      ...dispatcherOf(world),
    };
    const out = await drive(
      world,
      method === 'GET' ? getText(common) : postJson({ ...common, body: body ?? '' }),
    );
    if (!out.ok) return { ok: false, details: [`the simulator did not answer: ${out.message}`] };
    let parsed: unknown = out.body;
    try {
      parsed = JSON.parse(out.body);
    } catch {
      // keep text
    }
    const value = { status: out.status, body: parsed };
    const mismatches = matchPartial(resolveRefs(step.response ?? { status: 200 }, scope), value);
    return { ok: mismatches.length === 0, details: describeMismatches(mismatches), value };
  }
  if ('redeliver' in step) return redeliverStep(world, step, scope);
  if ('page' in step) return pageStep(world, step);
  if ('advance' in step) {
    if (world.clock.kind === 'virtual') await (world.clock as VirtualClock).advance(step.advance);
    else await world.clock.sleep(step.advance);
    return { ok: true, details: [] };
  }
  return expectStep(world, step.expect, scope, times);
}

type Expectation = Extract<Step, { expect: unknown }>['expect'];

async function expectStep(
  world: World,
  expectation: Expectation,
  scope: Record<string, unknown>,
  times: StepTimes,
): Promise<StepOutcome> {
  if (expectation.answers) return answersStep(world, expectation, scope);
  const within = expectation.within ?? DEFAULT_WITHIN_MS;
  if (expectation.order) return expectOrder(world, expectation.order, within);
  const party = (['integrator', 'bot', 'hook', 'event', 'page'] as const).find(
    (p) => expectation[p] !== undefined,
  );
  if (!party)
    return {
      ok: false,
      details: ['an expectation names integrator, bot, hook, event, page or order'],
    };
  const unobservable = world.unobservable(party);
  if (unobservable) return { ok: true, details: [unobservable.reason], skipped: unobservable.skip };
  const missing = world.missingParty?.(party);
  if (missing !== undefined) return { ok: false, details: [missing] };
  const named = expectation[party];
  const expected = resolveRefs(
    typeof named === 'string'
      ? party === 'page'
        ? { name: named }
        : { event_name: named }
      : named,
    scope,
  );
  const where = resolveRefs(expectation.where, scope) as Record<string, unknown> | undefined;
  // `after`: the payload comes once that step began, and by its end plus `within`
  let window: ExpectWindow | undefined;
  if (expectation.after !== undefined) {
    const step = times.byName.get(expectation.after);
    if (!step)
      return {
        ok: false,
        details: [`after: no earlier step is named ${JSON.stringify(expectation.after)}`],
      };
    window = { fromMs: step.startMs, fromIndex: step.firstSeen, byMs: step.endMs + within };
  }
  // real time (a real peer): `...Ms` figures of events (offsetMs, elapsedMs) match within the
  // world's tolerance, as delivery verdicts do; exactly on the virtual clock
  const tolerance = world.timingToleranceMs ?? 0;
  const fits = (o: Observation): boolean =>
    o.party === party &&
    !o.consumed &&
    isMatch(expected, o.value, '', tolerance) &&
    whereMismatches(where, o.value, tolerance).length === 0;
  let found: Observation | undefined;
  const look = (): boolean => {
    found = world.observations.find((o, i) => fits(o) && inWindow(o, i, window));
    return found !== undefined;
  };
  const wait = window ? Math.max(0, window.byMs - world.clock.now()) : within;
  const matched = await waitFor(world, look, wait);
  const budget = window
    ? `within ${within} ms of the end of step ${expectation.after}`
    : `within ${within} ms`;
  if (expectation.absent) {
    return matched
      ? {
          ok: false,
          details: [
            `expected no ${party} payload matching ${JSON.stringify(expected)} ${budget}, got ${JSON.stringify(found?.value)}`,
          ],
        }
      : { ok: true, details: [] };
  }
  if (matched && found) {
    found.consumed = true;
    const details = peerReplyWarning(world.realPeers, party, expected, found.value);
    return { ok: true, details, value: found.value };
  }
  const details = [
    `expected ${party} ${JSON.stringify(expected)}${where ? ` where ${JSON.stringify(where)}` : ''} ${budget}`,
  ];
  // the payload came, but outside the budget: say when
  const lateIndex = world.observations.findIndex((o) => fits(o));
  const late = world.observations[lateIndex];
  if (late && window && late.at !== undefined) {
    const step = times.byName.get(expectation.after ?? '');
    const at = late.sentAt ?? late.at;
    const during = stepOfObservation(times, lateIndex);
    details.push(
      cameBefore(late, lateIndex, window)
        ? `it came at ${(at / 1000).toFixed(3)} s, ${during ? `during step ${during.label}, ` : ''}before step ${expectation.after} began`
        : `it came ${((at - (step?.endMs ?? 0)) / 1000).toFixed(3)} s after step ${expectation.after} ended; the budget is ${(within / 1000).toFixed(3)} s`,
    );
    return { ok: false, details };
  }
  // Say what came instead: the closest unconsumed observation of that party.
  const candidates = world.observations.filter((o) => o.party === party && !o.consumed);
  const closest = candidates
    .map((o) => ({
      o,
      mismatches: [
        ...describeMismatches(matchPartial(expected, o.value, '', tolerance)),
        ...whereMismatches(where, o.value, tolerance),
      ],
    }))
    .sort((a, b) => a.mismatches.length - b.mismatches.length)[0];
  if (closest)
    details.push(
      `closest of ${candidates.length} received:`,
      ...closest.mismatches.map((l) => `  ${l}`),
      ...replyNote(closest.o.value, closest.mismatches),
      ...(party === 'hook' ? hookRouteNote(world, closest.o.value) : []),
    );
  else details.push(`nothing was received by the ${party === 'event' ? 'simulator' : party}`);
  details.push(...realBotNotes(world));
  return { ok: false, details };
}

/**
 * A hook receiver of the user's (--hook-url) that answered 404: most often another path than
 * the one it serves, as the platform posts every event to the hook URL exactly as given, which
 * `it answered 404` alone does not say (spec 4.4).
 */
function hookRouteNote(world: World, value: unknown): string[] {
  const phrase = 'the hook receiver at ';
  const url = world.realPeers?.find((peer) => peer.startsWith(phrase))?.slice(phrase.length);
  if (url === undefined || typeof value !== 'object' || value === null) return [];
  if ((value as { $status?: unknown }).$status !== 404) return [];
  return [
    `your receiver answered 404: the platform posts to the hook URL as set, path and all (here ${URL.canParse(url) ? new URL(url).pathname : url}): is that your receiver's route? (spec 4.4)`,
  ];
}

/**
 * What the party answered, when the expected reply did not match: a line of `$reply` alone
 * ("expected "ok", got nothing") hides that the receiver answered 500 or not at all.
 */
function replyNote(value: unknown, mismatches: readonly string[]): string[] {
  if (!mismatches.some((line) => line.startsWith('$reply'))) return [];
  if (typeof value !== 'object' || value === null) return [];
  const { $status, $failure, $reply } = value as {
    $status?: unknown;
    $failure?: unknown;
    $reply?: unknown;
  };
  if (typeof $failure === 'string') return [`  it got no answer (${$failure})`];
  if (typeof $status !== 'number' || ($status >= 200 && $status < 300)) return [];
  const body = typeof $reply === 'string' ? $reply : JSON.stringify($reply ?? '');
  const shown = body.length > 120 ? `${body.slice(0, 117)}...` : body;
  return [`  it answered ${$status}${shown ? `: ${shown}` : ''}`];
}

/**
 * Whether a hook receiver of the user's (--hook-url) answered a hook 404 or 405: a route of
 * another path or method than the platform's POST to the hook URL as set (spec 4.4).
 */
function hookRouteRefused(world: World): boolean {
  if (!(world.realPeers?.some((peer) => peer.startsWith('the hook receiver at')) ?? false))
    return false;
  return world.observations.some(({ party, value }) => {
    if (party !== 'hook' || typeof value !== 'object' || value === null) return false;
    const status = (value as { $status?: unknown }).$status;
    return status === 404 || status === 405;
  });
}

/** Whether the conversation ran against a bot of the user's (--bot-url). */
function realBot(world: World): boolean {
  return world.realPeers?.some((peer) => peer.startsWith('the bot at')) ?? false;
}

/**
 * A refusal that another provider id or token explains (spec 4.3): an event the bot did not
 * take with a 401, 403 or 404, or a post of the bot's the bot service answered so.
 */
function botIdentityRefused(world: World): boolean {
  return world.observations.some(({ party, value }) => {
    if (party !== 'event' || typeof value !== 'object' || value === null) return false;
    const event = value as { type?: string; result?: string; reason?: string; status?: number };
    if (event.type === 'bot-event-sent' && event.result === 'failed')
      return /\bHTTP 40[134]\b/.test(event.reason ?? '');
    return (
      event.type === 'bot-event-received' &&
      (event.status === 401 || event.status === 403 || event.status === 404)
    );
  });
}

/**
 * With a real bot (--bot-url), what went wrong between it and the platform: the events it did
 * not take (a 404 is most often another token) and its posts the bot service refused (another
 * provider id or token), which the closest payload above does not show. Each once, at most 3.
 */
function realBotNotes(world: World): string[] {
  if (!realBot(world)) return [];
  const notes = new Set<string>();
  for (const { party, value } of world.observations) {
    if (party !== 'event' || typeof value !== 'object' || value === null) continue;
    const event = value as {
      type?: string;
      event?: string;
      result?: string;
      reason?: string;
      said?: string;
      status?: number;
      path?: string;
      code?: string;
      message?: string;
    };
    if (event.type === 'bot-event-sent' && event.result === 'failed') {
      notes.add(
        `your bot did not take ${event.event ?? 'an event'}: ${event.reason ?? 'failed'}${event.said ? `: ${event.said}` : ''}`,
      );
    } else if (event.type === 'bot-event-received' && event.status !== 200) {
      notes.add(
        `your bot posted ${event.event ?? 'a request'} to ${event.path ?? '?'}, refused with HTTP ${event.status ?? '?'}${event.code ? ` ${event.code}` : ''}${event.message ? `: ${event.message}` : ''}`,
      );
    }
  }
  if (notes.size === 0) return [];
  const shown = [...notes].slice(0, 3);
  // a payload the service refused (400: a field the contract requires) is no matter of ids
  if (!botIdentityRefused(world)) return shown;
  const provider = world.botEventsUrl?.match(/\/webhooks\/([^/]+)\//)?.[1];
  return [
    ...shown,
    `this conversation's bot has provider id ${provider === undefined ? '?' : JSON.stringify(decodeURIComponent(provider))} (setup.bot.providerId) and the token setup.bot.token gives (default "conversation-token"): configure your bot with both, or give replay yours with --bot-provider-id and --bot-token (spec 4.3)`,
  ];
}

/**
 * `page`: the visitor on the site widget (interface C); the page is attached to the widget
 * channel on the first page step. Ends once the page's sends and callback reports settled.
 */
async function pageStep(
  world: World,
  step: Extract<Step, { page: unknown }>,
): Promise<StepOutcome> {
  if (!world.page)
    return {
      ok: false,
      details: [
        "no widget channel here: page steps need the embedded simulator (a running one's journal, which the callback-order invariant reads, is not replay's)",
      ],
    };
  const page = await drive(world, world.page());
  const { say, call, api, contacts, result: expected } = step.page;
  let answer: { value: () => unknown } | undefined;
  if (say !== undefined) page.say(say);
  if (contacts !== undefined) page.contacts(contacts);
  if (call !== undefined) {
    const got = page.call(call);
    answer = { value: () => got };
  }
  if (api !== undefined) answer = page.api(api, step.page.args ?? []);
  await drive(world, page.flush());
  const value = answer?.value();
  const method = api ?? (call === undefined ? undefined : 'startCall');
  if (method === undefined) return { ok: true, details: [] };
  if (expected !== undefined) {
    const mismatches = matchPartial(expected, value);
    return { ok: mismatches.length === 0, details: describeMismatches(mismatches), value };
  }
  if ((value as { result?: unknown } | undefined)?.result === 'fail')
    return {
      ok: false,
      details: [
        `svc_api.${method} answered ${JSON.stringify(value)} (spec 4.5; give "result" to expect it)`,
      ],
      value,
    };
  return { ok: true, details: [], ...(value === undefined ? {} : { value }) };
}

/** `redeliver`: the platform sends the bot an event again; `response` checks its answer. */
async function redeliverStep(
  world: World,
  step: Extract<Step, { redeliver: unknown }>,
  scope: Record<string, unknown>,
): Promise<StepOutcome> {
  if (!world.redeliverBot)
    return {
      ok: false,
      details: [
        'no bot here: a redeliver step needs "setup": { "bot": {} } or --bot-url (spec 4.3)',
      ],
    };
  const id = resolveRefs(step.redeliver.id, scope);
  const out = await drive(world, world.redeliverBot(typeof id === 'string' ? id : undefined));
  if (!out.ok)
    return {
      ok: false,
      details: [
        out.id === undefined
          ? out.message
          : `the bot did not answer the redelivered event ${out.id}: ${out.message} (spec 8: it answers 200 within 3 s)`,
      ],
    };
  let parsed: unknown = out.body;
  try {
    parsed = JSON.parse(out.body);
  } catch {
    // keep text
  }
  const value = { id: out.id, attempt: out.attempt, status: out.status, body: parsed };
  const mismatches = matchPartial(resolveRefs(step.response ?? { status: 200 }, scope), value);
  return { ok: mismatches.length === 0, details: describeMismatches(mismatches), value };
}

/**
 * `answers`: once `within` has passed, how many answers the bot's service accepted for one
 * event it was sent (all its attempts, redeliveries included), read from the journal.
 */
async function answersStep(
  world: World,
  expectation: Extract<Step, { expect: unknown }>['expect'],
  scope: Record<string, unknown>,
): Promise<StepOutcome> {
  const answers = expectation.answers!;
  if (!world.records)
    return {
      ok: true,
      skipped: true,
      details: ["not observable: a running simulator's journal is not read by replay"],
    };
  const within = expectation.within ?? DEFAULT_WITHIN_MS;
  const to = resolveRefs(answers.to, scope);
  const id = typeof to === 'string' ? to : undefined;
  // every answer that may still come counts: wait the whole window, then count once; an
  // answer beyond the count fails it whatever comes after, so it ends the wait (a real bot's
  // repeated answer was red only once the window, 10 s of real time, had passed)
  await waitFor(
    world,
    () => {
      const seen = world.records?.() ?? [];
      const asked = findBotEvent(seen, id);
      return asked !== undefined && countBotAnswers(seen, asked).accepted.length > answers.count;
    },
    within,
  );
  const records = world.records();
  const event = findBotEvent(records, id);
  if (!event)
    return {
      ok: false,
      details: [
        typeof to === 'string'
          ? `the bot was sent no event with id ${to}`
          : 'the bot was sent no CLIENT_MESSAGE',
      ],
    };
  const counted = countBotAnswers(records, event);
  const got = counted.accepted.length;
  const value = { id: event.id, chatId: event.chatId, count: got, answers: counted.accepted };
  if (got === answers.count) return { ok: true, details: [], value };
  const attempts = event.attempts.length;
  const details = [
    `expected the bot to answer ${event.event} ${event.id} (chat ${String(event.chatId)}, ${plural(attempts, 'attempt')}) ${plural(answers.count, 'time')} within ${within} ms, it answered ${plural(got, 'time')}${got > answers.count && attempts > 1 ? ': a redelivered event (same id) was answered again, so the customer sees the answer twice (spec 8)' : ''}`,
    ...counted.accepted.map(
      (a) =>
        `  ${a.event}${a.text === undefined ? '' : ` ${JSON.stringify(a.text)}`} at ${Math.round(a.protocolMs)} ms`,
    ),
    ...counted.refused.map(
      (a) => `  ${a.event} refused by the bot service (HTTP ${String(a.status)}): not counted`,
    ),
  ];
  return { ok: false, details, value };
}

/** `order`: the first of each `party:what` came in the order given (format.ts). */
async function expectOrder(
  world: World,
  labels: readonly string[],
  within: number,
): Promise<StepOutcome> {
  let problems: string[] | undefined;
  await waitFor(
    world,
    () => (problems = orderProblems(world.observations, labels)) !== undefined,
    within,
  );
  if (problems === undefined)
    return {
      ok: false,
      details: [
        `expected ${labels.join(' → ')} within ${within} ms; never seen: ${missingLabels(world.observations, labels).join(', ')}`,
      ],
    };
  return { ok: problems.length === 0, details: problems };
}
