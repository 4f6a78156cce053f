import { defineCommand } from './spec.js';
import { SEND_HELP_AFTER } from './send-help.js';
import { sendTextOptions } from './send-options.js';

/** `send-text <text>`: a customer text message to the channel URL (spec 2.1, 4.1). */
export const sendTextCommand = defineCommand({
  name: 'send-text',
  description: 'send a customer text message to the platform (interface A, spec 2.1)',
  arguments: [
    { name: 'text', description: 'message text (over 1000 characters the platform cuts it)' },
  ],
  options: sendTextOptions,
  helpAfter: `${SEND_HELP_AFTER}

Example:
  $ svc-cli send-text "Hello" --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1`,
  run: {
    path: 'send-run',
    sources: () => import('./send-run.js'),
    call: (m, ctx, { args, flags }) => m.runSend(ctx, { variant: 'text', text: args.text }, flags),
  },
});
