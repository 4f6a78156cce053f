import { defineCommand } from './spec.js';
import { reportOptions } from './report-options.js';

/** `svc-cli report <recording>`: the trace as one self-contained HTML file. */
export const reportCommand = defineCommand({
  name: 'report',
  description:
    'write a recording as one self-contained HTML file: a swimlane timeline per conversation, broken invariants in red',
  arguments: [
    {
      name: 'recording',
      description:
        'an NDJSON or HAR journal written with --record (replay, platform, listen, proxy), a saved GET /_sim/journal answer, or a HAR exported by a browser or another proxy; - for stdin',
    },
  ],
  options: reportOptions,
  helpAfter: `
The page needs no network and opens from disk: inline styles and script, light and dark, a
layout for wide and narrow screens. Each conversation shows a lane per party, protocol time
and gaps, attempts, what caused each exchange (a link), and its broken invariants in red
(docs/trace.md). Exits 1 when an invariant is broken, as trace does.

Examples:
  $ svc-cli replay fixtures/conversations --record session.ndjson
  $ svc-cli report session.ndjson --out report.html
  $ svc-cli replay fixtures/conversations --report report.html     # both at once`,
  run: {
    path: 'report-run',
    sources: () => import('./report-run.js'),
    call: (m, ctx, { args, flags }) => m.runReport(ctx, args.recording, flags),
  },
});
