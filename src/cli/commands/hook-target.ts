import { defineCommand } from './spec.js';
import { hookTargetOptions } from './hook-target-options.js';

/** `hook-target`: the hook receiver (a CRM's endpoint, spec 4.4, 6.2) with scripted replies and faults. */
export const hookTargetCommand = defineCommand({
  name: 'hook-target',
  description:
    'serve a hook receiver (spec 4.4): validate every hook event, reply with valid defaults per event, scripted replies or injected faults',
  options: hookTargetOptions,
  helpAfter: `
Accepts both offline_message and offline_messages (spec 6.2 note). Default replies:
chat_accepted shows custom_data, contact_info, enable_assign and crm_link; the other
events get {"result":"ok"}. Prints "listening" first (with --json: {"type":"listening",...}),
then one line per event with its verdict and indented issues. Ctrl-C exits 130.

Assumption (spec 5.4 silent): hook requests carry no authentication; none is checked.

Examples:
  $ svc-cli hook-target --port 9200
  $ svc-cli hook-target --port 9200 --reply chat_accepted=fixtures/hooks/crm-reply.json
  $ svc-cli --json hook-target --port 0 --fault status:500 --fault-rate 0.5 --seed 7`,
  run: {
    path: 'hook-target-run',
    sources: () => import('./hook-target-run.js'),
    call: (m, ctx, { flags }) => m.runHookTarget(ctx, flags),
  },
});
