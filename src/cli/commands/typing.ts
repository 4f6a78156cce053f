import { defineCommand } from './spec.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { typingOptions } from './send-options.js';

/** `typing <start|stop>`: the customer's typing notice, typein / typeout (spec 2.3). */
export const typingCommand = defineCommand({
  name: 'typing',
  description: 'send a customer typing notice: start = typein, stop = typeout (spec 2.3)',
  arguments: [
    { name: 'state', description: 'start = typein, stop = typeout', choices: ['start', 'stop'] },
  ],
  options: typingOptions,
  helpAfter: `${SEND_HELP_AFTER}

Examples:
  $ svc-cli typing start --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli typing stop --sender-id c-1`,
  run: {
    path: 'send-run',
    sources: () => import('./send-run.js'),
    call: (m, ctx, { args, flags }) =>
      m.runSend(ctx, { variant: 'typing', state: args.state }, flags),
  },
});
