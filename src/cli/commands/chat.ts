import { defineCommand } from './spec.js';
import { chatOptions } from './chat-options.js';

/** `chat`: an interactive customer console; agent replies arrive through an embedded listen. */
export const chatCommand = defineCommand({
  name: 'chat',
  description:
    'interactive customer console: type to send, see the agent’s replies (embedded simulator when no channel URL)',
  options: chatOptions,
  helpAfter: `
Lines are text messages; /help lists /typing, /photo, /media, /location, /name, /quit.
Agent replies arrive at an embedded agent-message endpoint (like svc-cli listen): with a
channel URL, give the platform that endpoint's URL as the integrator URL; without one, an
embedded simulator starts and its integrator URL points at it already, and the agent side
is its control API (printed) or /agent <text>.
A line chat refuses itself before sending (the contract, a mistyped command) is shown at
once and leaves the exit code as it is.

Examples:
  $ svc-cli chat
  $ svc-cli chat --channel-url https://svc.example/r4nd0m/ch-1 --sender-id c-1 --port 9000
  $ printf 'Hello\\n/agent Hi, how can I help?\\n' | svc-cli chat --json`,
  run: {
    path: 'chat-run',
    sources: () => import('./chat-run.js'),
    call: (m, ctx, { flags }) => m.runChat(ctx, flags),
  },
});
