import { closeSync, openSync, writeSync } from 'node:fs';
import { SvcError, systemReason } from '../../errors.js';
import { checkConversation } from '../../trace/invariants.js';
import { readTrace } from '../../trace/read.js';
import { reportHead, reportSection, reportTail, type ReportSummary } from '../../trace/html.js';

export interface HtmlReportOptions {
  /** the NDJSON journal to read */
  recording: string;
  /** the HTML file to write (absolute) and its name as the user gave it */
  out: string;
  shownOut: string;
  title: string;
  disabled?: readonly string[];
  chat?: number;
  /** a conversation's name by its journal run (replay knows them) */
  names?: ReadonlyMap<string, string>;
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
  const summary: ReportSummary = { conversations: 0, exchanges: 0, violations: 0 };
  try {
    writeSync(fd, reportHead(options.title));
    await readTrace({
      file: options.recording,
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
