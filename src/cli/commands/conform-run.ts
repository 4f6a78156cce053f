import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { readInputFile } from '../../io/input-file.js';
import { loadProfile, settingsOf } from '../../conversation/record/profile.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { FUZZ_GROUP, conformOptions, suitesReading } from './conform-options.js';
import type { OptionSpec } from '../options/table.js';
import { listed } from '../../plural.js';
import { EXIT_CODES, SvcError, errorText } from '../../errors.js';
import { createRunProgress } from '../render/progress.js';
import { parseDuration } from '../../duration.js';
import {
  CONFORM_BOT,
  runConformSuite,
  type BotProviderInfo,
  type ConformReport,
  type RunConformOptions,
} from '../../conversation/conform/index.js';
import type { ConformCaseResult } from '../../conversation/conform/case.js';
import type { BotServiceInfo } from '../../conversation/conform/bot-harness.js';
import type { FuzzTally } from '../../conversation/conform/fuzz/run.js';
import type { InvariantsTally } from '../../conversation/conform/observed.js';
import { checkInvariantNames } from '../../trace/invariants.js';
import { createOutput, type Output } from '../render/output.js';
import { formatConversation, formatStep } from '../render/reporters/pretty.js';
import { formatWrongPeer } from '../render/wrong-peer.js';
import { toJunit, type JunitResult } from '../render/reporters/junit.js';
import { reportRunOf, unfinished } from '../render/run-entries.js';
import type { ReportRun } from '../../trace/html.js';
import { reportMade } from '../render/report-made.js';
import { checkOutFile, checkWritableFile, ndjsonOnStdout, reporterOf } from '../out-file.js';
import { redactChannelUrl } from './config-run.js';
import { plural } from '../../plural.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { compact } from '../../compact.js';
import { ALL_HOOK_EVENTS, DOCS_HOOK_EVENTS } from '../../contract/hooks.js';
import { closestNames } from '../../suggest.js';

type ConformOptions = Resolved<typeof conformOptions>;

/** Where each suite's peer listens in the docs' examples (an integrator on 9000, ...). */
const EXAMPLE_PEER: Readonly<Record<string, string>> = {
  integrator: 'http://127.0.0.1:9000/agent-messages',
  hooks: 'http://127.0.0.1:9200/hooks',
  bot: 'http://127.0.0.1:9100',
  platform: 'http://127.0.0.1:8800/<random_string>/<channel_public_id>',
};

function requireUrl(suite: string, name: string, value: string | undefined): string {
  if (value === undefined) {
    const fallback =
      suite === 'platform'
        ? ' (or set SVC_CHANNEL_URL)'
        : ` (or ${suite === 'hooks' ? '--hook-url, SVC_HOOK_URL' : suite === 'bot' ? '--bot-provider-url, SVC_BOT_PROVIDER_URL' : '--integrator-url, SVC_INTEGRATOR_URL'})`;
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not run conform ${suite}: ${name} is required${fallback}.`,
      `Example: svc-cli conform ${suite} ${name} ${EXAMPLE_PEER[suite]}`,
    );
  }
  return value;
}

/** The events `--events` names: each a hook event (spec 6.2, or the docs' client events). */
function checkHookEvents(o: ConformOptions): readonly string[] {
  const known: readonly string[] = [...ALL_HOOK_EVENTS, 'offline_messages'];
  // repeatable, and comma-separated within each
  const events = (o.events ?? []).flatMap((e) => e.split(',').map((x) => x.trim())).filter(Boolean);
  // an empty CI variable (--events "$EVENTS") must not turn the gate into a run of nothing
  if (events.length === 0)
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not use --events: it names no event, so no case would run.',
      `Name at least one (${known.join(', ')}), or leave --events out to run every event.`,
    );
  for (const event of events)
    if (!known.includes(event)) {
      const [meant] = closestNames(event, known, { maxDistance: 3 });
      throw new SvcError(
        'SVC_E_FLAG',
        `Could not use --events: "${event}" is not a hook event (spec 6.2).${meant ? ` Did you mean "${meant}"?` : ''}`,
        `Events: ${known.join(', ')}. Example: svc-cli conform hooks --url ${EXAMPLE_PEER.hooks} --events chat_accepted,chat_updated,chat_assigned,chat_finished,offline_message`,
      );
    }
  if (o.fuzz !== undefined)
    throw new SvcError(
      'SVC_E_OPTIONS',
      'Could not use --events with --fuzz: --events picks among the fixed cases, and --fuzz generates payloads of every event instead of them.',
      'Drop one of the two.',
    );
  return events;
}

function requireToken(token: string | undefined): string {
  if (!token)
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not run conform bot: --token is required (spec 5.2: the last path segment both ways).',
      'Example: svc-cli conform bot --url http://127.0.0.1:9100 --token t0k',
    );
  return token;
}

/**
 * `conform platform --bot-listen-port`: conform's bot, with the token and provider id set on
 * the platform's bot channel (spec 5.2, 4.3) and the platform's bot service it posts to.
 */
function conformBotOf(o: ConformOptions, botListenPort: number) {
  return {
    botListenPort,
    providerId: o.providerId,
    ...compact({ botToken: o.token, botApiUrl: o.botApiUrl }),
  };
}

/**
 * `conform platform`: the flags of conform's bot without --bot-listen-port would be ignored.
 * --token and --provider-id only when given on the command line: the config file and the
 * environment may hold them for conform bot.
 */
function refuseBotFlagsWithoutBot(
  suite: string,
  given: Readonly<Record<string, unknown>>,
  flags: ConformOptions,
): void {
  if (suite !== 'platform' || flags.botListenPort !== undefined) return;
  const flag =
    flags.botApiUrl !== undefined
      ? '--bot-api-url'
      : 'token' in given
        ? '--token'
        : 'providerId' in given
          ? '--provider-id'
          : undefined;
  if (flag === undefined) return;
  throw new SvcError(
    'SVC_E_OPTIONS',
    `Could not use ${flag}: conform platform reads it for the bot --bot-listen-port serves, and no --bot-listen-port is given.`,
    `Example: svc-cli conform platform --channel-url <url> --bot-listen-port 9300 ${flag === '--bot-api-url' ? '--bot-api-url https://bots.example.com' : `${flag} <value>`}`,
  );
}

/** Options -> suite options; every problem is an input error (exit 2). */
export function toConformOptions(suite: string, o: ConformOptions): RunConformOptions {
  switch (suite) {
    case 'integrator':
      return {
        suite,
        url: requireUrl(suite, '--url', o.url ?? o.integratorUrl),
        channel: o.channel,
        ...(o.runId === undefined ? {} : { runId: o.runId }),
      };
    case 'hooks':
      return {
        suite,
        url: requireUrl(suite, '--url', o.url ?? o.hookUrl),
        timeoutMs: o.timeout,
        // a list flag not given reads as empty: every event
        ...(o.events === undefined || o.events.length === 0 ? {} : { events: checkHookEvents(o) }),
        ...(o.runId === undefined ? {} : { runId: o.runId }),
      };
    case 'platform':
      if (o.url !== undefined)
        throw new SvcError(
          'SVC_E_FLAG',
          o.channelUrl === undefined
            ? 'Could not run conform platform: it reads the channel URL from --channel-url, not --url (spec 4.1).'
            : `Could not run conform platform: it takes no --url (${redactChannelUrl(o.url)}); it tests the channel URL given with --channel-url (spec 4.1). Drop --url.`,
          // the random string is a secret (spec 1.3): CI logs keep stderr
          `Example: svc-cli conform platform --channel-url ${redactChannelUrl(o.channelUrl ?? o.url)}`,
        );
      return {
        suite,
        channelUrl: requireUrl(suite, '--channel-url', o.channelUrl),
        integratorListenPort: o.integratorListenPort,
        toleranceMs: o.tolerance,
        ...(o.controlToken ? { controlToken: o.controlToken } : {}),
        ...(o.hookListenPort === undefined ? {} : { hookListenPort: o.hookListenPort }),
        ...(o.botListenPort === undefined ? {} : conformBotOf(o, o.botListenPort)),
        invariants: { disabled: checkInvariantNames(o.invariant ?? []) },
      };
    case 'bot':
      return {
        suite,
        url: requireUrl(suite, '--url', o.url ?? o.botProviderUrl),
        token: requireToken(o.token),
        providerId: o.providerId,
        platformListenPort: o.platformListenPort,
        answerWithinMs: o.answerWithin,
        texts: o.text,
        botEvents: o.botEvents,
        ...(o.runId === undefined ? {} : { runId: o.runId }),
        ...(o.showSecrets ? { showSecrets: true } : {}),
        invariants: { disabled: checkInvariantNames(o.invariant ?? []) },
      };
    default:
      throw new SvcError(
        'SVC_E_FLAG',
        `Could not run conform ${suite}: no such suite.`,
        'Suites: integrator, hooks, platform, bot.',
      );
  }
}

/**
 * The public Webhooks page's client events run only under a profile that sends them: without
 * one, `--events client_updated` would keep no case and pass a gate that checked nothing.
 */
function checkDocsEventsProfile(options: RunConformOptions, profile: string): void {
  if (options.suite !== 'hooks' || options.settings?.hookEvents === 'docs') return;
  const docsOnly = (options.events ?? []).filter((e) =>
    (DOCS_HOOK_EVENTS as readonly string[]).includes(e),
  );
  const [first] = docsOnly;
  if (first === undefined) return;
  throw new SvcError(
    'SVC_E_FLAG',
    `Could not use --events ${first}: it is an event of the public Webhooks page, beyond spec 6.2, and --profile ${profile} does not send it, so no case would run for it.`,
    'Add --profile docs to run it (docs/FIDELITY.md).',
  );
}

/** The suite's options under `--profile` (the spec's: as they are). */
async function withProfile(
  options: RunConformOptions,
  profile: string,
  cwd: string,
): Promise<RunConformOptions> {
  if (profile === 'spec') return options;
  return { ...options, settings: settingsOf(await loadProfile(profile, cwd)) };
}

/** A flag of another suite would be ignored: say so (a config file may hold any suite's). */
function refuseOtherSuitesFlags(suite: string, given: Readonly<Record<string, unknown>>): void {
  for (const spec of conformOptions.options as readonly OptionSpec[]) {
    const long = /--[\w-]+/.exec(spec.flag)?.[0];
    const suites = suitesReading(long, spec.group);
    // conform platform --url has its own message, with the command as it should be
    if (spec.key in given && suites && !suites.includes(suite) && long !== '--url')
      throw new SvcError(
        'SVC_E_FLAG',
        `Could not run conform ${suite}: ${long} is a flag of ${listed(suites.map((s) => `conform ${s}`))}, which conform ${suite} does not read${suite === 'platform' && spec.group === FUZZ_GROUP ? ' (fuzzing generates what the platform sends, and conform platform tests a platform)' : ''}.`,
        `The flags conform ${suite} reads: svc-cli conform ${suite} --help`,
      );
  }
}

/** --fuzz-path is fast-check's path (the run and shrink steps of one case, e.g. 41:0:2). */
export function checkFuzzPath(flags: ConformOptions): void {
  if (flags.fuzzPath === undefined) return;
  if (!/^\d+(:\d+)*$/.test(flags.fuzzPath))
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --fuzz-path "${flags.fuzzPath}": it is the path a failing run printed, numbers joined by colons.`,
      'Example: --fuzz 300 --seed 7 --fuzz-path 41:0:2 (copy the "replay exactly" line)',
    );
  if (flags.seed === undefined && (flags.fuzz !== undefined || flags.fuzzTime !== undefined))
    throw new SvcError(
      'SVC_E_OPTIONS',
      'Could not use --fuzz-path without --seed: the path names a case of one seeded run.',
      'Example: --fuzz 300 --seed 7 --fuzz-path 41:0:2 (copy the "replay exactly" line)',
    );
}

/**
 * The fuzz settings of --fuzz / --fuzz-time, told of each case as it starts and ends; none
 * without them (--seed and --fuzz-path alone are flag errors).
 */
export function fuzzSettingsOf(
  ctx: CliContext,
  flags: ConformOptions,
  on: { onCase: (n: number) => void; onCaseDone: (tally: FuzzTally) => void },
): RunConformOptions['fuzz'] {
  if (flags.fuzz === undefined && flags.fuzzTime === undefined) {
    if (flags.seed !== undefined || flags.fuzzPath !== undefined)
      throw new SvcError(
        'SVC_E_OPTIONS',
        `Could not use ${flags.seed !== undefined ? '--seed' : '--fuzz-path'}: it replays generated traffic, and no --fuzz is given.`,
        'Example: --fuzz 300 --seed 7',
      );
    return undefined;
  }
  const timeLimitMs =
    flags.fuzzTime === undefined ? undefined : parseDuration(flags.fuzzTime, '--fuzz-time');
  // no time to generate a case in: the fuzz run would pass having tried nothing
  if (timeLimitMs === 0)
    throw new SvcError(
      'SVC_E_OPTIONS',
      `Could not use --fuzz-time ${flags.fuzzTime ?? ''}: it leaves no time to generate a case.`,
      'Example: --fuzz-time 30s',
    );
  return {
    runs: flags.fuzz ?? 1_000_000_000,
    cwd: ctx.cwd,
    ...(flags.fuzzStateful ? { stateful: true } : {}),
    ...(timeLimitMs === undefined ? {} : { timeLimitMs }),
    onCaseDone: on.onCaseDone,
    onCase: on.onCase,
    failuresDir: flags.replayFailures,
    changes: flags.fuzzChanges,
    ...compact({ seed: flags.seed, path: flags.fuzzPath }),
  };
}

/** The cases finished so far, and a fuzz run's generated ones (its result comes at its end). */
export interface CaseTally {
  done: number;
  failed: number;
  skipped: number;
  fuzz?: FuzzTally;
  /** the finished cases, for the reports a signal cuts short */
  results?: ConformCaseResult[];
  /** the cases the suite runs, in order, once it has prepared them */
  planned?: readonly { name: string; spec: readonly string[] }[];
  /** wall ms (performance.now) the suite started, the case under way started, a signal came */
  startedMs?: number;
  caseStartedMs?: number;
  stoppedMs?: number;
}

/** Where a run's lines go while it goes on: the reporter, through the progress line. */
interface ConformView {
  suite: string;
  flags: ConformOptions;
  reporter: ConformOptions['reporter'] | 'json';
  /** NDJSON on stdout as it goes (`ndjsonOnStdout`) */
  ndjson: boolean;
  out: Output;
  progress: Awaited<ReturnType<typeof createRunProgress>>;
}

/** The suite's callbacks: each case shown as it ends, the listeners it starts announced. */
function conformListeners(
  view: ConformView,
  tally: CaseTally,
): Pick<
  RunConformOptions,
  | 'onCase'
  | 'onCases'
  | 'onBotService'
  | 'onHookChat'
  | 'onIntegratorRun'
  | 'onHookReceiver'
  | 'onBotProvider'
> {
  const { suite, flags, reporter, out, progress, ndjson } = view;
  const pretty = reporter === 'pretty';
  const onCase = (result: ConformCaseResult): void => {
    // the next case starts now: an interrupted one is timed from here
    tally.caseStartedMs = performance.now();
    tally.done++;
    tally.results?.push(result);
    if (result.skipped !== undefined) tally.skipped++;
    else if (!result.ok) tally.failed++;
    progress.around(() => {
      if (pretty) {
        out.line(formatConversation(result, out.chalk, out.columns));
        const untimed = result.judgedOnEarlierRun;
        for (const step of result.steps)
          out.line(formatStep(step, out.chalk, { skipReasons: true, untimed }));
      } else if (ndjson) {
        out.event({ type: 'case', ...result });
      } else if (
        reporter === 'junit' &&
        flags.out !== undefined &&
        !result.ok &&
        result.skipped === undefined
      ) {
        // the report is in the file: a CI log still says which case failed and why
        out.line(formatConversation(result, out.chalk, out.columns));
        for (const step of result.steps)
          if (step.status === 'failed')
            out.line(
              formatStep(step, out.chalk, {
                skipReasons: false,
                untimed: result.judgedOnEarlierRun,
              }),
            );
      }
    });
    progress.update(`conform ${suite}: ${plural(tally.done, 'case')} done, running the next`);
  };
  const onBotService = (info: BotServiceInfo): void =>
    progress.around(() => {
      const text = `bot service listening at ${info.url}: point the bot at ${info.webhookUrl} (or ${info.providersUrl} with Authorization); run id ${info.runId}: chats from ${info.firstChatId} (--run-id ${info.runId} repeats them)`;
      if (ndjson) out.event({ type: 'listening', ...info });
      else if (pretty) out.line(out.chalk.dim(text));
      else out.note(text);
    });
  const onHookChat = (info: { runId: number; chatId: number; sequences?: boolean }): void =>
    progress.around(() => {
      const text = info.sequences
        ? `run id ${info.runId}: each sequence is a new chat, from ${info.chatId} (--run-id ${info.runId} repeats them)`
        : `run id ${info.runId}: every event is about chat ${info.chatId} (--run-id ${info.runId} repeats it)`;
      if (pretty) out.line(out.chalk.dim(text));
      else out.note(text);
    });
  const onIntegratorRun = (info: { runId: number; firstMessageId: string }): void =>
    progress.around(() => {
      const text = `run id ${info.runId}: message ids from ${info.firstMessageId} (--run-id ${info.runId} repeats them)`;
      if (pretty) out.line(out.chalk.dim(text));
      else out.note(text);
    });
  const onHookReceiver = (url: string): void =>
    progress.around(() =>
      out.note(`hook receiver listening at ${url}: point the platform's hooks here`),
    );
  const onBotProvider = (bot: BotProviderInfo): void =>
    progress.around(() => out.note(botProviderNote(bot, flags.showSecrets)));
  const onCases = (cases: NonNullable<CaseTally['planned']>): void => {
    tally.planned = cases;
  };
  return {
    onCase,
    onCases,
    onBotService,
    onHookChat,
    onIntegratorRun,
    onHookReceiver,
    onBotProvider,
  };
}

/**
 * How to attach conform's bot to the platform: its URL, token and provider id, and where it
 * posts. A token given with --token is a secret (spec 5.2), shown as `<token>` unless
 * --show-secrets; the default one is printed, to paste into an svc simulator's command.
 */
export function botProviderNote(bot: BotProviderInfo, showSecrets: boolean): string {
  const token = showSecrets || bot.token === CONFORM_BOT.token ? bot.token : '<token>';
  const hidden = token === bot.token ? '' : '; the token is redacted (--show-secrets prints it)';
  return `bot provider listening at ${bot.url}: attach it to the platform's channel (svc-cli platform --bot-provider-url ${bot.url} --bot-token ${token} --provider-id ${bot.providerId}); it posts INVITE_AGENT to ${bot.apiUrl}/webhooks/${bot.providerId}/<token> (--bot-api-url sets it)${hidden}`;
}

/** What Ctrl-C cut short: the generated cases of a fuzz run, else the cases. */
export function interruptedNote(tally: CaseTally): string {
  const fuzz = tally.fuzz;
  return fuzz
    ? `interrupted: ${plural(fuzz.finished, 'generated case')} finished: ${fuzz.finished - fuzz.failed} passed, ${fuzz.failed} failed (seed ${fuzz.seed}; --fuzz ${fuzz.finished} --seed ${fuzz.seed} runs them again)`
    : `interrupted: ${plural(tally.done, 'case')} finished: ${tally.done - tally.failed - tally.skipped} passed, ${tally.failed} failed, ${tally.skipped} skipped`;
}

/** The summary (pretty lines or a JSON event), then the JSON or JUnit report. */
function reportConform(ctx: CliContext, view: ConformView, report: ConformReport): void {
  const { flags, reporter, out, ndjson } = view;
  const pretty = reporter === 'pretty';
  const { passed, failed, skipped, warnings, results } = report;
  // spec 5.1: the channel URL's random string is a secret (the JUnit file redacts it too)
  const target =
    report.suite === 'platform' && !flags.showSecrets
      ? redactChannelUrl(report.target)
      : report.target;
  const hint = report.wrongPeer && formatWrongPeer(report.suite, report.wrongPeer);
  const strictFailures = report.strictFailures ?? 0;
  const counts = `${passed} passed, ${failed} failed, ${skipped} skipped${warnings > 0 ? `, ${plural(warnings, 'warning')}` : ''}${strictFailures > 0 ? `, ${plural(strictFailures, 'warning')} failed with --strict` : ''}`;
  if (pretty) printSummary(out, report, { target, counts, hint });
  const summary = {
    type: 'summary',
    suite: report.suite,
    target,
    passed,
    failed,
    skipped,
    warnings,
    total: results.length,
    ...(flags.strict ? { strict: true, strictFailures } : {}),
    ...compact({ fuzz: report.fuzz, invariants: report.invariants }),
    ...(report.wrongPeer ? { wrongPeer: report.wrongPeer, hint } : {}),
  };
  if (ndjson) out.event(summary);
  else if (!pretty && hint) out.note(hint);
  writeConformFile(ctx, view, results, counts, summary);
}

/**
 * The JUnit or JSON report of `results`, to --out (with `counts` on stderr) or stdout. The JSON
 * file holds the lines stdout would: the cases, then `summary` when the run has one.
 */
function writeConformFile(
  ctx: CliContext,
  view: Pick<ConformView, 'suite' | 'flags' | 'reporter' | 'out'>,
  results: readonly JunitResult[],
  counts: string,
  summary?: Readonly<Record<string, unknown>>,
  /** the suite's wall ms when it is not the sum of its cases' (a run a signal stopped) */
  suiteMs?: number,
): void {
  const { flags, reporter, out, suite } = view;
  const text =
    reporter === 'junit'
      ? toJunit(
          `svc-cli conform ${suite}`,
          // a conform case is no conversation: its failure type says what failed
          results.map((r) => ({ failureType: 'ConformCaseFailed', ...r })),
          suiteMs,
        )
      : reporter === 'json'
        ? [...results.map((r) => ({ type: 'case', ...r })), ...(summary ? [summary] : [])]
            .map((line) => `${JSON.stringify(line)}\n`)
            .join('')
        : undefined;
  if (text === undefined) return;
  if (flags.out) {
    writeFileWhole(resolve(ctx.cwd, flags.out), text, flags.out);
    out.note(`report written to ${flags.out}: ${counts}`);
  } else if (reporter === 'junit') {
    ctx.stdout.write(text);
  }
}

/**
 * A signal stopped the suite: the reports still written (a CI timeout's publish step finds
 * them), with the finished cases and each case that did not finish marked interrupted.
 */
async function reportInterrupted(
  ctx: CliContext,
  view: ConformView,
  tally: CaseTally,
  recording: { file: string; scratch?: string } | undefined,
): Promise<void> {
  const done = tally.results ?? [];
  // stopped before the suite had its cases: one entry stands for the whole suite
  const planned = tally.planned ?? [{ name: `conform ${view.suite}`, spec: [] }];
  const fuzz = tally.fuzz;
  // a fuzz property cut short still ran its generated cases: say how many, and the seed
  const more = fuzz
    ? `${plural(fuzz.finished, 'generated case')} finished, ${fuzz.failed} failed (seed ${fuzz.seed}; --fuzz ${fuzz.finished} --seed ${fuzz.seed} runs them again)`
    : undefined;
  // the case under way ran until the signal; the suite from its start until then
  const stoppedMs = tally.stoppedMs ?? performance.now();
  const underWayMs = stoppedMs - (tally.caseStartedMs ?? stoppedMs);
  const cut = planned
    .slice(done.length)
    // the classname a finished case has: a CI keeps a test's history by classname and name
    .map(({ name, spec }, i) => ({
      ...unfinished(name, spec.length > 0 ? `spec ${spec.join(', ')}` : undefined, more),
      suite: view.suite,
      spec,
      ...(i === 0 ? { wallMs: underWayMs } : {}),
    }));
  if (view.ndjson) for (const r of cut) view.out.event({ type: 'case', ...r });
  const counts = `${tally.done - tally.failed - tally.skipped} passed, ${tally.failed} failed, ${tally.skipped} skipped, ${cut.length} interrupted`;
  const results: JunitResult[] = [...done, ...cut];
  const suiteMs = tally.startedMs === undefined ? undefined : stoppedMs - tally.startedMs;
  writeConformFile(ctx, view, results, counts, undefined, suiteMs);
  if (recording) await writeConformReport(ctx, view, results, recording);
}

/** `svc-cli conform <suite>`: run the suite, report each case; exit 1 when any case fails. */
export async function runConform(
  ctx: CliContext,
  suite: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  refuseOtherSuitesFlags(suite, given);
  const flags = resolveForCommand(ctx, conformOptions, given);
  refuseBotFlagsWithoutBot(suite, given, flags);
  const reporter = reporterOf({
    json: flags.json,
    reporter: flags.reporter,
    given,
    out: flags.out,
    command: `conform ${suite}`,
  });
  checkOutFile({ cwd: ctx.cwd, out: flags.out, reporter, command: `conform ${suite}` });
  const ndjson = ndjsonOnStdout({ json: flags.json, reporter, out: flags.out });
  const out = createOutput(ctx, { json: ndjson });
  const tally: CaseTally = { done: 0, failed: 0, skipped: 0, results: [] };
  try {
    return await runConformChecked(ctx, suite, { flags, reporter, ndjson, out, tally });
  } catch (error) {
    // a signal's stop is reported as interrupted; any other error still gets its --out file
    if (!ctx.signal.aborted) reportRunError(ctx, { suite, flags, reporter, out }, error, tally);
    throw error;
  }
}

/** The suite's run once its report's file and reporter are known (runConform reports a throw). */
async function runConformChecked(
  ctx: CliContext,
  suite: string,
  run: Pick<ConformView, 'flags' | 'reporter' | 'ndjson' | 'out'> & { tally: CaseTally },
): Promise<number> {
  const { flags, reporter, ndjson, out, tally } = run;
  const options = await withProfile(toConformOptions(suite, flags), flags.profile, ctx.cwd);
  checkDocsEventsProfile(options, flags.profile);
  // --report reads what the run recorded: the --record file, else a temporary one
  const recording = recordingOf(ctx, flags);
  // the chats conform platform saw (--record, --report); for conform bot's --report, those its
  // embedded platform journaled: not offered as --record, since trace would judge that
  // journal as a platform's, and the scripted AGENT_JOINED is svc-cli's, no platform's. Hooks
  // and integrator open no chat: their report lists the cases
  if ((options.suite === 'platform' || options.suite === 'bot') && recording)
    options.recordFile = recording.file;
  checkFuzzPath(flags);
  const fuzz = fuzzSettingsOf(ctx, flags, {
    onCaseDone: (fuzzTally) => (tally.fuzz = fuzzTally),
    onCase: (n) =>
      progress.update(
        `conform ${suite} --fuzz: ${flags.fuzz === undefined ? plural(n, 'case') : `${n} of ${plural(flags.fuzz, 'case')}`}`,
      ),
  });
  if (fuzz) options.fuzz = fuzz;
  if (options.suite === 'bot' && flags.script !== undefined) {
    options.texts = [...(await readCustomerScript(ctx.cwd, flags.script)), ...flags.text];
  }
  const waitMs = flags.wait === undefined ? undefined : parseDuration(flags.wait, '--wait');
  // a suite against a real peer runs in real seconds: show that it is working
  const progress = await createRunProgress(ctx, {
    json: reporter !== 'pretty',
    flush: () => out.flush(),
  });
  const view: ConformView = { suite, flags, reporter, ndjson, out, progress };
  progress.update(
    waitMs
      ? `conform ${suite}: waiting up to ${flags.wait} for the peer, then the first case`
      : `conform ${suite}: running the first case`,
  );
  // Ctrl-C stops the suite: it returns with the cases finished and, conform platform, what it
  // saw written to the recording; the JUnit times run until the signal came
  tally.startedMs = tally.caseStartedMs = performance.now();
  ctx.signal.addEventListener('abort', () => (tally.stoppedMs ??= performance.now()), {
    once: true,
  });
  const outcome = await runConformSuite({
    ...options,
    ...(waitMs === undefined ? {} : { waitMs }),
    timeScale: flags.timeScale,
    signal: ctx.signal,
    ...(flags.strict ? { strict: true } : {}),
    ...conformListeners(view, tally),
  })
    .catch(async (error: unknown) => {
      // what a signal cut short may fail as it stops: the reports are still written
      if (ctx.signal.aborted) return undefined;
      // the --report page of a run an error ended (runConform writes its --out file)
      if (recording) await reportRunErrorPage(ctx, view, error, tally, recording);
      throw error;
    })
    .finally(() => progress.stop());
  if (outcome === undefined || outcome.interrupted) {
    out.note(interruptedNote(tally));
    await reportInterrupted(ctx, view, tally, recording);
    await out.flush();
    return EXIT_CODES.sigint;
  }
  reportConform(ctx, view, outcome);
  if (recording) await writeConformReport(ctx, view, outcome.results, recording);
  return outcome.failed > 0 ? 1 : 0;
}

/**
 * The run ended on an error: the peer never answered or stopped accepting connections (exit 3),
 * or an input error found once the run had begun (exit 2: a profile or script that cannot be
 * read, a port in use): the cases finished and one error for the suite, with the words the
 * reports say it in; undefined for any other error.
 */
function runErrorOf(
  view: Pick<ConformView, 'suite'>,
  error: unknown,
  tally: CaseTally,
): { results: JunitResult[]; counts: string; stopped: string } | undefined {
  if (!(error instanceof SvcError)) return undefined;
  if (error.category !== 'network' && error.category !== 'input') return undefined;
  const unreachable = error.code === 'SVC_E_PEER_UNREACHABLE';
  const suite: JunitResult = {
    name: `conform ${view.suite}`,
    file: `svc-cli conform ${view.suite}`,
    ok: false,
    steps: [],
    protocolMs: 0,
    wallMs: 0,
    error: { message: error.message, type: unreachable ? 'PeerUnreachable' : 'InputError' },
  };
  const done = tally.results ?? [];
  const stopped = unreachable ? 'the peer is unreachable' : `${error.code} stopped the run`;
  const counts =
    done.length === 0
      ? `${stopped}: no case ran`
      : `${tally.done - tally.failed - tally.skipped} passed, ${tally.failed} failed, ${tally.skipped} skipped, then ${stopped}`;
  return { results: [...done, suite], counts, stopped };
}

/**
 * --out still gets a report of a run an error ended (runErrorOf), so a CI step that publishes
 * it whatever happened shows why instead of finding no file; so does a JUnit report on stdout
 * (`> conform.xml` left an empty file, which a publisher cannot parse).
 */
function reportRunError(
  ctx: CliContext,
  view: Pick<ConformView, 'suite' | 'flags' | 'reporter' | 'out'>,
  error: unknown,
  tally: CaseTally,
): void {
  if (view.flags.out === undefined && view.reporter !== 'junit') return;
  const ended = runErrorOf(view, error, tally);
  if (ended) writeConformFile(ctx, view, ended.results, ended.counts);
}

/** --report's page of a run an error ended (runErrorOf): the cases finished, then the error. */
async function reportRunErrorPage(
  ctx: CliContext,
  view: ConformView,
  error: unknown,
  tally: CaseTally,
  recording: { file: string; scratch?: string },
): Promise<void> {
  const ended = runErrorOf(view, error, tally);
  if (ended) await writeConformReport(ctx, view, ended.results, recording, ended.counts);
  else if (recording.scratch !== undefined)
    rmSync(recording.scratch, { recursive: true, force: true });
}

/** Where `--record` / `--report` go: the file, and a scratch folder to remove after. */
function recordingOf(
  ctx: CliContext,
  flags: ConformOptions,
): { file: string; scratch?: string } | undefined {
  // a file that cannot be written is said now, not after the suite ran
  checkWritableFile({ cwd: ctx.cwd, file: flags.record, flag: '--record' });
  checkWritableFile({ cwd: ctx.cwd, file: flags.report, flag: '--report' });
  if (flags.record !== undefined) return { file: resolve(ctx.cwd, flags.record) };
  if (flags.report === undefined) return undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'svc-report-'));
  return { file: join(scratch, 'conform.ndjson'), scratch };
}

/** Where a failed case's exchanges are on the page: the run's chats are not split by case. */
const CASE_CHATS = 'the chats it opened, if any, are drawn below with the run’s others';

/** The suites whose report draws chats: those conform platform saw, conform bot's platform's. */
const DRAWS_CHATS: readonly string[] = ['platform', 'bot'];

/**
 * How a case is listed: hooks and integrator open no chat, so a case's page entry needs no
 * word on why none is drawn (a skipped case still says why it was not run).
 */
function caseEntry(r: JunitResult, chats: boolean): ReportRun {
  const entry = reportRunOf(r);
  if (r.skipped !== undefined) return entry;
  // the suite could not run (the peer unreachable): the page says why, as the terminal does
  if (r.error !== undefined) return { ...entry, why: r.error.message };
  return chats ? { ...entry, why: CASE_CHATS } : { ...entry, why: '' };
}

/** `--report`: the HTML report of what the run saw (src/cli/commands/report-write.ts). */
async function writeConformReport(
  ctx: CliContext,
  view: ConformView,
  results: readonly JunitResult[],
  recording: { file: string; scratch?: string },
  /** what the note says after the file's name, instead of the page's counts */
  said?: string,
): Promise<void> {
  const { flags, out } = view;
  const interrupted = results.some((r) => r.interrupted !== undefined);
  // hooks and integrator open no chat: the page is the cases
  const chats = DRAWS_CHATS.includes(view.suite);
  try {
    if (flags.report === undefined) return;
    const { writeHtmlReport } = await import('./report-write.js');
    const html = await writeHtmlReport({
      recording: existsSync(recording.file) ? recording.file : [],
      out: resolve(ctx.cwd, flags.report),
      shownOut: flags.report,
      title: `svc-cli conform ${view.suite}`,
      made: reportMade(ctx),
      disabled: flags.invariant ?? [],
      // conform bot's chats are its embedded platform's: a rule there would judge svc-cli's
      // own sending; the suite judges the bot's side (src/trace/peer-rules.ts), a failed case
      // on the page when broken
      ...(view.suite === 'platform' ? {} : { judged: false as const }),
      ...(chats ? {} : { chats: false as const }),
      // no violations on these pages: what the filter keeps is the failed cases
      ...(view.suite === 'platform' ? {} : { filter: 'only failed cases' }),
      // every finished case, counted as the terminal counts them: the failed ones first, with
      // what failed (the chats alone may all look fine), the others folded
      cases: results.filter((r) => r.interrupted === undefined).map((r) => caseEntry(r, chats)),
      // cut short: the cases that did not finish listed after what was recorded
      ...(interrupted
        ? { runs: results.filter((r) => r.interrupted !== undefined).map(reportRunOf) }
        : {}),
      runNoun: 'case',
    });
    const counted = `${html.failed ? `${html.failed} failed, ` : ''}${html.interrupted ? `${html.interrupted} interrupted, ` : ''}`;
    out.note(
      said !== undefined
        ? `HTML report written to ${flags.report}: ${said}`
        : view.suite === 'platform'
          ? `HTML report written to ${flags.report}: ${counted}${plural(html.conversations, 'conversation')}, ${plural(html.violations, 'invariant violation')}${html.runs ? `, ${plural(html.runs, 'case')} without a chat to draw` : ''}`
          : `HTML report written to ${flags.report}: ${counted}${plural(results.length, 'case')}${chats ? `, ${plural(html.conversations, 'conversation')}` : ''}`,
    );
  } finally {
    if (recording.scratch !== undefined)
      rmSync(recording.scratch, { recursive: true, force: true });
  }
}

/**
 * The summary line for passes with a step that could not be observed.
 * @example partlyCheckedNote(1) // '1 of the passed cases was checked in part: a step marked - ...'
 */
export const partlyCheckedNote = (partly: number): string =>
  `${partly} of the passed cases ${partly === 1 ? 'was' : 'were'} checked in part: ${partly === 1 ? 'a step' : 'steps'} marked - could not be observed on this peer`;

/** The pretty reporter's lines after the cases: the peer, the invariants, the counts, fuzz. */
function printSummary(
  out: Output,
  report: ConformReport,
  { target, counts, hint }: { target: string; counts: string; hint: string | undefined },
): void {
  const { failed } = report;
  const c = out.chalk;
  out.line(`\n${c.dim(`conform ${report.suite} against ${target}`)}`);
  if (report.invariants) out.line(c.dim(invariantsLine(report.invariants)));
  out.line(failed > 0 ? c.red(counts) : c.green(counts));
  const partly = report.results.filter(
    (r) => r.ok && r.skipped === undefined && r.steps.some((s) => s.status === 'skipped'),
  ).length;
  if (partly > 0) out.line(c.yellow(partlyCheckedNote(partly)));
  if (hint) out.line(c.yellow(hint));
  if (report.fuzz) {
    const f = report.fuzz;
    const edges = f.edges ? `, ${f.edges.covered} of ${plural(f.edges.total, 'edge')} met` : '';
    // the sweep of every edge comes first; a run shorter than it stops part way
    // --fuzz-stateful has no sweep: its sequences are all drawn at random
    const short =
      !f.edges || f.edges.covered >= f.edges.total
        ? ''
        : f.edges.sweep === 0
          ? ' (--fuzz-stateful draws every sequence at random, with no sweep of the edges first: a larger --fuzz meets more; a run without it sweeps them all)'
          : f.runs < f.edges.sweep
            ? ` (the first ${f.edges.sweep} cases take every edge: --fuzz ${f.edges.sweep} or more meets them all)`
            : '';
    const distinct =
      f.failures.length > 0 ? `; ${plural(f.failures.length, 'distinct failure')}` : '';
    // a --fuzz-path replay sent its one case (and its shrink steps), not the run's N
    const sent =
      f.sentByPath === undefined
        ? plural(f.runs, 'generated case')
        : `${plural(f.sentByPath, 'generated case')} sent (--fuzz-path, within a run of ${f.runs})`;
    out.line(c.dim(`fuzz: ${sent}, seed ${f.seed}${edges}${short}${distinct}`));
    for (const failure of [...f.failures, ...f.warnings]) {
      out.line(
        `${failure.warning ? c.yellow('warning') : c.red('failure')}: ${failure.property} (${[failure.kind, ...(failure.alsoIn ?? [])].join(', ')}); again: --fuzz ${failure.runs} --seed ${f.seed} --fuzz-path ${failure.path}`,
      );
      for (const w of failure.written) out.line(`  written: ${w.file}\n    ${w.command}`);
    }
  }
}

/**
 * `invariants: 6 checked on 3 conversations (21 exchanges), 1 violation`; where svc-cli plays
 * the platform, the peer's side: `invariants: 2 checked (bot-after-close, handover-budget) on
 * 1 conversation (9 exchanges); 6 skipped: they judge what svc-cli sends (docs/trace.md)`
 */
function invariantsLine(t: InvariantsTally): string {
  // conform hooks: 0 checked on 0 conversations read as if nothing had run
  if (t.checked.length === 0 && t.skipped?.length)
    return `invariants: none applies to this peer (${t.skipped.length} judge what svc-cli sends: docs/trace.md)`;
  const names = t.skipped ? ` (${t.checked.join(', ') || 'none applies to this peer'})` : '';
  const skipped = t.skipped?.length
    ? `; ${t.skipped.length} skipped: they judge what svc-cli sends (docs/trace.md)`
    : '';
  return `invariants: ${t.checked.length} checked${names} on ${plural(t.conversations, 'conversation')} (${plural(t.exchanges, 'exchange')})${t.violations > 0 ? `, ${plural(t.violations, 'violation')}` : ''}${skipped}`;
}

/**
 * `conform bot --script`: the customer's texts, one per line (blank lines and # comments
 * skipped), or a JSON array of strings.
 * @example await readCustomerScript('.', 'intents.txt') // ['I want to book a table', 'menu']
 */
export async function readCustomerScript(cwd: string, file: string): Promise<string[]> {
  const text = await readInputFile({ kind: 'customerScript', given: file, cwd });
  let texts: unknown;
  if (/\.json$/i.test(file)) {
    try {
      texts = JSON.parse(text);
    } catch (error) {
      throw new SvcError('SVC_E_READ', `Could not read the script ${file}: ${errorText(error)}.`);
    }
  } else {
    texts = text
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'));
  }
  if (
    !Array.isArray(texts) ||
    texts.length === 0 ||
    !texts.every((t) => typeof t === 'string' && t !== '')
  ) {
    throw new SvcError(
      'SVC_E_READ',
      `Could not use the script ${file}: it holds no customer text.`,
      'One text per line, or a JSON array of strings: ["I want to book a table", "menu"].',
    );
  }
  return texts as string[];
}
