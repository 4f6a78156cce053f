import { basename, resolve } from 'node:path';
import { SvcError } from '../../errors.js';
import { STDIN, shownInput } from '../../journal/read-input.js';
import type { CliContext } from '../context.js';
import { resolveForCommand } from '../options/resolve.js';
import { reportOptions } from './report-options.js';
import { writeHtmlReport } from './report-write.js';
import { createOutput } from '../render/output.js';
import { checkInvariantNames } from '../../trace/invariants.js';
import { plural } from '../../plural.js';
import { noteSkippedLines, noteUnplacedEntries } from '../render/skipped-lines.js';
import { reportMade } from '../render/report-made.js';
import { checkWritableFile } from '../out-file.js';
import { chatsHint } from './chats-hint.js';

/** `svc-cli report`: stream the recording into one HTML file; exit 1 on a broken invariant. */
export async function runReport(
  ctx: CliContext,
  file: string,
  given: Readonly<Record<string, unknown>>,
): Promise<number> {
  const flags = resolveForCommand(ctx, reportOptions, given);
  const out = createOutput(ctx, { json: flags.json });
  const disabled = checkInvariantNames(flags.invariant ?? []);
  checkWritableFile({ cwd: ctx.cwd, file: flags.out, flag: '--out' });
  const shown = shownInput(file);
  const summary = await writeHtmlReport({
    recording: file === STDIN ? STDIN : resolve(ctx.cwd, file),
    stdin: ctx.stdin,
    out: resolve(ctx.cwd, flags.out),
    shownOut: flags.out,
    // the recording's name, not the local path it was read from
    title: `svc-cli report: ${file === STDIN ? 'stdin' : basename(file)}`,
    made: reportMade(ctx),
    disabled,
    requireRecords: shown,
    onSkipped: (_, lines) => noteSkippedLines(out, shown, lines),
    onUnplaced: (_, unplaced) => noteUnplacedEntries(out, shown, unplaced),
    ...(flags.chat === undefined ? {} : { chat: flags.chat }),
    accept({ conversations }, chats) {
      // an empty page is no report of that chat: as trace --chat, a usage error, no file
      if (flags.chat !== undefined && conversations === 0)
        throw new SvcError(
          'SVC_E_NO_CHAT',
          `Could not report chat ${flags.chat}: no exchange of that chat in ${shown}.`,
          chatsHint(chats, 'report'),
        );
    },
  });
  if (flags.json) out.event({ type: 'report', file: flags.out, ...summary });
  else
    out.note(
      `HTML report written to ${flags.out}: ${plural(summary.conversations, 'conversation')}, ${plural(summary.exchanges, 'exchange')}${summary.notKept ? ` (${summary.notKept} more not kept)` : ''}, ${plural(summary.violations, 'invariant violation')}${summary.conversations === 0 && summary.outside ? ` (${plural(summary.outside, 'exchange')} outside any chat: nothing to draw)` : ''}`,
    );
  return summary.violations > 0 ? 1 : 0;
}
