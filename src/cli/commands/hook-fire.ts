import { defineCommand } from './spec.js';
import { hookFireOptions } from './hook-fire-options.js';
import { HOOK_EVENTS } from '../../contract/hook-events.js';

/** `hook-fire`: the platform firing one synthetic hook event at a receiver (like `stripe trigger`). */
export const hookFireCommand = defineCommand({
  name: 'hook-fire',
  description:
    'fire a realistic hook event (spec 6.2) at a hook receiver and check its reply against the contract',
  arguments: [
    {
      name: 'event',
      optional: true,
      description: `${HOOK_EVENTS.join(' | ')}; with --profile docs also client_updated | client_attribute_updated`,
      completes: HOOK_EVENTS,
    },
  ],
  options: hookFireOptions,
  helpAfter: `
Prints a line per event: its status, latency and the reply's verdict, with the issues as
"path: rule (spec X)"; the bodies of a request or reply that breaks the contract (--verbose:
every body). Each run is a new chat (chat ids are unique in the account, spec 6.2): --all's
events are one fresh chat, and the run prints its id; --chat-id <n> sends an event about
chat <n>, to build one chat event by event.

Assumptions (the spec is silent): the platform waits 10 s for a hook reply and does not
redeliver (spec 6.2, 8); hook requests carry no authentication (spec 5.4).

Examples:
  $ svc-cli hook-fire chat_accepted --url http://127.0.0.1:9200/hooks
  $ svc-cli hook-fire chat_finished --url http://127.0.0.1:9200/hooks --chat-id 523001
  $ svc-cli hook-fire chat_finished --url http://127.0.0.1:9200 --set chat.rate=negative
  $ svc-cli hook-fire call_event --url http://127.0.0.1:9200 --set call.status=error --set call.reason=busy
  $ svc-cli hook-fire client_updated --profile docs --url http://127.0.0.1:9200
  $ svc-cli --json hook-fire --all --url http://127.0.0.1:9200`,
  run: {
    path: 'hook-fire-run',
    sources: () => import('./hook-fire-run.js'),
    call: (m, ctx, { args, flags }) => m.runHookFire(ctx, flags, args.event),
  },
});
