import { defineCommand } from './spec.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { sendLocationOptions } from './send-options.js';

/** `send-location --latitude --longitude` (spec 2.4). */
export const sendLocationCommand = defineCommand({
  name: 'send-location',
  description: 'send a customer geo-location message (spec 2.4)',
  options: sendLocationOptions,
  helpAfter: `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-location --latitude 55.7558 --longitude=-37.6173 --sender-id c-1`,
  run: {
    path: 'send-run',
    sources: () => import('./send-run.js'),
    call: (m, ctx, { flags }) => m.runSend(ctx, { variant: 'location' }, flags),
  },
});
