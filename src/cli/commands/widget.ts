import { defineCommand } from './spec.js';
import { widgetOptions } from './widget-options.js';

/** `widget`: a demo page whose svc_api double talks to a simulator (interface C). */
export const widgetCommand = defineCommand({
  name: 'widget',
  description:
    'serve a demo page that loads the svc_api double (spec 4.5, 6.4) wired to the simulator, with the agent web console beside it',
  options: widgetOptions,
  helpAfter: `
Prints the page URL first (with --json: {"type":"listening","url":...,"consoleUrl":...}).
The page's chat box sends visitor messages to the simulator's widget channel; answer them in
the agent web console. Ctrl-C stops both servers.

Examples:
  $ svc-cli widget --port 8080
  $ svc-cli widget --agents offline          # try sendOfflineMessage
  $ svc-cli platform --web --port 8800 & svc-cli widget --platform-url http://127.0.0.1:8800`,
  run: {
    path: 'widget-run',
    sources: () => import('./widget-run.js'),
    call: (m, ctx, { flags }) => m.runWidget(ctx, flags),
  },
});
