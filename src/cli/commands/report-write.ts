import { closeSync, openSync, writeSync } from 'node:fs';
import { SvcError, systemReason } from '../../errors.js';
import { checkConversation } from '../../trace/invariants.js';
import { readTrace } from '../../trace/read.js';
import {
  mutantSection,
  reportHead,
  reportSection,
  reportTail,
  type MutantRow,
  type MutationFigures,
  type ReportSummary,
} from '../../trace/html.js';

export interface HtmlReportOptions {
  /** the NDJSON journals to read, one after another (none: a mutation run without --coverage) */
  recording: string | readonly string[];
  /** the HTML file to write (absolute) and its name as the user gave it */
  out: string;
  shownOut: string;
  title: string;
  disabled?: readonly string[];
  chat?: number;
  /** a conversation's name by its journal run (replay knows them) */
  names?: ReadonlyMap<string, string>;
  /** a mutation run: a section per mutant before the conversations, its figures in the summary */
  mutation?: MutationFigures & { results: readonly MutantRow[] };
}

/**
 * Streams a recording into the HTML report: the head, a section per conversation as the
 * reader hands it out, the summary. The file is written as it goes (bounded memory).
 * @example await writeHtmlReport({ recording, out, shownOut: 'report.html', title: 'replay' });
 */
export async function writeHtmlReport(options: HtmlReportOptions): Promise<ReportSummary> {
  let fd: number;
  try {
    fd = openSync(options.out, 'w');
  } catch (error) {
    throw new SvcError(
      'SVC_E_WRITE',
      `Could not write ${options.shownOut}: ${systemReason(error)}.`,
    );
  }
  const { mutation } = options;
  const summary: ReportSummary = {
    conversations: 0,
    exchanges: 0,
    violations: 0,
    ...(mutation
      ? {
          mutation: {
            score: mutation.score,
            killed: mutation.killed,
            timedOut: mutation.timedOut,
            survived: mutation.survived,
            notExercised: mutation.notExercised,
          },
        }
      : {}),
  };
  try {
    writeSync(
      fd,
      reportHead(
        options.title,
        mutation ? 'only surviving mutants and conversations with violations' : undefined,
      ),
    );
    for (const m of mutation?.results ?? []) writeSync(fd, mutantSection(m));
    const files = typeof options.recording === 'string' ? [options.recording] : options.recording;
    for (const file of files)
      await readTrace({
        file,
        ...(options.chat === undefined ? {} : { chat: options.chat }),
        onConversation(c) {
          const violations = checkConversation(c, { disabled: options.disabled ?? [] });
          summary.conversations++;
          summary.exchanges += c.spans.length;
          summary.violations += violations.length;
          writeSync(fd, reportSection(c, violations, options.names?.get(c.run)));
        },
      });
    writeSync(fd, reportTail(summary));
  } finally {
    closeSync(fd);
  }
  return summary;
}
