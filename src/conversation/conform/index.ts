import { randomInt } from 'node:crypto';
import { createClock, type Clock } from '../../clock.js';
import { SvcError } from '../../errors.js';
import { observeReplies, type ObservedReply } from '../../http/client.js';
import { assertReachable } from '../../http/reach.js';
import {
  maskInCases,
  runCases,
  STRICT_WARNING,
  type ConformCase,
  type ConformCaseResult,
  type ConformSuiteName,
} from './case.js';
import { DEFAULT_ANSWER_WITHIN_MS, buildBotCases } from './bot.js';
import { buildBotFuzzCases } from './fuzz/bot.js';
import {
  startBotHarness,
  type BotHarness,
  type BotHarnessOptions,
  type BotServiceInfo,
} from './bot-harness.js';
import { buildHooksCases } from './hooks.js';
import { runIds } from '../run-ids.js';
import { buildIntegratorCases } from './integrator.js';
import { checkPeerObserved, type InvariantsOutcome, type InvariantsTally } from './observed.js';
import { REAL_TIME_TOLERANCE_MS } from '../world.js';
import {
  preparePlatform,
  type ConformInvariants,
  type Observation,
  type PlatformRunOptions,
  type BotProviderInfo,
  writeRecords,
} from './observation.js';
import { findWrongPeer, wrongPeerCase, type WrongPeer } from './wrong-peer.js';
import { buildFuzzCases, type FuzzSettings, type FuzzSummary } from './fuzz/run.js';
import { compact } from '../../compact.js';
import type { SimulatorSettings } from '../../platform/profile.js';

/**
 * The conformance suites: the contract run against someone else's
 * implementation. Each case is a ConversationResult-shaped object, so replay's reporters
 * print it. The core never prints.
 */
export type ConformOptions =
  | {
      suite: 'integrator';
      url: string;
      channel?: string;
      /**
       * this run's message ids are `conform-<runId>-<n>`, with --fuzz `fuzz-<runId>-<n>`
       * (default random 1-999999, as bot's and hooks')
       */
      runId?: number;
    }
  | {
      suite: 'hooks';
      url: string;
      timeoutMs?: number;
      /**
       * every event is about chat `runId * 1000 + 1` (default random 1-999999, as bot's);
       * `--fuzz-stateful` numbers its sequences' chats from there
       */
      runId?: number;
      /** only these events' cases (`--events`) */
      events?: readonly string[];
    }
  | ({ suite: 'platform' } & Omit<
      PlatformRunOptions,
      'invariants' | 'onHookReceiver' | 'onBotProvider'
    >)
  | {
      suite: 'bot';
      /** `{bot_provider_url}` (spec 4.3) */
      url: string;
      token: string;
      /** default `svc-conform` */
      providerId?: string;
      /** port of the embedded platform the bot posts to (default 0: any) */
      platformListenPort?: number;
      /** protocol ms the bot's answer may take (default 10 s, an assumption) */
      answerWithinMs?: number;
      /** the customer's texts, sent in turn (a bot scripted on intents needs its own) */
      texts?: readonly string[];
      /** `docs`: also CHAT_CLOSED to the bot and CLIENT_INFO from it (public Bot API) */
      botEvents?: 'spec' | 'docs';
      /** where this run's chat and client ids start (default random 1-999999) */
      runId?: number;
      /** quote the token where a check quotes it (`--show-secrets`); default `***` */
      showSecrets?: boolean;
      /**
       * append what the embedded platform journaled (its events to the bot, the bot's posts,
       * the chats) to this NDJSON file at the end, or as far as it got when interrupted
       * (`--report` draws it; the rules there would judge svc-cli's own sending)
       */
      recordFile?: string;
    };

export type RunConformOptions = ConformOptions & {
  /**
   * a profile's settings (`--profile`): what the suites send comes in its payload forms, the
   * embedded bot platform follows its bot policy and events, conform platform expects its
   * channel schedule (default: the spec's)
   */
  settings?: SimulatorSettings;
  /** hooks, integrator: generated traffic instead of the fixed cases */
  fuzz?: FuzzSettings;
  /** protocol timers x timeScale on a real clock (default 1) */
  timeScale?: number;
  clock?: Clock;
  onCase?: (result: ConformCaseResult) => void;
  /** the cases the suite is about to run, in order (a report lists those a signal cut short) */
  onCases?: (cases: readonly { name: string; spec: readonly string[] }[]) => void;
  /** `bot`: the embedded platform listens; configure the bot with these URLs */
  onBotService?: (info: BotServiceInfo) => void;
  /**
   * `hooks`: the run id and the chat its events are about (`--run-id` repeats them); with
   * `sequences` (`--fuzz-stateful`), the first of the chats its sequences are about
   */
  onHookChat?: (info: { runId: number; chatId: number; sequences?: boolean }) => void;
  /** `integrator`: the run id and the first message id it numbers (`--run-id` repeats them) */
  onIntegratorRun?: (info: { runId: number; firstMessageId: string }) => void;
  /** `platform` with `hookListenPort`: the hook receiver listens; point the platform's hooks here */
  onHookReceiver?: (url: string) => void;
  /** `platform` with `botListenPort`: the bot listens; attach it to the platform's channel */
  onBotProvider?: (bot: BotProviderInfo) => void;
  /** the cross-interface invariants checked on what the run saw (`--no-invariant`) */
  invariants?: ConformInvariants;
  /**
   * `--wait`: wall ms to wait for the peer to accept connections before the suite (one
   * started in the background just before it); default 0, unreachable at once
   */
  waitMs?: number;
  /**
   * aborted (SIGINT / SIGTERM): no case is started after it, conform platform appends what it
   * saw so far to `recordFile`, the servers close, and the report comes back `interrupted`
   */
  signal?: AbortSignal;
  /** `--strict`: a warning fails its check (exit 1) instead of passing it */
  strict?: boolean;
};

export interface ConformReport {
  suite: ConformSuiteName;
  /** the peer under test */
  target: string;
  results: ConformCaseResult[];
  passed: number;
  failed: number;
  skipped: number;
  /** passed checks with a warning */
  warnings: number;
  /** `strict`: the checks that failed on a warning alone (none: absent) */
  strictFailures?: number;
  /** with --fuzz: the seed, the cases run and the shrunk failure */
  fuzz?: FuzzSummary;
  /** the URL is another of svc-cli's roles, a failing case (src/conversation/conform/wrong-peer.ts) */
  wrongPeer?: WrongPeer;
  /** platform: the cross-interface invariants checked on what the run saw */
  invariants?: InvariantsTally;
  /** `signal` aborted: `results` are the cases finished, nothing after them checked */
  interrupted?: true;
}

/** What a suite runs: its cases against the peer, and what is checked or undone after them. */
interface PreparedSuite {
  target: string;
  cases: ConformCase[];
  /** bot: the embedded platform the provider posts to */
  harness?: BotHarness;
  /** after the cases: undoes what they left on the peer (conform platform's open chats) */
  cleanup?: () => Promise<number[]>;
  /** platform: what the run saw of its conversations, checked against the invariants */
  observation?: Observation;
  fuzzSummary?: () => FuzzSummary | undefined;
}

/**
 * Runs one suite against a peer. Throws SvcError: unreachable peer (network, exit 3),
 * bad input (exit 2); failing cases are data in the report.
 * @example const report = await runConformSuite({ suite: 'integrator', url: 'http://127.0.0.1:9000' });
 */
export async function runConformSuite(options: RunConformOptions): Promise<ConformReport> {
  const clock = options.clock ?? createClock({ timeScale: options.timeScale ?? 1 });
  if (options.fuzz && options.suite === 'platform') {
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not fuzz conform ${options.suite}: --fuzz generates what the platform sends to a hook receiver, an integrator or a bot.`,
      'Use it with conform hooks, conform integrator or conform bot.',
    );
  }
  const prepared = await prepareSuite(options, clock);
  const { target, harness, observation } = prepared;
  options.onCases?.(prepared.cases.map(({ name, spec }) => ({ name, spec })));
  const interrupted = (): boolean => options.signal?.aborted === true;
  let results: ConformCaseResult[];
  let checked: InvariantsOutcome | undefined;
  /** the first replies the cases got: which svc-cli role a failing peer is (wrong-peer.ts) */
  const replies: ObservedReply[] = [];
  try {
    results = await observeReplies(
      (reply) => {
        if (replies.length < 100) replies.push(reply);
      },
      () =>
        runCases(prepared.cases, {
          suite: options.suite,
          clock,
          ...compact({
            onCase: options.onCase,
            signal: options.signal,
            strict: options.strict,
          }),
        }),
    );
  } finally {
    try {
      // cut short: what was seen written as it is, without the cleanup's and checks' waits
      if (interrupted()) await observation?.flush();
      else {
        const closed = await prepared.cleanup?.();
        checked = (await observation?.finish(closed)) ?? peerInvariants(options, clock, harness);
      }
    } finally {
      // conform bot: what its embedded platform journaled, before the platform closes
      if (harness && options.suite === 'bot' && options.recordFile !== undefined)
        writeRecords(options.recordFile, harness.core.journal.entries());
      await harness?.close();
      await observation?.close();
    }
  }
  if (interrupted()) return { ...reportOf(options.suite, target, results), interrupted: true };
  if (checked?.broken) {
    results.push(checked.broken);
    options.onCase?.(checked.broken);
  }
  const wrongPeer = findWrongPeer(options.suite, target, replies);
  const wrongCase = wrongPeer && wrongPeerCase(options.suite, wrongPeer);
  if (wrongCase) results.push(wrongCase);
  if (wrongCase) options.onCase?.(wrongCase);
  const fuzz = prepared.fuzzSummary?.();
  return {
    ...reportOf(options.suite, target, results),
    ...compact({ fuzz, wrongPeer, invariants: checked?.tally }),
  };
}

/** The report's counts of `results`. */
function reportOf(
  suite: ConformSuiteName,
  target: string,
  results: ConformCaseResult[],
): ConformReport {
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  const failed = results.filter((r) => !r.ok).length;
  const strictFailures = results.reduce(
    (sum, r) =>
      sum +
      r.steps.filter((s) => s.status === 'failed' && s.details[0]?.startsWith(STRICT_WARNING))
        .length,
    0,
  );
  return {
    suite,
    target,
    results,
    passed: results.length - failed - skipped,
    failed,
    skipped,
    warnings: results.reduce((sum, r) => sum + (r.warnings?.length ?? 0), 0),
    ...(strictFailures > 0 ? { strictFailures } : {}),
  };
}

/**
 * The peer's side of the invariants where svc-cli plays the platform (src/trace/peer-rules.ts):
 * conform bot on its embedded platform's journal; hooks and integrator have no rule on the
 * peer's answers, so every rule is reported skipped.
 */
function peerInvariants(
  options: RunConformOptions,
  clock: Clock,
  harness: BotHarness | undefined,
): InvariantsOutcome | undefined {
  if (options.suite === 'platform') return undefined;
  const settings = {
    disabled: options.invariants?.disabled ?? [],
    // real time: as replay's tolerance against a real peer
    toleranceMs: REAL_TIME_TOLERANCE_MS,
    ...(options.settings ? { botBudgetMs: options.settings.botPolicy.failAfterMs } : {}),
  };
  const records = harness ? harness.core.journal.entries() : [];
  return checkPeerObserved(options.suite, records, settings, clock);
}

/** Builds a suite's cases (and starts what they need: the bot harness, conform platform's receiver). */
async function prepareSuite(options: RunConformOptions, clock: Clock): Promise<PreparedSuite> {
  const reach = { waitMs: options.waitMs, signal: options.signal };
  switch (options.suite) {
    case 'integrator':
      await assertReachable(options.url, 'the integrator endpoint', reach);
      return { target: options.url, ...integratorCases(options, clock) };
    case 'hooks':
      await assertReachable(options.url, 'the hook receiver', reach);
      return { target: options.url, ...hooksCases(options, clock) };
    case 'platform':
      return preparePlatform(options, clock);
    case 'bot': {
      await assertReachable(options.url, 'the bot provider', reach);
      const harness = await startBotHarness(harnessOptionsOf(options, clock));
      options.onBotService?.(harness.info);
      return { target: options.url, harness, ...botCases(options, clock, harness) };
    }
    default: {
      const never: never = options;
      throw new Error(`unknown suite ${JSON.stringify(never)}`);
    }
  }
}

type SuiteCases = Pick<PreparedSuite, 'cases' | 'fuzzSummary'>;

function integratorCases(
  options: Extract<RunConformOptions, { suite: 'integrator' }>,
  clock: Clock,
): SuiteCases {
  const channel = options.channel === undefined ? {} : { channel: options.channel };
  // fresh message ids each run: an integrator that keeps the ids it has seen (to drop
  // redeliveries, spec 8) takes a new run's messages as new, not the last run's again
  const runId = options.runId ?? randomInt(1, 1_000_000);
  options.onIntegratorRun?.({
    runId,
    firstMessageId: `${options.fuzz ? 'fuzz' : 'conform'}-${runId}-1`,
  });
  if (options.fuzz) {
    const built = buildFuzzCases(
      { suite: 'integrator', url: options.url, clock, runId, ...channel },
      options.fuzz,
    );
    return { cases: built.cases, fuzzSummary: built.summary };
  }
  return {
    cases: buildIntegratorCases({
      url: options.url,
      clock,
      runId,
      ...profiled(options.settings),
      ...channel,
    }),
  };
}

function hooksCases(
  options: Extract<RunConformOptions, { suite: 'hooks' }>,
  clock: Clock,
): SuiteCases {
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  // a fresh chat each run: a receiver that keeps state per chat sees a new chat, not the last
  // run's finished one starting again (src/conversation/run-ids.ts)
  const runId = options.runId ?? randomInt(1, 1_000_000);
  const chatId = runIds(runId).firstChatId;
  if (options.fuzz) {
    // a generated single payload carries the chat id it was generated with; a sequence is one
    // chat of this run's block
    const stateful = options.fuzz.stateful === true;
    if (stateful) options.onHookChat?.({ runId, chatId, sequences: true });
    const built = buildFuzzCases(
      {
        suite: 'hooks',
        url: options.url,
        clock,
        ...timeout,
        ...(stateful ? { firstChatId: chatId } : {}),
      },
      options.fuzz,
    );
    return { cases: built.cases, fuzzSummary: built.summary };
  }
  options.onHookChat?.({ runId, chatId });
  return {
    cases: buildHooksCases({
      url: options.url,
      clock,
      chatId,
      ...(options.settings?.forms ? { forms: options.settings.forms } : {}),
      ...(options.settings?.hookEvents === 'docs' ? { events: 'docs' as const } : {}),
      ...(options.events === undefined ? {} : { only: options.events }),
      ...timeout,
    }),
  };
}

function botCases(
  options: Extract<RunConformOptions, { suite: 'bot' }>,
  clock: Clock,
  harness: BotHarness,
): SuiteCases {
  const masked = (cases: ConformCase[]) =>
    options.showSecrets ? cases : maskInCases(cases, options.token);
  if (options.fuzz) {
    const built = buildBotFuzzCases(
      {
        harness,
        url: options.url,
        token: options.token,
        providerId: options.providerId ?? 'svc-conform',
        clock,
        answerWithinMs: options.answerWithinMs ?? DEFAULT_ANSWER_WITHIN_MS,
      },
      options.fuzz,
    );
    return { cases: masked(built.cases), fuzzSummary: built.summary };
  }
  return {
    cases: masked(
      buildBotCases({
        url: options.url,
        token: options.token,
        clock,
        harness,
        ...(options.answerWithinMs === undefined ? {} : { answerWithinMs: options.answerWithinMs }),
        texts: options.texts,
        ...(botEventsOf(options) === 'docs' ? { botEvents: 'docs' as const } : {}),
      }),
    ),
  };
}

/** The integrator suite under a profile: its payload forms and its wait per attempt. */
function profiled(settings: SimulatorSettings | undefined) {
  if (!settings) return {};
  return {
    replyLimitMs: settings.channelPolicy.attemptTimeoutMs,
    ...(settings.forms ? { forms: settings.forms } : {}),
  };
}

/** The embedded platform of conform bot: the bot under test, a profile's policy and forms. */
function harnessOptionsOf(
  options: Extract<RunConformOptions, { suite: 'bot' }>,
  clock: Clock,
): BotHarnessOptions {
  return {
    url: options.url,
    token: options.token,
    providerId: options.providerId ?? 'svc-conform',
    clock,
    runId: options.runId ?? randomInt(1, 1_000_000),
    ...(options.showSecrets ? { showSecrets: true } : {}),
    ...(options.platformListenPort === undefined ? {} : { port: options.platformListenPort }),
    ...(botEventsOf(options) === 'docs' ? { botEvents: 'docs' as const } : {}),
    ...(options.settings
      ? {
          policy: options.settings.botPolicy,
          ...(options.settings.forms ? { forms: options.settings.forms } : {}),
        }
      : {}),
  };
}

/** `--bot-events docs`, or a profile's docs events (the older switch stays an alias). */
function botEventsOf(options: Extract<RunConformOptions, { suite: 'bot' }>): 'spec' | 'docs' {
  return options.botEvents === 'docs' || options.settings?.botEvents === 'docs' ? 'docs' : 'spec';
}

export { buildIntegratorCases, buildAgentPayload, buildSampleMedia } from './integrator.js';
export { buildHooksCases } from './hooks.js';
export { buildBotCases, judgeBotAnswer } from './bot.js';
export { startBotHarness, type BotServiceInfo } from './bot-harness.js';
export { buildPlatformCases, parseChannelUrl } from './platform.js';
export { CONFORM_BOT, type BotProviderInfo } from './observation.js';
export type { ConformCase, ConformCaseResult, ConformSuiteName, CaseContext } from './case.js';
