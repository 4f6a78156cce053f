/** The body of `mutate` (imported lazily): list the catalogue, or run the mutation run. */
import { resolve } from 'node:path';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { createOutput } from '../render/output.js';
import { mutateOptions } from './mutate-options.js';
import { MUTANTS } from '../../platform/mutants.js';
import {
  portTaken,
  runMutation,
  scoreBelow,
  selectMutants,
  type MutantResult,
} from '../../mutate/run.js';
import { EXIT_CODES, SvcError } from '../../errors.js';
import { coverageItems, createCoverageTally, readRecords } from '../../coverage/index.js';
import { checkOutFile } from '../out-file.js';
import { assertNoFixture, assertRecorded } from '../../trace/not-a-journal.js';
import { shownInput } from '../../journal/read-input.js';
import { writeFileWhole } from '../../io/write-whole.js';
import { interruptedCount, mutationJunit } from '../render/mutate.js';
import { plural } from '../../plural.js';
import type { Output } from '../render/output.js';
import type { MutationReport } from '../../mutate/run.js';
import { reportMade } from '../render/report-made.js';

const words = (list: readonly string[] | undefined): string[] =>
  (list ?? [])
    .flatMap((w) => w.split(','))
    .map((w) => w.trim())
    .filter((w) => w !== '');

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export async function runMutate(
  ctx: CliContext,
  command: string[],
  given: Record<string, unknown>,
): Promise<number> {
  const flags = resolveForCommand(ctx, mutateOptions, given);
  const out = createOutput(ctx, { json: flags.json });
  const only = words(flags.only);
  const skip = words(flags.skip);
  if (flags.list) {
    const listed = selectMutants({ only, skip });
    if (flags.json) for (const m of listed) out.event({ type: 'mutant', ...m });
    else {
      for (const m of listed) {
        out.line(`${out.chalk.bold(m.name)}  ${m.family}, spec ${m.spec}`);
        out.line(`  ${m.deviation}`);
        out.line(out.chalk.dim(`  survivor: ${m.survivor}`));
      }
      out.line(`${listed.length} of ${MUTANTS.length} mutants`);
    }
    return 0;
  }
  if (command.length === 0)
    throw new SvcError(
      'SVC_E_USAGE',
      'Could not mutate: no test command given.',
      'Give it after --, e.g. svc-cli mutate -- npm test (or --list for the catalogue).',
    );
  const line = (r: MutantResult): void => printResult(out, r);
  // a report that cannot be written is said now, not after every mutant ran
  for (const [flag, file] of [
    ['--junit', flags.junit],
    ['--report', flags.report],
  ] as const)
    checkOutFile({ cwd: ctx.cwd, out: file, reporter: 'junit', command: 'mutate', flag });
  let exercised: Set<string> | undefined;
  if (flags.coverage !== undefined && flags.coverage.length > 0) {
    const tally = createCoverageTally();
    for (const file of flags.coverage) {
      let records = 0;
      // `-` is standard input, as for `svc-cli coverage` (docs/coverage.md), not a file named -
      const path = file === '-' ? '-' : resolve(ctx.cwd, file);
      try {
        for await (const record of readRecords(
          path,
          ctx.stdin,
          undefined,
          undefined,
          shownInput(file),
        )) {
          tally.add(record);
          records++;
        }
      } catch (error) {
        // a conversation fixture is no recording: say so and how to get one, as coverage does
        if (path !== '-' && error instanceof SvcError && error.code === 'SVC_E_RECORDING')
          assertNoFixture([{ shown: file, path }], 'give that to --coverage');
        throw error;
      }
      // an empty recording (a suite that did not record) would leave every mutant unrun and
      // exit 0 on a score of nothing: refused as `coverage` refuses it, before the clean run
      assertRecorded(shownInput(file), records);
    }
    exercised = new Set(
      tally
        .report()
        .items.filter((i) => i.hits > 0)
        .map((i) => i.id),
    );
  }
  const report = await runMutation({
    ...(exercised ? { exercised } : {}),
    command,
    cwd: ctx.cwd,
    signal: ctx.signal,
    jobs: flags.jobs,
    only,
    skip,
    ...(flags.timeout === undefined ? {} : { timeoutMs: flags.timeout }),
    onClean: (ms) => {
      if (!flags.json) out.line(`clean run passed in ${seconds(ms)}`);
    },
    onResult: line,
  });
  const recordings = (flags.coverage ?? []).filter((f) => f !== '-' && !/\.(har|json)$/i.test(f));
  if (ctx.signal.aborted) {
    await out.flush(); // the notes on stderr under the results, in a terminal too
    out.note(`interrupted: ${interruptedCount(report)}`);
    // a --json reader gets its summary line too, saying the run is not whole: the score is of
    // the mutants that finished, and those that did not are named
    if (flags.json)
      out.event(
        summaryEvent(report, {
          interrupted: true,
          unfinished: (report.unfinished ?? []).map((m) => m.name),
        }),
      );
    // a CI job stopped at its time limit still publishes what ran, as conform's reports do
    await writeReports(ctx, out, report, { ...flags, recordings });
    return EXIT_CODES.sigint;
  }
  const below = flags.minScore !== undefined && scoreBelow(report, flags.minScore);
  if (flags.json)
    out.event(
      summaryEvent(
        report,
        flags.minScore === undefined ? {} : { minScore: flags.minScore, pass: !below },
      ),
    );
  else
    out.line(
      `mutation score ${report.score.toFixed(1)}% (${report.killed} killed, ${report.timedOut} timed out, ${report.survived} survived of ${report.results.length - report.notExercised}${report.notExercised > 0 ? `; ${report.notExercised} never exercised, not run` : ''})`,
    );
  // stdout is written once per turn, stderr at once: the notes below stand under the results
  // and the summary they refer to, in a terminal too
  await out.flush();
  // every mutant survived: most often nothing the command started read SVC_MUTANT
  if (report.killed + report.timedOut === 0 && report.survived > 0)
    out.note(
      'no mutant changed the result of your command: does it start the svc-cli simulator itself (platform, replay, or the library)? SVC_MUTANT reaches only what the command starts; a simulator started before svc-cli mutate runs clean.',
    );
  const clash = portClash(report, flags.jobs);
  if (clash !== undefined) out.note(clash);
  // --coverage's NDJSON recordings are the run's conversations in the HTML report
  await writeReports(ctx, out, report, { ...flags, recordings });
  if (below)
    out.note(`mutation score ${report.score.toFixed(1)}% is below --min-score ${flags.minScore}%`);
  return below ? 1 : 0;
}

/** One mutant's result: an NDJSON line with --json, else its line and what explains it. */
function printResult(out: Output, r: MutantResult): void {
  if (out.json) {
    out.event({ type: 'mutant-result', ...r });
    return;
  }
  if (r.outcome === 'not-exercised') {
    out.line(
      `${out.chalk.dim('unrun   ')}  ${r.name} (spec ${r.spec}): never exercised by the recorded run`,
    );
    out.line(out.chalk.dim(`          reached by a run with: ${reachedBy(r.exercisedBy)}`));
    return;
  }
  const head =
    r.outcome === 'survived'
      ? out.chalk.yellow('survived')
      : r.outcome === 'timeout'
        ? out.chalk.cyan('timeout ')
        : out.chalk.green('killed  ');
  out.line(`${head}  ${r.name} (spec ${r.spec})  ${seconds(r.wallMs)}`);
  if (r.outcome === 'survived') out.line(out.chalk.dim(`          ${r.survivor}`));
  // why it failed: the failed assertion or the crash's error, else what the run said last
  // (--json has its last lines)
  const said = cutSaid(r.failure) ?? lastSaid(r.output);
  if (said !== undefined) out.line(out.chalk.dim(`          ${said}`));
}

/**
 * What a run must do to reach a mutant, in words: the coverage items of its `exercisedBy`.
 * @example reachedBy(['timing:channel:failed']) // 'channel delivery failed after 3 attempts'
 */
function reachedBy(ids: readonly string[]): string {
  const labels = new Map(coverageItems().map((i) => [i.id, i.label]));
  return ids.map((id) => labels.get(id) ?? id).join(', or ');
}

/**
 * The warning for kills whose output says a port was in use, run with `--jobs` above 1: two
 * runs at once of a suite that binds a fixed port fail each other, a kill of nothing.
 */
function portClash(report: MutationReport, jobs: number): string | undefined {
  const clashed = report.results.filter((r) => r.outcome === 'killed' && portTaken(r.output));
  if (jobs <= 1 || clashed.length === 0) return undefined;
  return `warning: ${plural(clashed.length, 'killed mutant')} (${clashed.map((r) => r.name).join(', ')}) failed on a port in use (EADDRINUSE): with --jobs ${jobs} two runs may share a port, and the kill says nothing of your tests. Rerun with --jobs 1, or let your suite bind port 0.`;
}

/** How long a killed run's last line of output may be in the text output. */
const SAID_CHARS = 100;

/** A line cut to one short line. */
function cutSaid(line: string | undefined): string | undefined {
  if (line === undefined) return undefined;
  return line.length > SAID_CHARS ? `${line.slice(0, SAID_CHARS - 1)}…` : line;
}

/** A killed run's last non-empty line of output, cut to one short line; undefined if none. */
function lastSaid(output: string | undefined): string | undefined {
  return cutSaid(
    output
      ?.split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .at(-1),
  );
}

/** Writes --junit and --report, each said in one line. */
async function writeReports(
  ctx: CliContext,
  out: Output,
  report: MutationReport,
  options: {
    junit?: string | undefined;
    report?: string | undefined;
    minScore?: number | undefined;
    recordings: readonly string[];
  },
): Promise<void> {
  // a run the signal stopped: the mutants that did not finish are listed too, marked
  const notRun = report.unfinished?.length;
  const counted = `${plural(report.results.length, 'mutant')}${notRun === undefined ? '' : `, ${notRun} interrupted`}`;
  if (options.junit !== undefined) {
    writeFileWhole(
      resolve(ctx.cwd, options.junit),
      mutationJunit(report, options.minScore),
      options.junit,
    );
    out.note(`JUnit written to ${options.junit}: ${counted}`);
  }
  if (options.report !== undefined) {
    const { writeHtmlReport } = await import('./report-write.js');
    const html = await writeHtmlReport({
      recording: options.recordings.map((f) => resolve(ctx.cwd, f)),
      out: resolve(ctx.cwd, options.report),
      shownOut: options.report,
      title: 'svc-cli mutate',
      made: reportMade(ctx),
      // a suite's recording names no test: each run's chat 1 is told apart by what it did
      gistNames: true,
      mutation: {
        ...report,
        results: [
          ...report.results,
          ...(report.unfinished ?? []).map((m) => ({
            ...m,
            outcome: 'interrupted' as const,
            wallMs: 0,
          })),
        ],
        ...(notRun === undefined ? {} : { interrupted: notRun }),
      },
    });
    out.note(
      `HTML report written to ${options.report}: ${counted}${html.conversations > 0 ? `, ${plural(html.conversations, 'conversation')} of the recorded run` : ''}`,
    );
  }
}

/** The closing `summary` line of `--json`: counts, score, survivors, and what `extra` adds. */
function summaryEvent(report: MutationReport, extra: Record<string, unknown>) {
  return {
    type: 'summary',
    score: report.score,
    killed: report.killed,
    survived: report.survived,
    timedOut: report.timedOut,
    notExercised: report.notExercised,
    total: report.results.length,
    cleanWallMs: report.clean.wallMs,
    survivors: report.results.filter((r) => r.outcome === 'survived').map((r) => r.name),
    ...extra,
  };
}
