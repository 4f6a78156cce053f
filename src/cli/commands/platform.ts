import { defineCommand } from './spec.js';
import { platformOptions } from './platform-options.js';

/** `platform`: the simulator of the platform, serving every interface the flags switch on. */
export const platformCommand = defineCommand({
  name: 'platform',
  description:
    'run the platform simulator: channel URL + status, agent messages to your integrator URL with the redelivery policy',
  options: platformOptions,
  helpAfter: `
The agent console reads stdin: a plain line answers the last active customer,
"@<customer> text" one customer; /help lists /typing, /media, /location, /offline, /close.
Tests and tools drive the agent side through the control API under /_sim/ (docs/platform.md).

Hooks: /assign [@customer] presses the crm_link button (chat_assigned); /call <phone>
[error <reason>] plays a callback call (call_event). The control API adds
POST /_sim/chats/:id/assign, /_sim/visitor/update, /_sim/visitor/offline-message, /_sim/calls,
/_sim/calls/timing.

Customer messages that break the contract (docs/FIDELITY.md): only a missing,
empty or mistyped required field (an empty sender.id, a media message without file) blocks
delivery: answered 400 (200 with --lenient) and not sent. An invalid optional field
(sender.photo " ") or a null one is left out; a value the platform can read (a numeric
sender.id) is kept; the message is delivered and the error shown with its path.

Public docs over the spec, one flag away (docs/FIDELITY.md): --bot-attempts 3 reads the Bot
API's "2 retries" (attempts at 0, 3, 6 s); --bot-events docs adds its CHAT_CLOSED (sent to
the bot when its chat closes) and CLIENT_INFO (the bot's contact data for the visitor, hook
chat_updated); --profile docs also reads the integrator's reply by its status class, as the
Chat API page does (any 2xx delivered, a reply that breaks spec 2.2 a warning; a 4xx not
resent). CLIENT_MESSAGE already carries the documented site_id, agents_online,
sender {url, has_contacts} and channel; hook events carry visitor.social and analytics.
Agent messages go as application/json; charset=utf-8, as the Chat API page asks.

Assumption (spec silent): each delivery attempt waits at most 3 s (derived from the 9 s figure).
Assumptions for hooks (spec 5.4, 6.2, 8 silent): 10 s reply timeout, no redelivery, no auth.

Memory stays bounded in long runs. A chat with no message either way for
--chat-idle-timeout of protocol time (default 30m, an assumption: the real platform closes
idle chats, the spec gives no figure) is closed, and the close fires chat_finished with
--hook-url; --chat-idle-timeout off keeps chats open. At most --max-chats chats (default
1000) stay in memory: the oldest closed chat leaves first (the least active open one is
closed when none is), with its customer; the journal keeps every exchange.

Bot (interface B): with --bot-provider-url and --bot-token, customer messages go to the
provider as CLIENT_MESSAGE at <url>/<token> (2 attempts, 3 s each, then hand-over to an
agent; only the status of its reply is read); the provider posts its answers (BOT_MESSAGE,
INVITE_AGENT) to {base}/webhooks/<provider_id>/<token> or {base}/providers/<provider_id>/<token>,
{base} being this simulator's URL (the banner's "bot webhook" line) and <token> the same one.
Assumptions (spec silent): the 5.3 token exchange is an OAuth2 client-credentials request,
POST <token_url> form-encoded grant_type=client_credentials&client_id=..&client_secret=..
answered {access_token, token_type, expires_in}; the simulator issues such tokens itself at
POST {base}/oauth/token for the providers path (same client id and secret). The 429 limit
defaults to 100 requests per second per token.

Faults: --fault, --fault-rate, --seed, --fail-first, --delay and --fault-plan act on the
platform's interfaces as they do on listen: customer messages (spec 4.1), status requests,
the bot API and the widget channel's events answer 503s, resets, hangs, slow bodies or
delays; the control API (/_sim/) and the web console never. A faulted request does not reach
the simulator (no chat opened, no message counted) but a delay or a slow body, which answer
normally; each is journaled with a note naming its fault. While it serves, PUT /_sim/faults
puts a plan in force (a --fault-plan file's fields), GET reads it and DELETE clears it: a test
suite switches faults between its tests without a restart.

Examples:
  $ svc-cli platform --integrator-url http://127.0.0.1:9000/agent-messages
  $ svc-cli platform --port 8800 --channel-id shop --random-string dev-only-secret-1234
  $ svc-cli --json --time-scale 0.01 platform --port 0 --integrator-url http://127.0.0.1:9000
  $ svc-cli platform --integrator-url http://127.0.0.1:9000 --bot-provider-url http://127.0.0.1:9100 --bot-token dev-bot-token
  $ svc-cli platform --hook-url http://127.0.0.1:9200/hooks --hook-timeout 5000
  $ svc-cli platform --web --port 8800   # then open http://127.0.0.1:8800/_sim/console/
  $ svc-cli platform --quiet --record load.ndjson   # under load: no line per message
  $ svc-cli platform --fault status:503 --fault-rate 0.3 --seed 7   # an outage, now and then
  $ svc-cli platform --fail-first 2   # each customer message is refused twice, then taken`,
  run: {
    path: 'platform-run',
    sources: () => import('./platform-run.js'),
    call: (m, ctx, { flags }) => m.runPlatform(ctx, flags),
  },
});
