import { mkdtempSync, rmSync } from 'node:fs';
import { isProgressShown } from '../render/progress.js';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { inputError, SvcError } from '../../errors.js';
import { createClock } from '../../clock.js';
import { HOOK_EVENTS, type HookEventName } from '../../contract/hooks.js';
import { assertReachable } from '../../http/reach.js';
import { calibrate } from '../../load/calibrate.js';
import { exportLocust } from '../../load/export-locust.js';
import { readChatCap } from '../../load/chat-cap.js';
import { resolveMix } from '../../load/mix.js';
import { runLoad, type LoadSummary } from '../../load/run.js';
import { parseDuration } from '../../duration.js';
import { formatRate, parseRate, parseRatio, parseThreshold } from '../../load/spec.js';
import { plannedArrivals } from '../../load/schedule.js';
import {
  createLoadTarget,
  LOAD_ROLES,
  type LoadRole,
  type LoadTargetOptions,
} from '../../load/targets.js';
import { resolveForCommand, type Resolved } from '../options/resolve.js';
import { loadOptions } from './load-options.js';
import { redactChannelUrl } from './config-run.js';
import { checkOutFile, checkWritableFile, ndjsonOnStdout, reporterOf } from '../out-file.js';
import { createOutput, type Output } from '../render/output.js';
import {
  formatLoadProgress,
  formatLoadCounts,
  formatLoadSummary,
  chatChurn,
  loadJunit,
  writeProgressLine,
} from '../render/load.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { reportMade } from '../render/report-made.js';
import { createLoadTrace, type LoadTrace } from '../../load/trace.js';

/** `--report`: the sampled conversations' journal in a temporary folder, removed after. */
interface ReportTrace {
  trace: LoadTrace;
  file: string;
  /** rules the run's traffic cannot hold by design, not checked */
  disabled: string[];
  dispose: () => void;
}

function startReportTrace(role: LoadRole): ReportTrace {
  const dir = mkdtempSync(join(tmpdir(), 'svc-load-report-'));
  const file = join(dir, 'load.ndjson');
  // load channel sends what the platform serves: recorded from its side, as its journal would
  const trace = createLoadTrace({ file, inbound: role === 'channel' });
  return {
    trace,
    file,
    // load hooks fires a chat's events at their arrival times (the open model), not each after
    // the one before was answered: their order at the receiver is the schedule's
    disabled: role === 'hooks' ? ['hook-after-finish'] : [],
    dispose: () => {
      trace.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type LoadFlagsInput = Resolved<typeof loadOptions>;

const EXAMPLES: Record<LoadRole, string> = {
  integrator: 'svc-cli load integrator --url http://127.0.0.1:9000/agent-messages --rate 50/s',
  channel: 'svc-cli load channel --channel-url <channel URL> --rate 50/s',
  hooks: 'svc-cli load hooks --url http://127.0.0.1:9200/hooks --rate 50/s',
  bot: 'svc-cli load bot --url http://127.0.0.1:7000/bot --token t0k3n --rate 50/s',
};

/** Flags -> target options; every problem is an input error (exit 2). */
function toTargetOptions(role: LoadRole, flags: LoadFlagsInput, clock: LoadTargetOptions['clock']) {
  const need = (name: string, value: string | undefined): string => {
    if (value === undefined || value === '') {
      throw inputError(
        'SVC_E_FLAG',
        `Could not run load ${role}: ${name} is required.`,
        `Example: ${EXAMPLES[role]}`,
      );
    }
    return value;
  };
  const url =
    role === 'channel' ? need('--channel-url', flags.channelUrl) : need('--url', flags.url);
  const token = role === 'bot' ? need('--token', flags.token) : undefined;
  const events = flags.events
    ?.split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (events?.length === 0)
    throw inputError(
      'SVC_E_FLAG',
      'Could not use --events: it names no event, so the load would send nothing.',
      `Name at least one (${HOOK_EVENTS.join(', ')}), or leave --events out for every event.`,
    );
  for (const event of events ?? []) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      throw inputError(
        'SVC_E_FLAG',
        `Could not use --events: "${event}" is not a hook event of spec 6.2.`,
        `Events: ${HOOK_EVENTS.join(', ')}.`,
      );
    }
  }
  return {
    role,
    url,
    clock,
    channel: flags.channel,
    ...(token ? { token } : {}),
    ...(events ? { events: events as HookEventName[] } : {}),
    customers: flags.customers,
    runId: `load-${Date.now().toString(36)}`,
  };
}

/** `svc-cli load <role>`: run the workload (or export it) and hold the thresholds. */
export async function runLoadCommand(
  ctx: CliContext,
  roleText: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, loadOptions, given);
  const globals = flags;
  if (!(LOAD_ROLES as readonly string[]).includes(roleText)) {
    throw inputError(
      'SVC_E_FLAG',
      `Could not run load ${roleText}: no such role.`,
      `Roles: ${LOAD_ROLES.join(', ')}.`,
    );
  }
  const role = roleText as LoadRole;
  const reporter = flags.export
    ? flags.reporter
    : reporterOf({
        json: globals.json,
        reporter: flags.reporter,
        given,
        out: flags.out,
        command: `load ${role}`,
      });
  if (!flags.export) {
    checkOutFile({ cwd: ctx.cwd, out: flags.out, reporter, command: `load ${role}` });
    checkWritableFile({ cwd: ctx.cwd, file: flags.report, flag: '--report' });
  }
  const timeScale = globals.timeScale;
  const clock = createClock({ timeScale });
  const rate = parseRate(flags.rate);
  const count = flags.count;
  const workload = {
    rate,
    ...(count === undefined
      ? { durationMs: parseDuration(flags.duration, '--duration') }
      : { count }),
    ...(flags.rampUp === undefined ? {} : { rampUpMs: parseDuration(flags.rampUp, '--ramp-up') }),
  };
  if (plannedArrivals(workload) === 0) {
    // a run that plans nothing would pass with nothing tested
    const { rampUpMs } = workload;
    const durationMs = 'durationMs' in workload ? workload.durationMs : undefined;
    if (rampUpMs !== undefined && durationMs !== undefined && rampUpMs > durationMs) {
      // the rate was still climbing from 0 when the duration ended: the interval is no reason
      throw inputError(
        'SVC_E_FLAG',
        `Could not run load ${role}: --ramp-up ${flags.rampUp ?? ''} is longer than --duration ${flags.duration}, and the rate still climbing from 0 at its end plans no request.`,
        'Give a --duration longer than --ramp-up (the ramp-up is part of it), or a shorter --ramp-up.',
      );
    }
    const every = 1000 / rate;
    throw inputError(
      'SVC_E_FLAG',
      `Could not run load ${role}: --rate ${flags.rate} for --duration ${flags.duration} plans no request.`,
      `Give a duration of at least one interval (${every >= 1000 ? `${Number((every / 1000).toFixed(3))}s` : `${Math.ceil(every)}ms`}), or --count.`,
    );
  }
  const thresholds = flags.threshold.map(parseThreshold);
  const invalidShare = flags.invalid === undefined ? 0 : parseRatio(flags.invalid, '--invalid');
  const maxInFlight = flags.maxInFlight;
  const thinkTimeMs =
    flags.thinkTime === undefined ? undefined : parseDuration(flags.thinkTime, '--think-time');
  if (thinkTimeMs !== undefined && role !== 'channel') {
    throw inputError(
      'SVC_E_FLAG',
      `Could not use --think-time with load ${role}: it paces a customer's messages (channel).`,
      'Example: svc-cli load channel --channel-url <url> --mix fixtures/conversations --think-time 2s',
    );
  }
  const base = {
    ...toTargetOptions(role, flags, clock),
    ...(thinkTimeMs === undefined ? {} : { thinkTimeMs }),
  };
  const { entries: mix, shippedFolder } = await resolveMix(flags.mix, ctx.cwd, {
    conversations: thinkTimeMs !== undefined,
  });
  // the run's payloads come from elsewhere than the path given: say where
  if (shippedFolder !== undefined) {
    ctx.stderr.write(
      `--mix: no ${flags.mix ?? ''} here; using the conversations shipped with svc-cli in ${shippedFolder}\n`,
    );
  }
  if (flags.export) {
    const target = createLoadTarget({ ...base, mix });
    const script = exportLocust({
      target,
      workload,
      timeScale,
      thresholds,
      invalidShare,
      // as run, quoted to paste (`p99<500ms` is a redirection bare), its secrets hidden
      command: reportMade(ctx).command,
    });
    if (flags.out) {
      writeFileWhole(resolve(ctx.cwd, flags.out), script, flags.out);
      ctx.stderr.write(`locust scenario written to ${flags.out}\n`);
    } else ctx.stdout.write(script);
    return 0;
  }
  const traced = flags.report === undefined ? undefined : startReportTrace(role);
  try {
    const target = createLoadTarget({ ...base, mix, ...(traced ? { trace: traced.trace } : {}) });
    const run = {
      workload,
      timeScale,
      invalidShare,
      thresholds,
      ...(maxInFlight === undefined ? {} : { maxInFlight }),
    };
    return await measureLoad(ctx, { flags, reporter, role, base, mix, target, run, traced });
  } finally {
    traced?.dispose();
  }
}

/** What a measured run needs: the resolved flags, the target and the workload. */
interface MeasurePlan {
  flags: LoadFlagsInput;
  /** the reporter of the summary (reporterOf: --json, or a typed --reporter with --out) */
  reporter: LoadFlagsInput['reporter'] | 'json';
  role: LoadRole;
  base: ReturnType<typeof toTargetOptions> & { thinkTimeMs?: number };
  mix: Awaited<ReturnType<typeof resolveMix>>['entries'];
  target: ReturnType<typeof createLoadTarget>;
  run: Omit<Parameters<typeof runLoad>[0], 'target' | 'signal' | 'emit' | 'abortOnFail'>;
  traced: ReportTrace | undefined;
}

/**
 * The target URL as printed: a channel URL's random string as `***`, the bot token (the last
 * path segment, spec 4.3) as `<token>`, as `platform` prints its bot URL.
 * @example hideUrlSecret('bot', 'http://127.0.0.1:9100/t0k3n', 't0k3n') // 'http://127.0.0.1:9100/<token>'
 */
export function hideUrlSecret(role: LoadRole, url: string, token: string | undefined): string {
  if (role === 'channel') return redactChannelUrl(url);
  const tail = token === undefined ? undefined : `/${encodeURIComponent(token)}`;
  return role === 'bot' && tail !== undefined && url.endsWith(tail)
    ? `${url.slice(0, -tail.length)}/<token>`
    : url;
}

/** Calibrate, run, and write the summary where it goes; the exit code. */
async function measureLoad(ctx: CliContext, plan: MeasurePlan): Promise<number> {
  const { flags, role, base, mix, target, reporter } = plan;
  const rate = plan.run.workload.rate;
  const streamJson = ndjsonOnStdout({ json: Boolean(flags.json), reporter, out: flags.out });
  const out = createOutput(ctx, { json: streamJson });
  // spec 5.2: the bot's token is the URL's last segment; the probe needs only the host
  const probe = role === 'bot' ? base.url : target.url;
  await assertReachable(probe, `the ${role === 'channel' ? 'channel' : `${role} endpoint`}`, {
    action: `run load ${role}`,
    waitMs: flags.wait === undefined ? undefined : parseDuration(flags.wait, '--wait'),
    signal: ctx.signal,
  }).catch(async (error: unknown) => {
    await reportUnreachable(ctx, out, { flags, reporter, role }, error);
    throw error;
  });

  const chatCap = role === 'channel' ? await churnedChats(base, ctx.signal) : undefined;
  if (chatCap) out.note(`warning: ${chatChurn(chatCap)}`);

  if (flags.calibrate) {
    const { capacityPerSecond } = await calibrate({ ...base, mix, durationMs: 500 });
    const event = { type: 'load-calibration', capacityPerSecond, rate };
    if (streamJson) out.event(event);
    if (rate > capacityPerSecond) {
      out.note(
        `warning: ${role} load at ${formatRate(rate)}/s is above what this machine generated against a no-op endpoint (about ${capacityPerSecond}/s): latencies will describe the generator, not the endpoint. Lower --rate, or run the same scenario distributed (--export locust).`,
      );
    }
  }

  // the live line follows the rule of every progress: a terminal that redraws, no CI
  const tty = reporter === 'pretty' && isProgressShown(ctx, streamJson);
  const measured: LoadSummary = await runLoad({
    ...plan.run,
    target,
    abortOnFail: Boolean(flags.abortOnFail),
    signal: ctx.signal,
    emit: (event) => {
      if (streamJson) out.event(event);
      else if (tty) writeProgressLine(ctx.stderr, formatLoadProgress(event));
    },
  });
  if (tty) writeProgressLine(ctx.stderr, undefined);
  // spec 5.1, 5.2: the channel URL's random string and the bot's token are secrets, in the
  // report as on the terminal
  const shown = flags.showSecrets
    ? measured
    : { ...measured, url: hideUrlSecret(role, measured.url, base.token) };
  const summary = chatCap ? { ...shown, chatCap } : shown;
  await writeSummary(ctx, out, { flags, summary, reporter, streamJson, role, traced: plan.traced });
  const unjudged = nothingDeliveredUnjudged(summary);
  if (unjudged !== undefined) out.note(`warning: ${unjudged}`);
  const failed = summary.thresholds.some((t) => !t.ok) || !summary.accounted;
  return failed ? 1 : 0;
}

/**
 * The endpoint never accepted a connection (exit 3): --out and --report are still written, one
 * PeerUnreachable error for the run as conform writes, so a CI step that publishes them
 * whatever happened shows why instead of finding no file.
 */
async function reportUnreachable(
  ctx: CliContext,
  out: Output,
  run: { flags: LoadFlagsInput; reporter: string; role: LoadRole },
  error: unknown,
): Promise<void> {
  if (!(error instanceof SvcError) || error.code !== 'SVC_E_PEER_UNREACHABLE') return;
  const { flags, reporter, role } = run;
  const name = `svc-cli load ${role}`;
  if (flags.out !== undefined) {
    const { toJunit } = await import('../render/reporters/junit.js');
    const failure = { message: error.message, type: 'PeerUnreachable' };
    const text =
      reporter === 'junit'
        ? toJunit(name, [
            {
              name: `load ${role}`,
              file: name,
              ok: false,
              steps: [],
              protocolMs: 0,
              wallMs: 0,
              error: failure,
            },
          ])
        : `${JSON.stringify({ type: 'load-error', role, error: failure })}\n`;
    writeFileWhole(resolve(ctx.cwd, flags.out), text, flags.out);
    out.note(`report written to ${flags.out}: the endpoint is unreachable, nothing sent`);
  }
  if (flags.report !== undefined) {
    const { htmlText, reportEnd, reportHead } = await import('../../trace/html.js');
    const page = `${reportHead(name, false, reportMade(ctx))}<section class="conv has-bad" id="load" tabindex="0" aria-label="load ${htmlText(role)}"><h2>load ${htmlText(role)} <span class="badge bad">unreachable</span></h2><ul class="violations"><li class="violation"><b>PeerUnreachable</b>: ${htmlText(error.message)}</li></ul></section>\n${reportEnd()}`;
    writeFileWhole(resolve(ctx.cwd, flags.report), page, flags.report);
    out.note(`HTML report written to ${flags.report}`);
  }
}

/**
 * A run that delivered nothing exits 0 without a threshold (as k6 does: thresholds are the
 * pass criteria), so say it aloud; undefined when something was delivered, a threshold judged
 * the run, or it was stopped before its plan.
 * @example nothingDeliveredUnjudged(summary) // 'no payload of 10 sent was delivered (failed 10) ...'
 */
export function nothingDeliveredUnjudged(summary: LoadSummary): string | undefined {
  const s = summary.states;
  if (summary.sent === 0 || s.delivered > 0 || summary.thresholds.length > 0) return undefined;
  if (summary.stopped !== undefined) return undefined;
  const how = (['error-reply', 'failed', 'not-sent'] as const)
    .filter((state) => s[state] > 0)
    .map((state) => `${state.replace('-', ' ')} ${s[state]}`)
    .join(', ');
  return `no payload of ${summary.sent} sent was delivered (${how}), and with no --threshold the run still exits 0. Add --threshold 'failed<1%' (or 'rate>=1/s') to make it fail.`;
}

/**
 * The customers and the platform's cap on chats, when the platform says it keeps fewer chats
 * than the run has customers (svc-cli's simulator does; a real platform says nothing).
 */
async function churnedChats(
  base: { url: string; customers: number },
  signal: AbortSignal | undefined,
): Promise<{ customers: number; maxChats: number } | undefined> {
  // wall time: a probe, not a protocol exchange that --time-scale stretches
  const maxChats = await readChatCap({
    channelUrl: base.url,
    clock: createClock(),
    ...(signal ? { signal } : {}),
  });
  return maxChats !== undefined && base.customers > maxChats
    ? { customers: base.customers, maxChats }
    : undefined;
}

/** The summary where it goes: the terminal, the --json stream, --out, and --report. */
async function writeSummary(
  ctx: CliContext,
  out: Output,
  run: {
    flags: { out?: string | undefined; report?: string | undefined };
    summary: LoadSummary;
    reporter: string;
    streamJson: boolean;
    role: LoadRole;
    traced: ReportTrace | undefined;
  },
): Promise<void> {
  const { flags, summary, reporter, streamJson, role } = run;
  if (streamJson) out.event({ type: 'load-summary', ...summary });
  if (reporter === 'pretty') out.line(formatLoadSummary(summary, out.chalk));
  if (flags.out) {
    const text =
      reporter === 'junit'
        ? loadJunit(summary)
        : `${JSON.stringify({ type: 'load-summary', ...summary })}\n`;
    writeFileWhole(resolve(ctx.cwd, flags.out), text, flags.out);
    out.note(`report written to ${flags.out}: ${formatLoadCounts(summary)}`);
  } else if (reporter === 'junit') ctx.stdout.write(loadJunit(summary));
  if (flags.report !== undefined) {
    const title = `svc-cli load ${role}`;
    const { loadReportHtml, loadSection, sampleNote } = await import('../render/load-report.js');
    if (run.traced === undefined) {
      writeFileWhole(
        resolve(ctx.cwd, flags.report),
        loadReportHtml(summary, title, reportMade(ctx)),
        flags.report,
      );
    } else {
      // the sampled conversations' lanes, streamed from their journal (bounded memory)
      const { trace, file, disabled } = run.traced;
      trace.close();
      const { writeHtmlReport } = await import('./report-write.js');
      await writeHtmlReport({
        recording: file,
        out: resolve(ctx.cwd, flags.report),
        shownOut: flags.report,
        title,
        made: reportMade(ctx),
        filter: 'only sections with broken thresholds or violations',
        disabled,
        lead: `${loadSection(summary)}${sampleNote(trace.figures, disabled)}`,
      });
    }
    out.note(`HTML report written to ${flags.report}`);
  }
}
