import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { basename, isAbsolute, join, relative, resolve } from 'node:path';
import { closestNames } from '../../suggest.js';
import { loadProfile, settingsOf } from '../../conversation/record/profile.js';
import type { CliContext } from '../context.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { replayOptions } from './replay-options.js';
import { EXIT_CODES, SvcError } from '../../errors.js';
import {
  DEFAULT_CONVERSATIONS,
  loadEveryConversation,
  type ConversationLoadFailure,
  localOrShippedConversations,
} from '../../conversation/load.js';
import { localOrShippedFixture, packageFiles } from '../../package-files.js';
import { replayAll, usesRealPeer } from '../../conversation/replay-all.js';
import { createRunProgress } from '../render/progress.js';
import { createOutput } from '../render/output.js';
import { remoteTimeScale } from '../../conversation/world-remote.js';
import type { ConversationResult, ReplayPeers } from '../../conversation/runner.js';
import { formatConversation, formatStep, formatSummary } from '../render/reporters/pretty.js';
import { toJunit, type JunitResult } from '../render/reporters/junit.js';
import { reportRunOf, unfinished } from '../render/run-entries.js';
import { reportMade } from '../render/report-made.js';
import { checkOutFile, checkWritableFile, ndjsonOnStdout, reporterOf } from '../out-file.js';
import { plural } from '../../plural.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { checkInvariantNames } from '../../trace/invariants.js';
import { resolveMutant } from '../../platform/mutants.js';
import { compact } from '../../compact.js';
import { assertReachable } from '../../http/reach.js';
import { parseDuration } from '../../duration.js';
import { newRunId, type RecordingStatus } from '../../journal/index.js';

const DEFAULT_PATH = DEFAULT_CONVERSATIONS;

/** Without paths, the local or the shipped conversations (`npx svc-cli replay` just works). */
function resolvePaths(cwd: string, paths: string[]): string[] {
  if (paths.length > 0) return paths.map((p) => resolve(cwd, p));
  return [localOrShippedConversations(cwd).path];
}

/** `…/fixtures/conversations/<name>.json` or the folder itself: a path the docs name. */
const BUNDLED_PATH = /(?:^|[\\/])fixtures[\\/]conversations(?:[\\/]([^\\/]+?)\.json)?[\\/]?$/;

/**
 * A missing `fixtures/conversations/<name>.json` that svc-cli ships (the docs name them by
 * their path in the package, which a project that installed svc-cli does not have): the hint
 * says how to run the shipped one.
 */
function withBundledHint(error: unknown, cwd: string, inputs: string[]): unknown {
  if (!(error instanceof SvcError) || error.code !== 'SVC_E_READ') return error;
  const missing = inputs.find((path) => !existsSync(path) && BUNDLED_PATH.test(path));
  const name = missing === undefined ? undefined : BUNDLED_PATH.exec(missing)?.[1];
  // a path of the user's own: the loader's hint says what replay reads and what writes one
  if (missing === undefined) return error;
  const files = packageFiles();
  // with a folder of its own, --grep would look there, not in the package
  const grep = !existsSync(resolve(cwd, DEFAULT_PATH));
  if (name === undefined)
    return new SvcError(
      'SVC_E_READ',
      error.message,
      grep
        ? 'svc-cli ships its conversations: svc-cli replay without a path runs them (--grep <name> picks some).'
        : `svc-cli ships its conversations in ${files.pathOf(DEFAULT_PATH) ?? 'its package'}.`,
    );
  const file = `${DEFAULT_PATH}/${name}.json`;
  if (files.read(file) === undefined) return error;
  // the single binary has no package folder: its copy of the fixtures is one
  const at = files.pathOf(file) ?? join(files.folderOf(DEFAULT_PATH), `${name}.json`);
  const ways = [
    ...(grep ? [`svc-cli replay --grep ${name}.json`] : []),
    `svc-cli replay ${relativeOrAbsolute(cwd, at)}`,
  ];
  return new SvcError(
    'SVC_E_READ',
    error.message,
    `svc-cli ships ${name}.json; run it with: ${ways.join(', or ')}`,
  );
}

/** A path as short as it can be said from `cwd`. */
const relativeOrAbsolute = (cwd: string, path: string): string => {
  const rel = relative(cwd, path);
  return rel.startsWith('..') || isAbsolute(rel) ? path : rel;
};

type Output = ReturnType<typeof createOutput>;
type Loaded = Awaited<ReturnType<typeof loadEveryConversation>>['loaded'];
/**
 * A conversation to run, with the run id its exchanges carry in the --record journal (named
 * before it runs: the report draws one a signal cuts short under its fixture's name too).
 */
type Named = Loaded[number] & { journalRun?: string };

/** Each conversation with its journal run when the run records (--record, --report). */
const namedRuns = (plan: ReplayPlan, loaded: Loaded): Named[] =>
  plan.recordFile === undefined
    ? loaded
    : loaded.map((item) => ({ ...item, journalRun: newRunId() }));

/** What the flags make of a run before any conversation loads, each checked once. */
interface ReplayPlan {
  flags: ReplayFlags;
  reporter: ReplayFlags['reporter'] | 'json';
  /** NDJSON on stdout as it goes (`ndjsonOnStdout`) */
  ndjson: boolean;
  grep: RegExp | undefined;
  peers: ReplayPeers;
  runId: number | undefined;
  disabled: ReturnType<typeof checkInvariantNames>;
  /** the temporary folder of --report without --record, removed once the report is written */
  scratch: string | undefined;
  recordFile: string | undefined;
  /** --record names a file that already holds records: this run's are appended after them */
  appends: boolean;
  settings: ReturnType<typeof settingsOf> | undefined;
  /** --wait: wall ms to wait for the real peers to accept connections */
  waitMs: number | undefined;
}

/**
 * ` (did you mean "hook-lifecycle.json"?)` for a --grep one typo from a conversation's file
 * name (its base name) or name; empty when none is near.
 */
function grepMeant(
  typed: string,
  loaded: readonly { file: string; conversation: { name: string } }[],
): string {
  const names = loaded.flatMap(({ file, conversation }) => [basename(file), conversation.name]);
  const [near] = closestNames(typed, names, { limit: 1, maxDistance: 3 });
  return near === undefined ? '' : ` (did you mean "${near}"?)`;
}

/** --grep as a case-insensitive pattern; an invalid one is a flag error. */
function grepOf(flags: ReplayFlags): RegExp | undefined {
  if (flags.grep === undefined) return undefined;
  try {
    return new RegExp(flags.grep, 'i');
  } catch (error) {
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not use --grep "${flags.grep}": ${(error as Error).message}.`,
    );
  }
}

/** --record writes NDJSON: a .har name is a flag error. */
function checkRecordFlag(flags: ReplayFlags): void {
  if (flags.record !== undefined && flags.record.toLowerCase().endsWith('.har'))
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not record to ${flags.record}: replay records NDJSON (each conversation appends its own run).`,
      'Name a .ndjson file; svc-cli trace reads it.',
    );
}

/** Whether a file exists with something in it (a --record file from an earlier run). */
function holdsBytes(file: string): boolean {
  try {
    return statSync(file).size > 0;
  } catch {
    return false;
  }
}

/** Where the conversations record: --record, else a temporary file for --report. */
function recordingOf(
  ctx: CliContext,
  flags: ReplayFlags,
): { scratch: string | undefined; recordFile: string | undefined } {
  // --report reads what the conversations recorded: the --record file, else a temporary one
  const scratch =
    flags.report !== undefined && flags.record === undefined
      ? mkdtempSync(join(tmpdir(), 'svc-report-'))
      : undefined;
  const recordFile =
    flags.record !== undefined
      ? resolve(ctx.cwd, flags.record)
      : scratch === undefined
        ? undefined
        : join(scratch, 'session.ndjson');
  return { scratch, recordFile };
}

/** The simulator settings of --profile; a running simulator (--platform-url) keeps its own. */
async function profileSettingsOf(
  ctx: CliContext,
  flags: ReplayFlags,
  peers: ReplayPeers,
): Promise<ReturnType<typeof settingsOf> | undefined> {
  if (peers.platformUrl && flags.profile !== 'spec')
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not replay with --profile: --platform-url replaces the embedded platform, which follows the profile it was started with.',
      `Start that simulator with platform --profile ${flags.profile}.`,
    );
  return flags.profile === 'spec'
    ? undefined
    : settingsOf(await loadProfile(flags.profile, ctx.cwd));
}

/** The flags checked, in the order a user meets their errors, before anything loads. */
async function planReplay(
  ctx: CliContext,
  flags: ReplayFlags,
  reporter: ReplayPlan['reporter'],
): Promise<ReplayPlan> {
  const grep = grepOf(flags);
  const peers = peersOf(flags);
  const runId = runIdOf(flags, peers);
  checkRecordFlag(flags);
  // a file that cannot be written is said now, not as a failure of every conversation
  checkWritableFile({ cwd: ctx.cwd, file: flags.record, flag: '--record' });
  checkWritableFile({ cwd: ctx.cwd, file: flags.report, flag: '--report' });
  const disabled = checkInvariantNames(flags.invariant ?? []);
  const { scratch, recordFile } = recordingOf(ctx, flags);
  const appends = flags.record !== undefined && recordFile !== undefined && holdsBytes(recordFile);
  const settings = await profileSettingsOf(ctx, flags, peers);
  // an unknown mutant is one input error, not a failure in every conversation
  resolveMutant(flags.mutant);
  const waitMs = waitOf(flags, peers);
  return {
    flags,
    reporter,
    ndjson: ndjsonOnStdout({ json: flags.json, reporter, out: flags.out }),
    grep,
    peers,
    runId,
    disabled,
    scratch,
    recordFile,
    appends,
    settings,
    waitMs,
  };
}

/** The real peers the flags name, each with the words an unreachable one is named by. */
const PEER_NAMES = {
  integratorUrl: 'the integrator endpoint',
  botUrl: 'the bot provider',
  hookUrl: 'the hook receiver',
  platformUrl: 'the platform',
} as const;

/** --wait in wall ms; without a real peer to wait for, a flag error. */
function waitOf(flags: ReplayFlags, peers: ReplayPeers): number | undefined {
  if (flags.wait === undefined) return undefined;
  if (!Object.keys(PEER_NAMES).some((key) => key in peers))
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not use --wait: it waits for a real peer, and the embedded ones need no wait.',
      'Name your peer (--integrator-url, --bot-url, --hook-url or --platform-url), or drop --wait.',
    );
  return parseDuration(flags.wait, '--wait');
}

/**
 * Each real peer accepts connections before the first conversation (with --wait, within it),
 * or the run ends naming the one that did not (exit 3), as conform does: a peer nothing
 * listens at would otherwise fail every step that reaches it only after the whole
 * redelivery series, with no word of the refused connections. Without --wait a running
 * svc simulator (--platform-url) is left to its first request, which says the same (exit 3)
 * with how to start one. A signal during the wait ends it: the peer it was waiting for
 * comes back, and the run reports itself interrupted.
 */
async function awaitPeers(ctx: CliContext, plan: ReplayPlan): Promise<string | undefined> {
  for (const [key, who] of Object.entries(PEER_NAMES)) {
    const url = plan.peers[key as keyof typeof PEER_NAMES];
    if (url === undefined || (plan.waitMs === undefined && key === 'platformUrl')) continue;
    try {
      await assertReachable(url, who, {
        waitMs: plan.waitMs ?? 0,
        action: 'replay',
        signal: ctx.signal,
      });
    } catch (error) {
      if (ctx.signal.aborted) return `${who} at ${url}`;
      throw error;
    }
  }
  return undefined;
}

/**
 * The conversations to run, --grep applied. Every broken file is reported, the good ones
 * still run, and the run exits 2; none at all is an input error.
 */
async function loadConversations(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  paths: string[],
): Promise<{ every: Awaited<ReturnType<typeof loadEveryConversation>>; loaded: Loaded }> {
  const { flags, grep } = plan;
  const inputs = resolvePaths(ctx.cwd, paths);
  // the paths as given, for a message that names one; read from ctx.cwd
  const named = paths.length > 0 ? paths : inputs;
  const every = await loadEveryConversation(named, ctx.cwd).catch((error: unknown) => {
    throw withBundledHint(error, ctx.cwd, inputs);
  });
  for (const { error } of every.failures) {
    if (plan.ndjson) out.event({ ...error.toJSON(), type: 'error' });
    else out.note(`✗ ${error.message}${error.hint ? `\n  ${error.hint}` : ''}`);
  }
  if (every.skipped.length > 0) out.note(skippedNote(every.skipped));
  const loaded = every.loaded.filter(
    ({ file, conversation }) => !grep || grep.test(conversation.name) || grep.test(file),
  );
  if (loaded.length === 0 && every.failures.length === 0) {
    throw new SvcError(
      'SVC_E_NO_CONVERSATIONS',
      `Could not replay: no conversation found in ${(paths.length > 0 ? paths : inputs).join(', ')}${grep ? ` matching /${flags.grep}/` : ''}.`,
      grep
        ? `--grep matches a conversation's name or file${grepMeant(flags.grep ?? '', every.loaded)}; drop it to run them all.`
        : 'A conversation is a .json file with "steps" (fixtures/conversations holds examples); svc-cli record to-fixture session.ndjson --out flow.json writes one from a recording.',
    );
  }
  return { every, loaded };
}

/**
 * The JSON files of a folder that are not conversations (payloads, bot scripts): one line,
 * not an error each. A folder such as svc-cli's own `fixtures` holds all kinds.
 */
function skippedNote(skipped: readonly string[]): string {
  const shown = skipped.slice(0, 2).join(', ');
  const more = skipped.length > 2 ? `, and ${skipped.length - 2} more` : '';
  return `skipped ${plural(skipped.length, 'JSON file')} that ${skipped.length === 1 ? 'is' : 'are'} not a conversation (no "steps"): ${shown}${more}; name a file to load it as one`;
}

/** A finished conversation as the reporter shows it while the run goes on. */
function showResult(plan: ReplayPlan, out: Output, result: ConversationResult): void {
  const { flags, reporter } = plan;
  if (reporter === 'pretty') {
    out.line(formatConversation(result, out.chalk, out.columns));
    // a green conversation is one line (and its skipped steps, with the reason, and its steps
    // that passed with a warning: a real peer that failed a request the step did not hold);
    // every step with --verbose or when it failed
    const brief = result.ok && !flags.verbose;
    for (const step of result.steps) {
      const warned = step.details.some((d) => d.startsWith('warning: '));
      if (brief && step.status !== 'skipped' && !warned) continue;
      out.line(
        formatStep(step, out.chalk, {
          skipReasons: step.skip !== 'after-failure',
          verbose: flags.verbose === true,
        }),
      );
    }
  } else if (plan.ndjson) {
    out.event({ type: 'conversation', ...result });
  } else if (reporter === 'junit' && flags.out !== undefined && !result.ok) {
    // the report is in the file: a CI log still says which conversation failed and why
    out.line(formatConversation(result, out.chalk, out.columns));
    for (const step of result.steps)
      if (step.status === 'failed') out.line(formatStep(step, out.chalk, { skipReasons: false }));
  }
}

/** Every loaded conversation replayed, each shown as its turn comes; Ctrl-C stops at once. */
async function playConversations(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  loaded: readonly Named[],
): Promise<{
  outcome: ConversationResult[] | 'interrupted';
  done: ConversationResult[];
  /** every result by input index as it finished, those not yet in `done` included */
  finished: ReadonlyMap<number, ConversationResult>;
  /** the first write to --record that failed: the file holds what came before it */
  recordingStopped?: RecordingStatus;
}> {
  const { flags, reporter, peers, runId, disabled, recordFile, settings } = plan;
  let recordingStopped: RecordingStatus | undefined;
  const onRecordingStop = (status: RecordingStatus): void => {
    recordingStopped ??= status;
  };
  // Results come in input order (each conversation's block printed when its turn comes),
  // so the output is that of a sequential run whatever the concurrency.
  const done: ConversationResult[] = [];
  const finished = new Map<number, ConversationResult>();
  // a run against a real peer takes real seconds: say which conversation runs
  const realTime = usesRealPeer({ conversation: loaded[0]!.conversation, ...peers });
  const progress = await createRunProgress(ctx, {
    json: !realTime || reporter !== 'pretty',
    flush: () => out.flush(),
  });
  const announce = (): void => {
    const next = loaded[done.length];
    if (next)
      progress.update(
        `replaying ${done.length + 1} of ${loaded.length}: ${next.conversation.name}`,
      );
  };
  announce();
  const running = replayAll(
    loaded.map(({ file, dir, conversation, journalRun }, index) => ({
      conversation,
      file,
      dir,
      ...(runId === undefined ? {} : { runId: runId + index }),
      ...peers,
      timeScale: flags.timeScale,
      ...compact({ seed: flags.seed, recordFile, journalRun, mutant: flags.mutant }),
      ...(recordFile === undefined ? {} : { onRecordingStop }),
      ...(disabled.length > 0 ? { invariants: { disabled } } : {}),
      ...(settings ? { settings } : {}),
    })),
    {
      // default: replayAll's (parallel embedded worlds; one at a time with a real peer)
      ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
      ...(flags.bail ? { bail: true } : {}),
      onSettled: (result, index) => void finished.set(index, result),
      onResult(result) {
        done.push(result);
        progress.around(() => showResult(plan, out, result));
        announce();
      },
    },
  );
  // Ctrl-C stops a real-time run at once, with what finished so far
  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (ctx.signal.aborted) resolve('interrupted');
    ctx.signal.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const outcome = await Promise.race([running, interrupted]).finally(() => progress.stop());
  if (outcome === 'interrupted') running.catch(() => undefined);
  return { outcome, done, finished, ...(recordingStopped ? { recordingStopped } : {}) };
}

/**
 * The line of a --record file a write to failed (RELIABILITY.md: exit 5), or of --report's
 * scratch recording, whose page then lacks what was not written.
 */
function recordingStoppedNote(plan: ReplayPlan, status: RecordingStatus): string {
  const reason = status.failure?.reason ?? 'a write failed';
  const code = status.failure?.code ?? 'error';
  const way =
    code === 'ENOSPC' || code === 'EDQUOT'
      ? 'free space or record to another disk, then run it again'
      : 'record to another file, then run it again';
  const shown = plan.flags.record ?? 'the recording --report draws';
  return `recording stopped: ${reason} (${code}); ${shown} holds the exchanges written before it and misses the rest; ${way}. Exit code ${EXIT_CODES.system}.`;
}

/** Seconds of a real-peer replay at scale 1 past which the --time-scale note is shown. */
const SLOW_REAL_TIME_S = 20;

/**
 * A real peer paces a replay by the protocol's timers (redeliveries 3 s apart, bot timeouts),
 * and a newcomer waited minutes not knowing the clock scales: said after a run at scale 1 that
 * took over SLOW_REAL_TIME_S. Not with --platform-url: that simulator keeps its own scale,
 * which replay must match.
 */
export function realTimeNote(
  peers: Pick<ReplayPeers, 'integratorUrl' | 'botUrl' | 'hookUrl'>,
  timeScale: number | undefined,
  elapsedS: number,
): string | undefined {
  const yours = (peers.integratorUrl ?? peers.botUrl ?? peers.hookUrl) !== undefined;
  if (!yours || timeScale !== undefined || elapsedS <= SLOW_REAL_TIME_S) return undefined;
  return `note: this replay took ${Math.round(elapsedS)} s because a real peer runs on the real clock; --time-scale 0.1 runs the protocol's timers 10x faster, if your peer answers within a tenth of the spec's timeouts`;
}

/**
 * Whether a conversation that failed is one svc-cli ships (its own folder, or a copy of it),
 * leaving out those `beside` says failed for another reason than the peer's answers.
 */
function failedShipped(
  ctx: CliContext,
  results: readonly ConversationResult[],
  beside: (result: ConversationResult) => boolean = () => false,
): boolean {
  const shipped = resolve(packageFiles().folderOf(DEFAULT_PATH));
  const inShipped = (file: string): boolean => {
    // a shipped file outside the working folder is named fixtures/... (shownFile)
    const path = relative(shipped, resolve(localOrShippedFixture(ctx.cwd, file)));
    return path !== '' && !path.startsWith('..') && !isAbsolute(path);
  };
  return results.some((r) => !r.ok && !beside(r) && r.file !== undefined && inShipped(r.file));
}

/** The summary, the --bail note, and the JSON or JUnit report (to stdout or --out). */
async function reportResults(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  results: ConversationResult[],
  runs: { total: number; startedAt: number; notLoaded: readonly ConversationLoadFailure[] },
): Promise<void> {
  const { reporter } = plan;
  const notLoaded = runs.notLoaded.length;
  const failed = results.filter((r) => !r.ok).length;
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  if (reporter === 'pretty')
    out.line(formatSummary(results, out.chalk, performance.now() - runs.startedAt));
  // files that did not load are part of the run's verdict (exit 2): said under its counts
  if (notLoaded > 0) {
    await out.flush();
    out.note(
      `${plural(notLoaded, 'conversation file')} could not be loaded (see above), so ${notLoaded === 1 ? 'it was' : 'they were'} not run`,
    );
  }
  // --bail stopped at a failure: say what was never run, or the counts read as the whole suite
  const notRun = runs.total - results.length;
  if (notRun > 0 && reporter !== 'json') {
    await out.flush(); // under the summary, in a terminal too
    out.note(
      `--bail: ${notRun} of ${plural(runs.total, 'conversation')} not run after the failure`,
    );
  }
  // a real bot that failed conversations svc-cli ships: they were written for bot-sim's script;
  // not for one that refused them as another token or provider id (its step says so)
  if (
    plan.peers.botUrl &&
    reporter !== 'json' &&
    failedShipped(ctx, results, (r) => r.botRefused === true)
  ) {
    await out.flush(); // under the summary, in a terminal too
    out.note(
      'note: the conversations svc-cli ships expect bot-sim\'s default answers (the echo "You said: ...", BUTTONS for menu, INVITE_AGENT for agent or operator): a bot with texts of its own fails them on the texts alone; replay conversations recorded from yours (docs/bot.md, docs/BRING-YOUR-OWN-PEER.md)',
    );
  }
  // a real hook receiver: the shipped hook fixtures were written for hook-target's replies
  // not for one that refused them as another route (its step asks about the path)
  if (
    plan.peers.hookUrl &&
    reporter !== 'json' &&
    failedShipped(ctx, results, (r) => r.hookRefused === true)
  ) {
    await out.flush();
    out.note(
      "note: the conversations svc-cli ships expect hook-target's default replies (chat_accepted: a crm_link and contact_info echoing the visitor's name and e-mail, which the platform adds to the chat as a visitor line, so chat_finished's transcript holds it): a receiver that replies otherwise fails them on that alone; replay conversations recorded from yours (docs/hooks.md, docs/BRING-YOUR-OWN-PEER.md)",
    );
  }
  const slow = realTimeNote(
    plan.peers,
    plan.flags.timeScale,
    (performance.now() - runs.startedAt) / 1000,
  );
  if (slow !== undefined && reporter !== 'json') {
    await out.flush(); // under the summary, in a terminal too
    out.note(slow);
  }
  // every conversation skipped: nothing was checked, and a green "0 failed" would hide it
  if (nothingRan(results)) {
    await out.flush(); // under the summary, in a terminal too
    out.note(
      `warning: nothing ran: ${results.length === 1 ? 'the conversation was' : `all ${results.length} conversations were`} skipped, so this replay checked nothing (exit ${EXIT_CODES.input}); each says why`,
    );
  }
  const summary = {
    type: 'summary',
    passed: results.length - failed - skipped,
    failed,
    skipped,
    total: results.length,
    ...(notRun > 0 ? { notRun } : {}),
    ...(notLoaded > 0 ? { notLoaded } : {}),
  };
  if (plan.ndjson) out.event(summary);
  writeReport(
    ctx,
    plan,
    out,
    // a file that did not load is an <error> testcase in JUnit: a dashboard that reads only
    // the XML would otherwise show a green suite for a run that exits 2
    reporter === 'junit' ? [...results, ...runs.notLoaded.map(notLoadedResult)] : results,
    `${results.length - failed - skipped} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}${notLoaded > 0 ? `, ${notLoaded} not loaded` : ''}`,
    summary,
  );
}

/** A conversation file that could not be loaded, as a JUnit testcase with an <error>. */
function notLoadedResult({ file, error }: ConversationLoadFailure): JunitResult {
  return {
    name: file,
    file,
    ok: false,
    steps: [],
    protocolMs: 0,
    wallMs: 0,
    error: { message: `${error.message}${error.hint ? ` ${error.hint}` : ''}`, type: error.code },
  };
}

/**
 * The JUnit or JSON report of `results`, to --out (with `counts` on stderr) or stdout. The JSON
 * file holds the lines stdout would: the conversations, then `summary` when the run has one.
 */
function writeReport(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  results: readonly JunitResult[],
  counts: string,
  summary?: Readonly<Record<string, unknown>>,
): void {
  const { flags, reporter } = plan;
  // the run id the pretty summary prints, which a CI log of --reporter junit lacked
  const runId = results.find((r) => r.runId !== undefined)?.runId;
  const report =
    reporter === 'junit'
      ? toJunit(
          'svc-cli replay',
          results,
          undefined,
          runId === undefined ? {} : { 'svc.runId': String(runId) },
        )
      : reporter === 'json'
        ? [...results.map((r) => ({ type: 'conversation', ...r })), ...(summary ? [summary] : [])]
            .map((line) => `${JSON.stringify(line)}\n`)
            .join('')
        : undefined;
  if (report === undefined) return;
  if (flags.out) {
    writeFileWhole(resolve(ctx.cwd, flags.out), report, flags.out);
    const again =
      runId === undefined ? '' : `; run id ${runId} (--run-id ${runId} repeats its chat ids)`;
    out.note(`report written to ${flags.out}: ${counts}${again}`);
  } else if (reporter === 'junit') {
    ctx.stdout.write(report);
  }
}

/**
 * A signal stopped the run: the reports still written (a CI timeout's publish step finds
 * them), with what finished and each conversation that did not marked interrupted.
 */
async function reportInterrupted(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  done: readonly ConversationResult[],
  loaded: readonly Named[],
  finished: ReadonlyMap<number, ConversationResult> = new Map(),
): Promise<void> {
  // in input order: each one after `done` its result when it finished (behind one still
  // running), else an entry saying it was cut short; by its journal run, one cut short
  // mid-chat is drawn once on the page, with its chat, marked interrupted
  const rest = loaded.slice(done.length).map(({ file, conversation, journalRun }, i) => {
    const result = finished.get(done.length + i);
    if (result) return { result };
    const cut = unfinished(conversation.name, file);
    return { cut, named: { ...cut, ...compact({ run: journalRun }) } };
  });
  const cut = rest.flatMap((r) => (r.cut ? [r.cut] : []));
  if (plan.ndjson) for (const r of cut) out.event({ type: 'conversation', ...r });
  const ended = [...done, ...rest.flatMap((r) => (r.result ? [r.result] : []))];
  const failed = ended.filter((r) => !r.ok).length;
  const skipped = ended.filter((r) => r.skipped !== undefined).length;
  writeReport(
    ctx,
    plan,
    out,
    [...done, ...rest.map((r) => r.result ?? r.cut)],
    `${ended.length - failed - skipped} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}, ${cut.length} interrupted`,
  );
  await writeReplayHtml(ctx, plan, out, [...done, ...rest.map((r) => r.result ?? r.named)], loaded);
}

/**
 * A peer never answered (exit 3): --out still lists every conversation, each an error saying
 * why, so a CI step that publishes the report whatever happened shows the reason; so does a
 * JUnit report on stdout (`> report.xml` left an empty file, which a publisher cannot parse).
 */
function reportUnreachable(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  loaded: readonly Named[],
  error: unknown,
): void {
  if (!(error instanceof SvcError) || error.code !== 'SVC_E_PEER_UNREACHABLE') return;
  if (plan.flags.out === undefined && plan.reporter !== 'junit') return;
  const never = loaded.map(({ file, conversation }): JunitResult => {
    const { interrupted: _, ...entry } = unfinished(conversation.name, file);
    return { ...entry, error: { message: error.message, type: 'PeerUnreachable' } };
  });
  writeReport(ctx, plan, out, never, `the peer is unreachable: ${never.length} not run`);
}

/**
 * --report: the HTML page of what the conversations recorded, each under its fixture's name
 * (by its journal run, one cut short too) and in input order.
 */
async function writeReplayHtml(
  ctx: CliContext,
  plan: ReplayPlan,
  out: Output,
  results: readonly JunitResult[],
  loaded: readonly Named[],
): Promise<void> {
  const { flags, recordFile, scratch } = plan;
  if (flags.report === undefined || recordFile === undefined) return;
  const runs = loaded.flatMap(({ journalRun, conversation }) =>
    journalRun === undefined ? [] : [[journalRun, conversation.name] as const],
  );
  try {
    const { writeHtmlReport } = await import('./report-write.js');
    const html = await writeHtmlReport({
      // nothing recorded yet (a run interrupted at once): the report lists the runs alone
      recording: existsSync(recordFile) ? recordFile : [],
      out: resolve(ctx.cwd, flags.report),
      shownOut: flags.report,
      title: 'svc-cli replay',
      made: reportMade(ctx),
      disabled: plan.disabled,
      // the hand-over a profile's bot policy moves, as the replay's own check reads it
      ...(plan.settings ? { botBudgetMs: plan.settings.botPolicy.failAfterMs } : {}),
      names: new Map(runs),
      // input order, as the terminal shows them (they append to the journal as they go)
      order: runs.map(([run]) => run),
      runs: results.map(reportRunOf),
    });
    out.note(
      `HTML report written to ${flags.report}: ${html.failed ? `${html.failed} failed, ` : ''}${html.interrupted ? `${html.interrupted} interrupted, ` : ''}${plural(html.conversations, 'conversation')}, ${plural(html.violations, 'invariant violation')}${html.runs ? `, ${plural(html.runs, 'run')} without a chat to draw` : ''}`,
    );
  } finally {
    if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
  }
}

/** `svc-cli replay`: load -> replay each -> report; exit 1 when any step fails. */
export async function runReplay(
  ctx: CliContext,
  paths: string[],
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, replayOptions, given);
  const reporter = reporterOf({
    json: flags.json,
    reporter: flags.reporter,
    given,
    out: flags.out,
    command: 'replay',
  });
  checkOutFile({ cwd: ctx.cwd, out: flags.out, reporter, command: 'replay' });
  const out = createOutput(ctx, {
    json: ndjsonOnStdout({ json: flags.json, reporter, out: flags.out }),
  });
  const plan = await planReplay(ctx, flags, reporter);
  const { every, loaded: read } = await loadConversations(ctx, plan, out, paths);
  if (read.length === 0) return EXIT_CODES.input;
  const loaded = namedRuns(plan, read);
  const waitingFor = await awaitPeers(ctx, plan).catch((error: unknown) => {
    reportUnreachable(ctx, plan, out, loaded, error);
    throw error;
  });
  if (waitingFor !== undefined) {
    // no conversation started: each one is reported interrupted, as a run cut short later is
    out.note(
      `interrupted while waiting for ${waitingFor}${plan.waitMs === undefined ? '' : ' (--wait)'}: 0 of ${plural(loaded.length, 'conversation')} finished`,
    );
    await reportInterrupted(ctx, plan, out, [], loaded);
    return EXIT_CODES.sigint;
  }
  await warnOfTimeScale(plan, out);
  // a newcomer scaled time and saw nothing change: embedded, the clock is virtual already
  // (said of the flag alone: a config file's or SVC_TIME_SCALE's scale is meant for every
  // command, and the note on each embedded replay was noise)
  const embedded = !usesRealPeer({ conversation: loaded[0]!.conversation, ...plan.peers });
  if (embedded && given['timeScale'] !== undefined && flags.timeScale !== 1 && reporter !== 'json')
    out.note(
      `note: --time-scale ${flags.timeScale} changes nothing here: with no real peer, replay runs on a virtual clock, where protocol timers take no wall time`,
    );
  const startedAt = performance.now();
  const { outcome, done, finished, recordingStopped } = await playConversations(
    ctx,
    plan,
    out,
    loaded,
  );
  if (outcome === 'interrupted') {
    // those that finished behind one still running: shown now, in input order
    const late = [...finished.entries()]
      .filter(([index]) => index >= done.length)
      .sort(([a], [b]) => a - b);
    for (const [, result] of late) showResult(plan, out, result);
    const all = [...done, ...late.map(([, result]) => result)];
    if (reporter === 'pretty')
      out.line(formatSummary(all, out.chalk, performance.now() - startedAt));
    out.note(`interrupted: ${all.length} of ${plural(loaded.length, 'conversation')} finished`);
    await reportInterrupted(ctx, plan, out, done, loaded, finished);
    return EXIT_CODES.sigint;
  }
  await reportResults(ctx, plan, out, outcome, {
    total: loaded.length,
    startedAt,
    notLoaded: every.failures,
  });
  await writeReplayHtml(ctx, plan, out, outcome, loaded);
  if (every.failures.length > 0) return EXIT_CODES.input;
  if (recordingStopped) {
    out.note(recordingStoppedNote(plan, recordingStopped));
    return EXIT_CODES.system;
  }
  // a trace of the file then shows the earlier runs too (each its own chat 1): said once
  if (plan.appends)
    out.note(
      `${plan.flags.record ?? ''} held earlier runs: this run's exchanges were appended after them (trace and report show each run apart; a new file records this run alone)`,
    );
  if (outcome.some((r) => !r.ok)) return 1;
  // every conversation skipped: a CI job that replays nothing must not go green (as a test
  // runner that found no test fails), and the warning above says why
  return nothingRan(outcome) ? EXIT_CODES.input : 0;
}

/** Whether each conversation of a run was skipped whole, so the run checked nothing. */
function nothingRan(results: readonly ConversationResult[]): boolean {
  return results.length > 0 && results.every((r) => r.skipped !== undefined);
}

type ReplayFlags = Resolved<typeof replayOptions>;

/**
 * --platform-url: a simulator at another --time-scale than this replay fires its timers
 * (redelivery, the bot budget) when this replay does not expect them; the run may pass or fail
 * for that alone, so it is said once, before the first conversation.
 */
async function warnOfTimeScale(plan: ReplayPlan, out: Output): Promise<void> {
  const { platformUrl, controlToken } = plan.peers;
  if (platformUrl === undefined) return;
  const theirs = await remoteTimeScale(platformUrl, controlToken);
  const ours = plan.flags.timeScale ?? 1;
  if (theirs === undefined || theirs === ours) return;
  out.note(
    `warning: the simulator at ${platformUrl} runs at --time-scale ${theirs}, this replay at ${ours}: its timers will not line up with the fixture's; run replay with --time-scale ${theirs}`,
  );
}

/** The real peers the flags name; --platform-url replaces the other three. */
function peersOf(flags: ReplayFlags): ReplayPeers {
  const peers = {
    ...(flags.integratorUrl ? { integratorUrl: flags.integratorUrl } : {}),
    ...(flags.botUrl ? { botUrl: flags.botUrl } : {}),
    ...(flags.botUrl && flags.botToken !== undefined ? { botToken: flags.botToken } : {}),
    ...(flags.botUrl && flags.botProviderId !== undefined
      ? { botProviderId: flags.botProviderId }
      : {}),
    ...(flags.hookUrl ? { hookUrl: flags.hookUrl } : {}),
    ...(flags.platformUrl ? { platformUrl: flags.platformUrl } : {}),
    ...(flags.platformUrl && flags.controlToken ? { controlToken: flags.controlToken } : {}),
    ...(flags.platformPort === undefined ? {} : { platformPort: flags.platformPort }),
  };
  // the embedded bot-sim takes each conversation's own token: a flag for it would do nothing
  if (!flags.botUrl && (flags.botToken !== undefined || flags.botProviderId !== undefined))
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not replay: ${flags.botToken !== undefined ? '--bot-token' : '--bot-provider-id'} is the one your bot was given, and needs --bot-url <your bot>.`,
      "The embedded bot-sim takes each conversation's setup.bot.token and providerId.",
    );
  if (peers.platformUrl && (peers.integratorUrl || peers.botUrl || peers.hookUrl))
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not replay: --platform-url replaces the embedded platform; its integrator, bot and hook URLs are the ones it was started with.',
      'Drop --integrator-url, --bot-url and --hook-url, or start the simulator with them.',
    );
  // --record writes the embedded platform's journal: with a running simulator there is none,
  // and an absent file is worse than a refusal
  if (peers.platformUrl && flags.record !== undefined)
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not record to ${flags.record}: --platform-url replaces the embedded platform, whose exchanges --record writes.`,
      `Record with that simulator: svc-cli platform --record ${flags.record}.`,
    );
  return peers;
}

/**
 * The run id the first conversation's chat and client ids are numbered by, when a peer is
 * yours and the platform embedded: a database on the peer's side remembers the last run's
 * chats (src/conversation/run-ids.ts). Random unless --run-id; a running simulator
 * (--platform-url) numbers its own.
 */
function runIdOf(flags: ReplayFlags, peers: ReplayPeers): number | undefined {
  const yours = Boolean(peers.integratorUrl ?? peers.botUrl ?? peers.hookUrl);
  if (flags.runId !== undefined && !yours)
    throw new SvcError(
      'SVC_E_FLAG',
      "Could not use --run-id: it numbers the embedded platform's chats when a peer is yours (--integrator-url, --bot-url, --hook-url).",
      peers.platformUrl
        ? 'A running simulator (--platform-url) numbers its own chats.'
        : 'Name your peer, or drop --run-id.',
    );
  // room for the next conversations' run ids below the flag's maximum
  return yours ? (flags.runId ?? randomInt(1, 900_000)) : undefined;
}
