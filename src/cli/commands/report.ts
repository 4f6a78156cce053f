import type { Command } from 'commander';
import { loadRunPath } from './run-path.js';
import type { CliContext } from '../context.js';
import { action, givenFlags } from '../action.js';
import { addOptions } from '../options/register.js';
import { reportOptions } from './report-options.js';

/** `svc-cli report <recording>`: the trace as one self-contained HTML file. */
export function registerReport(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('report')
    .description(
      'write a recording as one self-contained HTML file: a swimlane timeline per conversation, broken invariants in red',
    )
    .argument(
      '<recording>',
      'an NDJSON journal written with --record (replay, platform, listen, proxy)',
    );
  addOptions(cmd, reportOptions)
    .addHelpText(
      'after',
      `
The page needs no network and opens from disk: inline styles and script, light and dark, a
layout for wide and narrow screens. Each conversation shows a lane per party, protocol time
and gaps, attempts, what caused each exchange (a link), and its broken invariants in red
(docs/trace.md). Exits 1 when an invariant is broken, as trace does.

Examples:
  $ svc-cli replay fixtures/conversations --record session.ndjson
  $ svc-cli report session.ndjson --out report.html
  $ svc-cli replay fixtures/conversations --report report.html     # both at once`,
    )
    .action(
      action(ctx, async (file: string, _opts: unknown, cmd: Command) => {
        const { runReport } = await loadRunPath('report-run', () => import('./report-run.js'));
        return runReport(ctx, file, givenFlags(cmd));
      }),
    );
}
