import { defineCommand } from './spec.js';
import { loadOptions } from './load-options.js';

/** `load <role>`: the platform's traffic (or customers') at a rate, with thresholds. */
export const loadCommand = defineCommand({
  name: 'load',
  description:
    "send the platform's traffic to YOUR endpoint at a rate (integrator, hooks, bot), or customers to a channel, with live figures and pass/fail thresholds",
  arguments: [
    {
      name: 'role',
      description: 'integrator | channel | hooks | bot',
      choices: ['integrator', 'channel', 'hooks', 'bot'],
    },
  ],
  options: loadOptions,
  helpAfter: `
Open model: payloads start at the planned times whatever the endpoint does, so a slow answer
cannot hold the next one back; latency counts from when a payload was due. integrator, bot and
hooks go through the platform's delivery engine: integrator 3 attempts at 0/3/6 s, 3 s each
(spec 8); bot 2 x 3 s (spec 8); hooks 1 x 10 s (an assumption: the spec is silent). A payload
the generator could not start is "not sent" and never counted as the endpoint's failure.
Latency thresholds hold every answer (all attempts); failed is failed / settled (delivered,
error reply or failed); redelivered is the settled payloads that needed a second attempt /
settled (a receiver that fails first and recovers passes failed, not redelivered); rate is
delivered per second of the run (error replies apart).

Examples:
  $ svc-cli load integrator --url http://127.0.0.1:9000/agent-messages --rate 200/s --duration 60s \\
      --threshold 'p99<500ms' --threshold 'failed<0.1%' --report load.html
  $ svc-cli load channel --channel-url <url> --customers 2000 --rate 500/s --duration 2m --mix fixtures/conversations
  $ svc-cli load hooks --url http://127.0.0.1:9200/hooks --rate 100/s
  $ svc-cli load bot --url http://127.0.0.1:7000/bot --token t --rate 50/s
  $ svc-cli load integrator --url http://127.0.0.1:9000/agent-messages --rate 20000/s --export locust > locustfile.py`,
  run: {
    path: 'load-run',
    sources: () => import('./load-run.js'),
    call: (m, ctx, { args, flags }) => m.runLoadCommand(ctx, args.role, flags),
  },
});
