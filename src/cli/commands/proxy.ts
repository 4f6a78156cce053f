import { defineCommand } from './spec.js';
import { proxyOptions } from './proxy-options.js';

/** `proxy channel|bot|hooks`: between real parties, forward, check, time and record. */
export const proxyCommand = defineCommand({
  name: 'proxy',
  description:
    'sit between real parties (your app and the real platform): forward every exchange unchanged, validate and time it against the spec, record it, optionally inject faults',
  arguments: [
    {
      name: 'interface',
      description: 'channel | bot | hooks',
      choices: ['channel', 'bot', 'hooks'],
    },
  ],
  options: proxyOptions,
  helpAfter: `
Routes (one port, a path prefix per direction; the rest of the path and the query follow):
  channel  /channel/...     -> --platform-url     your app posts customer messages here (spec 4.1)
           /integrator/...  -> --integrator-url   put this URL in the platform's channel settings (spec 4.2)
  bot      /platform/...    -> --platform-url     your bot posts BOT_MESSAGE / INVITE_AGENT here
           /provider/...    -> --provider-url     give this URL to the platform as the provider URL
  hooks    /hooks/...       -> --receiver-url     put this URL in the admin panel's hook setting

Each exchange is validated (the rules of validate: strict with your party, tolerant of the
platform), timed against the spec's budget (3 s per attempt for the integrator and the bot,
spec 8; 10 s assumed for hooks), and redeliveries are recognised by message.id or event id
(else the body hash) with their gap against 0, 3, 6 s. The conversations passing through are
checked against the cross-interface invariants (docs/trace.md: e.g. no hook about a chat after
its chat_finished); a broken one prints a red line. A summary is printed on Ctrl-C. An
upstream that is down gets the caller a 502 with a JSON error body; the proxy keeps serving.
svc-cli binds 127.0.0.1: to let the real platform reach the proxy, expose the port through
your own tunnel (or --host, with the warning it prints).

Examples:
  $ svc-cli proxy channel --platform-url https://<platform>/<random>/<id> \\
      --integrator-url http://127.0.0.1:9000/agent-messages --port 8443 --tls --record staging.ndjson
  $ svc-cli proxy bot --platform-url https://<bot service> --provider-url http://127.0.0.1:7000/bot
  $ svc-cli proxy hooks --receiver-url http://127.0.0.1:9200/hooks --fail-on-violation
  $ svc-cli proxy bot --platform-url https://<bot service> --provider-url http://127.0.0.1:7000/bot --no-invariant handover-budget
  $ svc-cli proxy channel --integrator-url http://127.0.0.1:9000 --fail-first 2   # watch the platform redeliver
  $ svc-cli record to-fixture staging.ndjson -o my-flows/from-staging.json`,
  run: {
    path: 'proxy-run',
    sources: () => import('./proxy-run.js'),
    call: (m, ctx, { args, flags }) => m.runProxy(ctx, args.interface, flags),
  },
});
