import { statusOptions } from './send-options.js';
import { defineCommand } from './spec.js';

/** `status`: GET <channel URL>/status, body 0 or 1 (spec 3, 4.1). */
export const statusCommand = defineCommand({
  name: 'status',
  description: "read the channel's availability: online (1) or offline (0) (spec 3, 4.1)",
  options: statusOptions,
  helpAfter: `
Examples:
  $ svc-cli status --channel-url https://svc.example/r4nd0m/ch-1
  $ SVC_CHANNEL_URL=https://svc.example/r4nd0m/ch-1 svc-cli --json status`,
  run: {
    path: 'status-run',
    sources: () => import('./status-run.js'),
    call: (m, ctx, { flags }) => m.runStatus(ctx, flags),
  },
});
