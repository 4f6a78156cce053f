import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadProfile, settingsOf } from '../../conversation/record/profile.js';
import type { CliContext } from '../context.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { replayOptions } from './replay-options.js';
import { EXIT_CODES, SvcError } from '../../errors.js';
import { loadEveryConversation } from '../../conversation/load.js';
import { packageFiles } from '../../package-files.js';
import { replayAll, usesRealPeer } from '../../conversation/replay-all.js';
import { createRunProgress } from '../render/progress.js';
import { createOutput } from '../render/output.js';
import type { ConversationResult, ReplayPeers } from '../../conversation/runner.js';
import { formatConversation, formatStep, formatSummary } from '../render/reporters/pretty.js';
import { toJunit } from '../render/reporters/junit.js';
import { checkOutFile } from '../out-file.js';
import { plural } from '../../plural.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { checkInvariantNames } from '../../trace/invariants.js';
import { resolveMutant } from '../../platform/mutants.js';

const DEFAULT_PATH = 'fixtures/conversations';

/**
 * Without paths, `fixtures/conversations` of the working folder, else the conversations
 * shipped in the package: `npx svc-cli replay` works in a project that installed svc-cli (and
 * the single binary, from a copy of its assets: a fixture names files beside it, bot scripts).
 */
function resolvePaths(cwd: string, paths: string[]): string[] {
  if (paths.length > 0) return paths.map((p) => resolve(cwd, p));
  const local = resolve(cwd, DEFAULT_PATH);
  if (existsSync(local)) return [local];
  return [packageFiles().folderOf(DEFAULT_PATH)];
}

/** `svc-cli replay`: load -> replay each -> report; exit 1 when any step fails. */
export async function runReplay(
  ctx: CliContext,
  paths: string[],
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, replayOptions, given);
  const globals = flags;
  const reporter = globals.json ? 'json' : flags.reporter;
  checkOutFile({ cwd: ctx.cwd, out: flags.out, reporter, command: 'replay' });
  const out = createOutput(ctx, { json: reporter === 'json' && !flags.out });
  let grep: RegExp | undefined;
  if (flags.grep !== undefined) {
    try {
      grep = new RegExp(flags.grep, 'i');
    } catch (error) {
      throw new SvcError(
        'SVC_E_FLAG',
        `Could not use --grep "${flags.grep}": ${(error as Error).message}.`,
      );
    }
  }
  const peers = peersOf(flags);
  const runId = runIdOf(flags, peers);
  if (flags.record !== undefined && flags.record.toLowerCase().endsWith('.har'))
    throw new SvcError(
      'SVC_E_FLAG',
      `Could not record to ${flags.record}: replay records NDJSON (each conversation appends its own run).`,
      'Name a .ndjson file; svc-cli trace reads it.',
    );
  const disabled = checkInvariantNames(flags.invariant ?? []);
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
  if (peers.platformUrl && flags.profile !== 'spec')
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not replay with --profile: --platform-url replaces the embedded platform, which follows the profile it was started with.',
      `Start that simulator with platform --profile ${flags.profile}.`,
    );
  const settings =
    flags.profile === 'spec' ? undefined : settingsOf(await loadProfile(flags.profile, ctx.cwd));
  // an unknown mutant is one input error, not a failure in every conversation
  resolveMutant(flags.mutant);
  const seed = flags.seed;
  // default: replayAll's (parallel embedded worlds; one at a time with a real peer)
  const concurrency = flags.concurrency;
  const timeScale = globals.timeScale;
  const inputs = resolvePaths(ctx.cwd, paths);
  const every = await loadEveryConversation(inputs, ctx.cwd);
  // every broken file is reported, the good ones still run, and the run exits 2
  for (const { error } of every.failures) {
    if (reporter === 'json' && !flags.out) out.event({ ...error.toJSON(), type: 'error' });
    else out.note(`✗ ${error.message}${error.hint ? `\n  ${error.hint}` : ''}`);
  }
  const loaded = every.loaded.filter(
    ({ file, conversation }) => !grep || grep.test(conversation.name) || grep.test(file),
  );
  if (loaded.length === 0 && every.failures.length > 0) return EXIT_CODES.input;
  if (loaded.length === 0) {
    throw new SvcError(
      'SVC_E_NO_CONVERSATIONS',
      `Could not replay: no conversation found in ${(paths.length > 0 ? paths : inputs).join(', ')}${grep ? ` matching /${flags.grep}/` : ''}.`,
    );
  }
  const pretty = reporter === 'pretty';
  // Results come in input order (each conversation's block printed when its turn comes),
  // so the output is that of a sequential run whatever the concurrency.
  const started = performance.now();
  const done: ConversationResult[] = [];
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
    loaded.map(({ file, conversation }, index) => ({
      conversation,
      file,
      ...(runId === undefined ? {} : { runId: runId + index }),
      ...peers,
      timeScale,
      ...(seed === undefined ? {} : { seed }),
      ...(recordFile === undefined ? {} : { recordFile }),
      ...(disabled.length > 0 ? { invariants: { disabled } } : {}),
      ...(settings ? { settings } : {}),
      ...(flags.mutant === undefined ? {} : { mutant: flags.mutant }),
    })),
    {
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(flags.bail ? { bail: true } : {}),
      onResult(result) {
        done.push(result);
        progress.around(() => {
          if (pretty) {
            out.line(formatConversation(result, out.chalk));
            // a green conversation is one line (and its skipped steps, with the reason);
            // every step with --verbose or when it failed
            const brief = result.ok && !flags.verbose;
            for (const step of result.steps) {
              if (brief && step.status !== 'skipped') continue;
              out.line(formatStep(step, out.chalk, { skipReasons: step.skip !== 'after-failure' }));
            }
          } else if (reporter === 'json' && !flags.out) {
            out.event({ type: 'conversation', ...result });
          }
        });
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
  if (outcome === 'interrupted') {
    running.catch(() => undefined);
    if (pretty) out.line(formatSummary(done, out.chalk, performance.now() - started));
    out.note(`interrupted: ${done.length} of ${plural(loaded.length, 'conversation')} finished`);
    return EXIT_CODES.sigint;
  }
  const results = outcome;
  const failed = results.filter((r) => !r.ok).length;
  const skipped = results.filter((r) => r.skipped !== undefined).length;
  if (pretty) out.line(formatSummary(results, out.chalk, performance.now() - started));
  // --bail stopped at a failure: say what was never run, or the counts read as the whole suite
  const notRun = loaded.length - results.length;
  if (notRun > 0 && reporter !== 'json') {
    await out.flush(); // under the summary, in a terminal too
    out.note(
      `--bail: ${notRun} of ${plural(loaded.length, 'conversation')} not run after the failure`,
    );
  }
  if (reporter === 'json' && !flags.out)
    out.event({
      type: 'summary',
      passed: results.length - failed - skipped,
      failed,
      skipped,
      total: results.length,
      ...(notRun > 0 ? { notRun } : {}),
    });
  const report =
    reporter === 'junit'
      ? toJunit('svc-cli replay', results)
      : reporter === 'json'
        ? results.map((r) => JSON.stringify({ type: 'conversation', ...r })).join('\n') + '\n'
        : undefined;
  if (report !== undefined) {
    if (flags.out) {
      writeFileWhole(resolve(ctx.cwd, flags.out), report, flags.out);
      out.note(
        `report written to ${flags.out}: ${results.length - failed - skipped} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`,
      );
    } else if (reporter === 'junit') {
      ctx.stdout.write(report);
    }
  }
  if (flags.report !== undefined && recordFile !== undefined) {
    const names = new Map(
      results.flatMap((r) => (r.run === undefined ? [] : [[r.run, r.name] as const])),
    );
    try {
      const { writeHtmlReport } = await import('./report-write.js');
      const html = await writeHtmlReport({
        recording: recordFile,
        out: resolve(ctx.cwd, flags.report),
        shownOut: flags.report,
        title: 'svc-cli replay',
        disabled,
        names,
      });
      out.note(
        `HTML report written to ${flags.report}: ${plural(html.conversations, 'conversation')}, ${plural(html.violations, 'invariant violation')}`,
      );
    } finally {
      if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
    }
  }
  if (every.failures.length > 0) {
    out.note(
      `${plural(every.failures.length, 'conversation file')} could not be loaded (see above)`,
    );
    return EXIT_CODES.input;
  }
  return failed > 0 ? 1 : 0;
}

type ReplayFlags = Resolved<typeof replayOptions>;

/** The real peers the flags name; --platform-url replaces the other three. */
function peersOf(flags: ReplayFlags): ReplayPeers {
  const peers = {
    ...(flags.integratorUrl ? { integratorUrl: flags.integratorUrl } : {}),
    ...(flags.botUrl ? { botUrl: flags.botUrl } : {}),
    ...(flags.hookUrl ? { hookUrl: flags.hookUrl } : {}),
    ...(flags.platformUrl ? { platformUrl: flags.platformUrl } : {}),
    ...(flags.platformUrl && flags.controlToken ? { controlToken: flags.controlToken } : {}),
    ...(flags.platformPort === undefined ? {} : { platformPort: flags.platformPort }),
  };
  if (peers.platformUrl && (peers.integratorUrl || peers.botUrl || peers.hookUrl))
    throw new SvcError(
      'SVC_E_FLAG',
      'Could not replay: --platform-url replaces the embedded platform; its integrator, bot and hook URLs are the ones it was started with.',
      'Drop --integrator-url, --bot-url and --hook-url, or start the simulator with them.',
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
