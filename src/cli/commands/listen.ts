import { defineCommand } from './spec.js';
import { listenOptions } from './listen-options.js';

/** `listen`: the integrator's agent-message endpoint with fault injection (spec 4.2). */
export const listenCommand = defineCommand({
  name: 'listen',
  description:
    'serve the integrator\'s agent-message endpoint POST /<channel_public_id> (spec 4.2): validate each agent message, reply {"result":"ok"} or inject faults',
  options: listenOptions,
  helpAfter: `
Prints "listening" first (with --json: {"type":"listening","url":...}), then one line per
request. Runs until Ctrl-C or SIGTERM.

Examples:
  $ svc-cli listen --port 9000 --fail-first 2        # watch the platform redeliver (spec 8)
  $ svc-cli listen --port 0 --json --fault hang --record session.ndjson`,
  run: {
    path: 'listen-run',
    sources: () => import('./listen-run.js'),
    call: (m, ctx, { flags }) => m.runListen(ctx, flags),
  },
});
