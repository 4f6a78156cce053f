import type { Command } from 'commander';
import { Option } from 'commander';
import type { CliContext } from '../context.js';
import { action, givenFlags, globalFlags } from '../action.js';
import { addQuietOption } from './serving-options.js';

interface PlatformFlags {
  port: string;
  host?: string;
  integratorUrl?: string;
  hookUrl?: string;
  hookTimeout?: string;
  hookAttempts?: string;
  chunked?: boolean;
  agents: 'online' | 'offline';
  channelId?: string;
  channelName?: string;
  randomString?: string;
  lenient?: boolean;
  record?: string;
  bodyLimit?: string;
  console: boolean;
  quiet?: boolean;
  botProviderUrl?: string;
  botToken?: string;
  providerId?: string;
  botAuthUrl?: string;
  botClientId?: string;
  botClientSecret?: string;
  botRateLimit?: string;
  botName?: string;
  web?: boolean;
}

export function registerPlatform(program: Command, ctx: CliContext): void {
  const cmd = program.command('platform');
  addQuietOption(cmd);
  cmd
    .description(
      'run the platform simulator: channel URL + status, agent messages to your integrator URL with the redelivery policy',
    )
    .option('-p, --port <port>', 'port to listen on (0 = any free port)', '0')
    .option(
      '--host <host>',
      'address to bind (default 127.0.0.1; others are reachable from the network)',
    )
    .addOption(
      new Option(
        '--integrator-url <url>',
        'where agent messages go: POST <url>/<channel_public_id> (spec 4.2)',
      ).env('SVC_INTEGRATOR_URL'),
    )
    .addOption(
      new Option(
        '--hook-url <url>',
        'send event hooks (chat_accepted, chat_finished, ...) to this URL (spec 4.4, 6.2)',
      ).env('SVC_HOOK_URL'),
    )
    .option(
      '--hook-timeout <ms>',
      'protocol ms each hook waits for its reply (default 10000: an assumption, the spec is silent)',
    )
    .option(
      '--hook-attempts <n>',
      'attempts per hook event, 3 s apart (default 1: no redelivery, an assumption)',
    )
    .option(
      '--chunked',
      "send agent messages with Transfer-Encoding: chunked (the channel's chunked switch)",
    )
    .addOption(
      new Option('--agents <state>', 'agents online (status 1) or offline (status 0)')
        .choices(['online', 'offline'])
        .default('online'),
    )
    .option('--channel-id <id>', 'the channel public id (default: random)')
    .option('--channel-name <name>', 'the channel name')
    .option(
      '--random-string <s>',
      'fix the URL random string (default: 128 random bits) for a stable channel URL',
    )
    .option('--lenient', 'answer contract violations 200 (still not delivered) instead of 400')
    .option('--record <file>', 'append every exchange to this file (NDJSON; .har writes HAR 1.2)')
    .option(
      '--body-limit <bytes>',
      'largest request body accepted (413 beyond)',
      String(1024 * 1024),
    )
    .option('--no-console', 'do not read agent messages from stdin')
    .addOption(
      new Option(
        '--bot-provider-url <url>',
        'attach a bot (spec 4.3): customer messages go first to POST <url>/<token>',
      ).env('SVC_BOT_PROVIDER_URL'),
    )
    .addOption(
      new Option('--bot-token <token>', 'the token the bot provider generated (spec 5.2)').env(
        'SVC_BOT_TOKEN',
      ),
    )
    .option('--provider-id <id>', 'the provider id of the bot (spec 1.4; default "dev-provider")')
    .option(
      '--bot-auth-url <url>',
      "spec 5.3: the provider's token endpoint; each request then carries Authorization: Bearer",
    )
    .option('--bot-client-id <id>', 'spec 5.3: client_id for the token exchange (both ways)')
    .addOption(
      new Option('--bot-client-secret <secret>', 'spec 5.3: the secret for the token exchange').env(
        'SVC_BOT_CLIENT_SECRET',
      ),
    )
    .option(
      '--bot-rate-limit <n/window>',
      'requests per token before 429, e.g. 20/1s (default 100/1s)',
    )
    .option('--bot-name <name>', 'the sender name customers see on bot messages (default "Bot")')
    .option(
      '--web',
      'serve the agent web console at <url>/_sim/console/: live chats, replies, delivery timelines, journal',
    )
    .addHelpText(
      'after',
      `
The agent console reads stdin: a plain line answers the last active customer,
"@<customer> text" one customer; /help lists /typing, /media, /location, /offline, /close.
Tests and tools drive the agent side through the control API under /_sim/ (README).

Hooks: /assign [@customer] presses the crm_link button (chat_assigned); /call <phone>
[error <reason>] plays a callback call (call_event). The control API adds
POST /_sim/chats/:id/assign, /_sim/visitor/update, /_sim/visitor/offline-message, /_sim/calls.

Assumption (spec silent): each delivery attempt waits at most 3 s (derived from the 9 s figure).
Assumptions for hooks (spec 5.4, 6.2, 8 silent): 10 s reply timeout, no redelivery, no auth.

Bot (interface B): with --bot-provider-url and --bot-token, customer messages go to the
provider as CLIENT_MESSAGE (2 attempts, 3 s each, then hand-over to an agent); the provider
answers on {base}/webhooks/<provider_id>/<token> or {base}/providers/<provider_id>/<token>.
Assumptions (spec silent): the 5.3 token exchange is an OAuth2 client-credentials request,
POST <token_url> form-encoded grant_type=client_credentials&client_id=..&client_secret=..
answered {access_token, token_type, expires_in}; the simulator issues such tokens itself at
POST {base}/oauth/token for the providers path (same client id and secret). The 429 limit
defaults to 100 requests per second per token.

Examples:
  $ svc-cli platform --integrator-url http://127.0.0.1:9000/agent-messages
  $ svc-cli platform --port 8800 --channel-id shop --random-string dev-only-secret-1234
  $ svc-cli --json --time-scale 0.01 platform --port 0 --integrator-url http://127.0.0.1:9000
  $ svc-cli platform --integrator-url http://127.0.0.1:9000 --bot-provider-url http://127.0.0.1:9100 --bot-token dev-bot-token
  $ svc-cli platform --hook-url http://127.0.0.1:9100/hooks --hook-timeout 5000
  $ svc-cli platform --web --port 8800   # then open http://127.0.0.1:8800/_sim/console/
  $ svc-cli platform --quiet --record load.ndjson   # under load: no line per message`,
    )
    .action(
      action(ctx, async (flags: PlatformFlags, cmd: Command) => {
        const [{ runPlatform }, { applyConfigValues }] = await Promise.all([
          import('./platform-run.js'),
          import('../options.js'),
        ]);
        // config file < SVC_* env < flags, like every command (src/cli/options.ts)
        const sources = { given: givenFlags(cmd), env: ctx.env, cwd: ctx.cwd };
        return runPlatform(
          ctx,
          applyConfigValues(flags, { ...sources, command: 'platform' }),
          applyConfigValues(globalFlags(cmd), { ...sources, keys: ['timeScale'] }),
        );
      }),
    );
}

export type { PlatformFlags };
