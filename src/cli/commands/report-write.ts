import { writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { shownInput } from '../../journal/read-input.js';
import { DISK_CODES } from '../../errors.js';
import { openWhole, writeError } from '../../io/write-whole.js';
import { compact } from '../../compact.js';
import { checkConversation } from '../../trace/invariants.js';
import {
  CHATS_NAMED,
  readTrace,
  type TraceLimits,
  type TraceSummary,
  type TracedConversation,
} from '../../trace/read.js';
import { loadForeignPlacer } from './foreign-har.js';
import type { SkippedLines } from '../../journal/skipped-lines.js';
import { assertJournal, assertRecorded } from '../../trace/not-a-journal.js';
import {
  briefNote,
  failedNote,
  foldedRuns,
  unlistedNote,
  conversationGist,
  conversationsNote,
  mutantSection,
  sortMutantRows,
  mutationInterruptedNote,
  reportBrief,
  reportHead,
  reportSection,
  reportTail,
  runFailed,
  runSection,
  nothingDrawnNote,
  runsNote,
  type MutantRow,
  type ReportMade,
  type ReportRun,
  type MutationFigures,
  type ReportSummary,
} from '../../trace/html.js';

export interface HtmlReportOptions {
  /**
   * the journals to read, one after another (none: a mutation run without --coverage); `-`
   * reads `stdin`
   */
  recording: string | readonly string[];
  stdin?: Readable;
  /** the HTML file to write (absolute) and its name as the user gave it */
  out: string;
  /**
   * throws when the run's figures make no report (`report --chat` of a chat not there); `chats`
   * are the recordings' first chat ids, as the trace reader keeps them
   */
  accept?: (summary: ReportSummary, chats: readonly number[]) => void;
  shownOut: string;
  title: string;
  disabled?: readonly string[];
  /** the bot budget the run's platform kept (a --profile's bot policy), for handover-budget */
  botBudgetMs?: number;
  chat?: number;
  /** a conversation's name by its journal run (replay knows them) */
  names?: ReadonlyMap<string, string>;
  /**
   * name a conversation `names` does not by what it did (`conversationGist`): a test suite's
   * recording (mutate's `--coverage`) names no fixture, and each of its runs is a `chat 1`
   */
  gistNames?: boolean;
  /**
   * the runs in the order their conversations are drawn (replay: input order; conversations
   * run at once append to the journal as they go). Their conversations are held until the
   * recording is read; those of other runs are drawn as they are read.
   */
  order?: readonly string[];
  /**
   * a mutation run: a section per mutant before the conversations, its figures in the summary;
   * of a run the signal stopped, `results` ends with the `interrupted` mutants that did not finish
   */
  mutation?: MutationFigures & { results: readonly MutantRow[] };
  /** how the report was made, under its title: the command line, the version, the time */
  made?: ReportMade;
  /** HTML written after the page's head, before the conversations (`load --report`'s run) */
  lead?: string;
  /** the head's filter label (false: none) */
  filter?: string | false;
  /**
   * every run of the command (replay, conform): those with no conversation in the recording
   * (no run id, or none of its chats read) are listed after the conversations, with why
   */
  runs?: readonly ReportRun[];
  /** what the page calls one of `runs` (default `run`; conform's are `case`) */
  runNoun?: string;
  /**
   * checks of their own that are not one conversation each (conform's cases): the failed ones
   * are listed first, each with what failed, so the page is red when the run was; the passed
   * and skipped ones follow, folded; every one is counted in the summary
   */
  cases?: readonly ReportRun[];
  /**
   * `report`: the recording's name as the user gave it; without one record it is an error,
   * and no file is left (exit 2)
   */
  requireRecords?: string;
  /**
   * false: no rule is judged on the page's chats, nor counted (conform bot's are its embedded
   * platform's, where the rules would judge svc-cli's own sending; the suite judges the bot)
   */
  judged?: false;
  /** false: the run opens no chat (conform hooks, integrator): the page counts its cases alone */
  chats?: false;
  /** how much is drawn (tests lower it); --chat draws every exchange of its conversation */
  budget?: Partial<DrawBudget>;
  /** how much the reader keeps (tests lower the exchanges kept per conversation) */
  limits?: Partial<TraceLimits>;
  /** a recording (as named in `recording`) had lines that were not journal records */
  onSkipped?: (file: string, lines: SkippedLines) => void;
  /** entries of a foreign HAR that were placed on no interface and left out */
  onUnplaced?: (file: string, unplaced: { count: number; first: string }) => void;
}

export interface DrawBudget {
  /** exchanges drawn per conversation (the first and last ones, and those a violation names) */
  rowsPerConversation: number;
  /**
   * exchanges drawn in the whole report: past it, conversations without violations get one
   * line each. 10k rows are about 3.5 MB of HTML (bench/trace.js: a 100k-exchange run's report
   * is to stay under 20 MB and render in under 3 s).
   */
  rows: number;
  /** conversations listed past the rows (about 110 bytes each); the rest are only counted */
  listed: number;
}

/**
 * Exchanges in sections laid out at once; later sections are laid out when scrolled near (a
 * full-page screenshot or a print of a short report shows them all).
 */
const EAGER_ROWS = 1_000;

const DEFAULT_BUDGET: DrawBudget = { rowsPerConversation: 200, rows: 10_000, listed: 10_000 };

/** A mutation run's figures for the page's summary. */
function mutationFigures(mutation: MutationFigures): MutationFigures {
  const { score, killed, timedOut, survived, notExercised, interrupted } = mutation;
  return {
    ...{ score, killed, timedOut, survived, notExercised },
    ...(interrupted === undefined ? {} : { interrupted }),
  };
}

/** The page's figures before anything is read. */
function emptySummary(options: HtmlReportOptions): ReportSummary {
  const { mutation } = options;
  return {
    conversations: 0,
    exchanges: 0,
    violations: 0,
    ...(mutation ? { mutation: mutationFigures(mutation) } : {}),
    ...(options.judged === false ? { unjudged: true as const } : {}),
    ...(options.chats === false ? { chatless: true as const } : {}),
  };
}

/** A conversation's title: its fixture's name, else with `gistNames` what it did. */
const conversationName = (
  options: Pick<HtmlReportOptions, 'names' | 'gistNames'>,
  c: TracedConversation,
): string | undefined =>
  options.names?.get(c.run) ?? (options.gistNames ? conversationGist(c) : undefined);

/**
 * A card per mutant, survivors first; of a run the signal stopped, first how many finished and
 * did not.
 */
function mutantSections(mutation: MutationFigures & { results: readonly MutantRow[] }): string {
  const { interrupted } = mutation;
  const cut =
    interrupted === undefined
      ? ''
      : mutationInterruptedNote(mutation.results.length - interrupted, interrupted);
  return cut + sortMutantRows(mutation.results).map(mutantSection).join('');
}

/**
 * The runs by journal run, whose failed steps or interruption go above their chats (a red exit
 * code must not draw a green page), and how many failed and how many a signal cut short (each
 * counted once, whether its chats are drawn or it is listed without one).
 */
function verdictsOf(
  runs: readonly ReportRun[],
  cases: readonly ReportRun[],
): {
  verdicts: ReadonlyMap<string, ReportRun>;
  counts: Pick<ReportSummary, 'passed' | 'failed' | 'skipped' | 'interrupted'>;
} {
  const every = [...runs, ...cases];
  const passed = every.filter((r) => r.verdict === 'passed').length;
  const failed = every.filter((r) => r.verdict === 'failed').length;
  const skipped = every.filter((r) => r.verdict === 'skipped').length;
  const interrupted = every.filter((r) => r.verdict === 'interrupted').length;
  return {
    verdicts: new Map(runs.flatMap((r) => (r.run === undefined ? [] : [[r.run, r] as const]))),
    counts: {
      // the terminal's closing line counts every run and case, listed or drawn
      ...(every.length > 0 ? { passed, skipped } : {}),
      ...(failed > 0 ? { failed } : {}),
      ...(interrupted > 0 ? { interrupted } : {}),
    },
  };
}

/**
 * A conversation's figures added to the page's: its violations, the exchanges kept, and those
 * past the reader's per-conversation cap counted apart, as the text trace says them.
 */
function countConversation(
  summary: ReportSummary,
  c: TracedConversation,
  violations: number,
): void {
  summary.conversations++;
  summary.violations += violations;
  summary.exchanges += c.spans.length;
  if (c.dropped > 0) summary.notKept = (summary.notKept ?? 0) + c.dropped;
}

/** A run whose chats the page marks (never only listed): it failed, or a signal cut it short. */
const marksItsChats = (r: Partial<ReportRun>): boolean =>
  Boolean(r.failures?.length) || r.interrupted !== undefined;

/** What the recordings of a page held, beside the conversations handed to it. */
interface RecordingsRead {
  read: { records: number; skipped: number; outside: number };
  /** the chats the recordings hold (the first CHATS_NAMED), for a --chat that matched none */
  chats: number[];
  skippedIn: Array<[string, SkippedLines]>;
  unplacedIn: Array<[string, NonNullable<TraceSummary['unplaced']>]>;
}

/** Reads each recording in turn, handing its conversations to `onConversation`. */
async function readRecordings(
  files: readonly string[],
  options: HtmlReportOptions,
  onConversation: (c: TracedConversation) => void,
): Promise<RecordingsRead> {
  const got: RecordingsRead = {
    read: { records: 0, skipped: 0, outside: 0 },
    chats: [],
    skippedIn: [],
    unplacedIn: [],
  };
  const { read, chats } = got;
  for (const file of files) {
    const one = await readTrace({
      file,
      ...compact({ chat: options.chat, limits: options.limits, stdin: options.stdin }),
      onConversation,
      placeForeign: loadForeignPlacer,
    });
    if (one.unplaced !== undefined) got.unplacedIn.push([file, one.unplaced]);
    for (const c of one.chats ?? [])
      if (chats.length < CHATS_NAMED && !chats.includes(c)) chats.push(c);
    read.records += one.records;
    read.skipped += one.skipped;
    read.outside += one.outside;
    if (one.skipped > 0) got.skippedIn.push([file, one]);
  }
  return got;
}

/**
 * What the page's filter keeps, in the words of what the page holds: a mutation run without a
 * recording (no --coverage) draws mutants alone; undefined: reportHead's own label.
 */
function filterLabel(options: HtmlReportOptions, recorded: boolean): string | undefined {
  if (options.mutation)
    return recorded
      ? 'only surviving mutants and conversations with violations'
      : 'only surviving mutants';
  if (options.runs || options.cases) return 'only failed runs and conversations with violations';
  return undefined;
}

/**
 * Streams a recording into the HTML report: the head, a section per conversation as the
 * reader hands it out (those of `order`'s runs held, then drawn in its order), the summary.
 * The file is written as it goes (bounded memory, but for the held conversations).
 * @example await writeHtmlReport({ recording, out, shownOut: 'report.html', title: 'replay' });
 */
export async function writeHtmlReport(options: HtmlReportOptions): Promise<ReportSummary> {
  // written beside it and put in place at the end: a recording that cannot be read, or a
  // disk that fills up, leaves the last report as it was, not an empty page in its place
  const file = openWhole(options.out, options.shownOut);
  const { fd } = file;
  const { mutation } = options;
  const summary = emptySummary(options);
  const files = typeof options.recording === 'string' ? [options.recording] : options.recording;
  try {
    writeSync(
      fd,
      reportHead(
        options.title,
        options.filter ?? filterLabel(options, files.length > 0),
        options.made,
      ),
    );
    if (options.lead !== undefined) writeSync(fd, options.lead);
    const cases = options.cases ?? [];
    const failedCases = cases.filter((r) => r.verdict === 'failed');
    if (failedCases.length > 0) writeSync(fd, failedNote(failedCases.length));
    for (const r of failedCases) writeSync(fd, runSection(r));
    // the cases that passed or were skipped, folded: the page names every case the run had
    const foldedCases = cases.filter((r) => r.verdict === 'passed' || r.verdict === 'skipped');
    if (foldedCases.length > 0) writeSync(fd, foldedRuns(foldedCases, options.runNoun));
    if (mutation) writeSync(fd, mutantSections(mutation));
    const budget = {
      ...DEFAULT_BUDGET,
      ...(options.chat === undefined ? {} : { rowsPerConversation: Infinity }),
      ...options.budget,
    };
    let drawnRows = 0;
    let drawn = 0;
    let listed = 0;
    const seen = new Set<string>();
    const rank = new Map((options.order ?? []).map((run, index) => [run, index]));
    const held: TracedConversation[] = [];
    const { verdicts, counts } = verdictsOf(options.runs ?? [], cases);
    Object.assign(summary, counts);
    // the mutants a signal stopped count in the page's "interrupted", as cut runs do
    if (mutation?.interrupted)
      summary.interrupted = (summary.interrupted ?? 0) + mutation.interrupted;
    const checks = compact({ disabled: options.disabled ?? [], botBudgetMs: options.botBudgetMs });
    const draw = (c: TracedConversation): void => {
      const violations = options.judged === false ? [] : checkConversation(c, checks);
      const verdict: Partial<ReportRun> = verdicts.get(c.run) ?? {};
      countConversation(summary, c, violations.length);
      seen.add(c.run);
      const name = conversationName(options, c);
      // the mutant cards end here: what follows is the recorded run, under a heading
      if (mutation && summary.conversations === 1) writeSync(fd, conversationsNote(files));
      if (violations.length === 0 && !marksItsChats(verdict) && drawnRows >= budget.rows) {
        if (listed === 0) writeSync(fd, briefNote(drawn, options.requireRecords));
        if (listed++ < budget.listed) writeSync(fd, reportBrief(c, name));
        return;
      }
      // past the first screens, the browser lays a section out once it is scrolled near
      const lazy = drawnRows >= EAGER_ROWS;
      drawn++;
      drawnRows += Math.min(c.spans.length, budget.rowsPerConversation);
      writeSync(
        fd,
        reportSection(c, violations, name, budget.rowsPerConversation, lazy, verdict, {
          judged: options.judged !== false,
          // `report`'s page names its recording in the commands its hints give
          ...(options.requireRecords === undefined ? {} : { recording: options.requireRecords }),
        }),
      );
    };
    const { read, chats, skippedIn, unplacedIn } = await readRecordings(files, options, (c) =>
      rank.has(c.run) ? void held.push(c) : draw(c),
    );
    // the failed runs' chats first, so a red page opens on what failed; a stable sort: a
    // run's chats stay in the order they were read
    const later = (c: TracedConversation): number =>
      marksItsChats(verdicts.get(c.run) ?? {}) ? 0 : 1;
    held
      .sort((a, b) => later(a) - later(b) || (rank.get(a.run) ?? 0) - (rank.get(b.run) ?? 0))
      .forEach(draw);
    assertJournal(
      files.map(shownInput).join(', '),
      read,
      files.map((f) => ({ shown: f, path: f })),
      'report that',
    );
    if (options.requireRecords !== undefined) assertRecorded(options.requireRecords, read.records);
    // after the checks: a file that is no journal at all is an error, not a warning
    for (const [file, lines] of skippedIn) options.onSkipped?.(file, lines);
    for (const [file, unplaced] of unplacedIn) options.onUnplaced?.(file, unplaced);
    if (read.skipped > 0) summary.skippedLines = read.skipped;
    if (listed > budget.listed)
      writeSync(fd, unlistedNote(listed - budget.listed, options.requireRecords));
    const chatless = (options.runs ?? []).filter((r) => r.run === undefined || !seen.has(r.run));
    if (chatless.length > 0)
      writeSync(fd, runsNote(chatless.length, options.runNoun, chatless.some(runFailed)));
    for (const r of chatless) writeSync(fd, runSection(r));
    if (chatless.length > 0) summary.runs = chatless.length;
    if (read.outside > 0) summary.outside = read.outside;
    // a page with nothing drawn says why, rather than stand empty
    const pageOfRuns = (options.runs ?? []).length > 0 || summary.chatless === true;
    if (summary.conversations === 0 && !pageOfRuns && !options.mutation)
      writeSync(fd, nothingDrawnNote(read.outside));
    writeSync(fd, reportTail(summary, options.runNoun));
    options.accept?.(summary, chats);
  } catch (error) {
    file.discard();
    if (!DISK_CODES.has((error as NodeJS.ErrnoException).code ?? '')) throw error;
    // a disk that filled up under the page: no half page that opens as if it were whole
    throw writeError(error, options.shownOut);
  }
  file.commit();
  return summary;
}
