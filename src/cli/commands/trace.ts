import { defineCommand } from './spec.js';
import { traceOptions } from './trace-options.js';

/** `svc-cli trace <recording>`: each conversation of a journal as a causal timeline. */
export const traceCommand = defineCommand({
  name: 'trace',
  description:
    'print each conversation of a recording as a timeline across the channel, bot, hook and widget interfaces, with what caused each exchange',
  arguments: [
    {
      name: 'recording',
      description:
        'an NDJSON or HAR journal written with --record (replay, platform, listen, proxy), a saved GET /_sim/journal answer, or a HAR exported by a browser or another proxy; - for stdin',
    },
  ],
  options: traceOptions,
  helpAfter: `
A conversation is a chat of one run: every exchange of the journal about that chat, one lane
per party (integrator, platform, bot, hooks, widget), protocol time from the chat's first
exchange, the gap since the one before, attempt numbers, and "← #n": the exchange (journal
seq) that caused it. Redelivery attempts name the attempt before them in the journal itself;
the other links are inferred from the chat, the message ids and texts, the attempt numbers
and the order the platform works in (docs/trace.md). The input is read a line at a time.
A HAR exported elsewhere (DevTools, Charles, mitmproxy) is read whole, each entry placed on
its interface by its URL, method and body; entries that are none of the contract's exchanges
(page scripts, images) are left out with a note on stderr.

Examples:
  $ svc-cli replay fixtures/conversations/transcript-redelivered.json --record session.ndjson
  $ svc-cli trace session.ndjson
  $ svc-cli trace session.ndjson --chat 1 --json
  $ curl -s 127.0.0.1:8800/_sim/journal | svc-cli trace -
  $ svc-cli trace session.ndjson --format otlp-json --out trace.json`,
  run: {
    path: 'trace-run',
    sources: () => import('./trace-run.js'),
    call: (m, ctx, { args, flags }) => m.runTrace(ctx, args.recording, flags),
  },
});
