/** The option tables of the serving roles: listen, hook-target, bot-sim (table.ts). */
import {
  FAULT_PLAN_OPTION,
  QUIET_OPTION,
  RECORD_OPTIONS,
  RECORD_SYNC_OPTION,
  SERVING_OPTIONS,
  STRICT_OPTION,
  TLS_OPTIONS,
  botEventsOption,
  faultOptions,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

export const listenOptions = defineOptions('listen', [
  ...SERVING_OPTIONS,
  ...TLS_OPTIONS,
  {
    key: 'channel',
    flag: '--channel <public_id>',
    type: 'string',
    env: 'SVC_CHANNEL',
    description: 'serve only this channel public id (others get 404)',
  },
  ...faultOptions('fail the first N attempts of each message (by message.id, else body hash)'),
  FAULT_PLAN_OPTION,
  ...RECORD_OPTIONS,
  RECORD_SYNC_OPTION,
  QUIET_OPTION,
  STRICT_OPTION,
] as const satisfies readonly OptionSpec[]);

export const hookTargetOptions = defineOptions('hook-target', [
  ...SERVING_OPTIONS,
  ...TLS_OPTIONS,
  {
    key: 'path',
    flag: '--path <path>',
    type: 'string',
    description: 'serve only this path (default: POST on any path)',
  },
  {
    key: 'reply',
    flag: '--reply <event=file>',
    type: 'list',
    description:
      'reply to <event> with the JSON in <file>, e.g. chat_accepted=fixtures/hooks/crm-reply.json',
  },
  ...faultOptions('fail the first N attempts of each event (by body hash)'),
  FAULT_PLAN_OPTION,
  ...RECORD_OPTIONS,
  RECORD_SYNC_OPTION,
  QUIET_OPTION,
] as const satisfies readonly OptionSpec[]);

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
