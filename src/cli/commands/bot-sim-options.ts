/** The option table of bot-sim (table.ts). */
import {
  RECORD_OPTIONS,
  SERVING_OPTIONS,
  TLS_OPTIONS,
  QUIET_OPTION,
  RECORD_SYNC_OPTION,
  botEventsOption,
  faultOptions,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

export const botSimOptions = defineOptions('bot-sim', [
  ...SERVING_OPTIONS,
  ...TLS_OPTIONS,
  {
    key: 'token',
    flag: '--token <token>',
    type: 'string',
    default: 'dev-bot-token',
    env: 'SVC_BOT_TOKEN',
    secret: true,
    description: 'the token the platform posts to',
  },
  {
    key: 'providerId',
    flag: '--provider-id <id>',
    type: 'string',
    default: 'dev-provider',
    description: 'the provider id the platform knows',
  },
  {
    key: 'platformUrl',
    flag: '--platform-url <url>',
    type: 'url',
    env: 'SVC_PLATFORM_URL',
    description:
      "the platform's bot service base URL; bot-sim posts to <url>/webhooks/<provider_id>/<token>",
  },
  {
    key: 'script',
    flag: '--script <file>',
    type: 'path',
    description:
      'rules to follow (version 1, schemas/bot-script.schema.json); default: the built-in script',
  },
  {
    key: 'auth',
    flag: '--auth',
    type: 'boolean',
    description:
      'spec 5.3: serve POST /oauth/token, require Authorization, post to /providers/... with a token',
  },
  {
    key: 'clientId',
    flag: '--client-id <id>',
    type: 'string',
    default: 'dev-client',
    description: 'client_id for --auth',
  },
  {
    key: 'clientSecret',
    flag: '--client-secret <secret>',
    type: 'string',
    default: 'dev-secret',
    env: 'SVC_BOT_CLIENT_SECRET',
    secret: true,
    description: 'client secret for --auth',
  },
  botEventsOption(
    "docs: when a customer's message text holds an e-mail address or a phone number, also send the public Bot API's CLIENT_INFO (CHAT_CLOSED is answered 200 either way)",
  ),
  ...faultOptions('fail the first N attempts of each event (HTTP 500)'),
  ...RECORD_OPTIONS,
  RECORD_SYNC_OPTION,
  QUIET_OPTION,
  {
    key: 'silent',
    flag: '--silent',
    type: 'boolean',
    description: 'never answer (the platform times out: 2 x 3 s, then hands over to an agent)',
  },
] as const satisfies readonly OptionSpec[]);
