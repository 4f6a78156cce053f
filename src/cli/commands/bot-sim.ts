import { defineCommand } from './spec.js';
import { botSimOptions } from './bot-sim-options.js';

/** `bot-sim`: a scripted bot provider (interface B, provider side). */
export const botSimCommand = defineCommand({
  name: 'bot-sim',
  description:
    'run a scripted bot provider: serves POST <any path>/<token> (spec 4.3: the provider URL is free), answers 200 at once, then posts BOT_MESSAGE / INVITE_AGENT to the platform',
  options: botSimOptions,
  helpAfter: `
Default script: text is echoed as TEXT; "menu" gets BUTTONS (3 buttons); a button click
(button_id) gets MARKDOWN with a text fallback; "agent" or "operator" gets INVITE_AGENT;
after AGENT_UNAVAILABLE it asks the customer for contact data (spec 3).
A malformed or unknown event is answered 400 {"error":{"code":"invalid_request",...}}.

Assumption (spec 5.3 shows no shape): --auth uses OAuth2 client credentials,
POST /oauth/token form-encoded grant_type=client_credentials&client_id=..&client_secret=..
-> {access_token, token_type:"Bearer", expires_in}; bot-sim gets its own token from
<platform-url>/oauth/token the same way.

Examples:
  $ svc-cli bot-sim --port 9100 --platform-url http://127.0.0.1:8800
  $ svc-cli bot-sim --port 0 --json --silent
  $ svc-cli bot-sim --script fixtures/bots/shop.json --platform-url http://127.0.0.1:8800`,
  run: {
    path: 'bot-sim-run',
    sources: () => import('./bot-sim-run.js'),
    call: (m, ctx, { flags }) => m.runBotSim(ctx, flags),
  },
});
