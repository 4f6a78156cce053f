import type { Command } from 'commander';
import { action, globalFlags } from '../action.js';
import type { CliContext } from '../context.js';
import { addFaultOptions, addQuietOption, addRecordOptions } from './serving-options.js';

/** `bot-sim`: a scripted bot provider (interface B, provider side). */
export function registerBotSim(program: Command, ctx: CliContext): void {
  const cmd = program
    .command('bot-sim')
    .description(
      'run a scripted bot provider: serves POST <any path>/<token> (spec 4.3: the provider URL is free), answers 200 at once, then posts BOT_MESSAGE / INVITE_AGENT to the platform',
    )
    .option('--port <n>', 'port; 0 lets the OS pick (default 0)')
    .option('--host <host>', 'interface to bind (default 127.0.0.1)')
    .option(
      '--token <token>',
      'the token the platform posts to (default "dev-bot-token", env SVC_BOT_TOKEN)',
    )
    .option('--provider-id <id>', 'the provider id the platform knows (default "dev-provider")')
    .option(
      '--platform-url <url>',
      "the platform's bot service base URL; bot-sim posts to <url>/webhooks/<provider_id>/<token>",
    )
    .option(
      '--script <file>',
      'rules to follow (version 1, schemas/bot-script.schema.json); default: the built-in script',
    )
    .option(
      '--auth',
      'spec 5.3: serve POST /oauth/token, require Authorization, post to /providers/... with a token',
    )
    .option('--client-id <id>', 'client_id for --auth (default "dev-client")')
    .option(
      '--client-secret <secret>',
      'client secret for --auth (default "dev-secret", env SVC_BOT_CLIENT_SECRET)',
    );
  addFaultOptions(cmd, {
    failFirst: 'fail the first N attempts of each event (HTTP 500)',
    planFile: false,
  });
  addQuietOption(addRecordOptions(cmd))
    .option(
      '--silent',
      'never answer (the platform times out: 2 x 3 s, then hands over to an agent)',
    )
    .addHelpText(
      'after',
      `
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
    )
    .action(
      action(ctx, async (_opts: unknown, cmd: Command) => {
        const { runBotSim } = await import('./bot-sim-run.js');
        await runBotSim(ctx, globalFlags(cmd) as Record<string, unknown>);
      }),
    );
}
