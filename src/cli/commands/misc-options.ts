/** The option tables of hook-fire, chat and widget (table.ts). */
import {
  ALLOWED_HOST_OPTION,
  CONTROL_ACCESS_OPTIONS,
  PROFILE_OPTION,
  RECORD_OPTIONS,
  SERVING_OPTIONS,
  TIMEOUT_OPTION,
  TLS_OPTIONS,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';
import { AGENTS_OPTION } from './platform-options.js';

/** `--hook-url`: the hook receiver (spec 4.4); `--url` is its short form where a command has it. */
export const HOOK_URL_OPTION = {
  key: 'hookUrl',
  flag: '--hook-url <url>',
  type: 'url',
  env: 'SVC_HOOK_URL',
  description: 'the hook receiver URL (spec 4.4, 6.2)',
} as const satisfies OptionSpec;

export const hookFireOptions = defineOptions('hook-fire', [
  {
    key: 'url',
    flag: '--url <url>',
    type: 'url',
    config: false,
    description: 'the hook receiver URL (same as --hook-url)',
  },
  HOOK_URL_OPTION,
  {
    key: 'set',
    flag: '--set <path=value>',
    type: 'list',
    config: false,
    description: 'override a field by dotted path; the value is JSON when it parses',
  },
  {
    key: 'from',
    flag: '--from <file>',
    type: 'path',
    config: false,
    description: 'send the JSON body in <file> (the event comes from its event_name)',
  },
  {
    key: 'all',
    flag: '--all',
    type: 'boolean',
    config: false,
    description: 'fire every event in lifecycle order, as one chat',
  },
  {
    key: 'verbose',
    flag: '--verbose',
    type: 'boolean',
    description: 'print each request and reply body (default: only bodies that break the contract)',
  },
  {
    key: 'offlineName',
    flag: '--offline-name <name>',
    type: 'choice',
    choices: ['offline_message', 'offline_messages'],
    description:
      'send offline_message under this name (the spec 6.2 field table says offline_messages)',
  },
  { ...TIMEOUT_OPTION, description: 'protocol ms to wait for the reply (an assumption)' },
] as const satisfies readonly OptionSpec[]);

export const chatOptions = defineOptions('chat', [
  {
    key: 'channelUrl',
    flag: '--channel-url <url>',
    type: 'url',
    env: 'SVC_CHANNEL_URL',
    description: 'the channel URL; none: an embedded simulator',
  },
  {
    key: 'senderId',
    flag: '--sender-id <id>',
    type: 'string',
    default: 'customer-1',
    env: 'SVC_SENDER_ID',
    description: 'the customer id',
  },
  {
    key: 'name',
    flag: '--name <name>',
    type: 'string',
    description: 'customer name shown to the agent (/name changes it)',
  },
  { key: 'phone', flag: '--phone <phone>', type: 'string', description: 'customer phone' },
  { key: 'email', flag: '--email <email>', type: 'string', description: 'customer e-mail' },
  {
    ...SERVING_OPTIONS[0],
    description: 'port of the embedded agent-message endpoint (0 = any free port)',
  },
  SERVING_OPTIONS[1],
  ALLOWED_HOST_OPTION,
  { ...TIMEOUT_OPTION, description: 'wait at most this long for each reply' },
] as const satisfies readonly OptionSpec[]);

export const widgetOptions = defineOptions('widget', [
  { ...SERVING_OPTIONS[0], description: 'port of the demo page (0 = any free port)' },
  { ...SERVING_OPTIONS[1], description: 'address to bind both servers' },
  ALLOWED_HOST_OPTION,
  ...CONTROL_ACCESS_OPTIONS,
  ...TLS_OPTIONS,
  {
    key: 'platformUrl',
    flag: '--platform-url <url>',
    type: 'url',
    env: 'SVC_PLATFORM_URL',
    description: 'use a running simulator (svc-cli platform --web) instead of starting one',
  },
  {
    ...PROFILE_OPTION,
    description:
      "what the simulator and the page's double follow beyond the spec: spec, docs (the page's double then has setClientAttributes and the JS API limits) or a profile file",
  },
  {
    key: 'platformWait',
    flag: '--platform-wait <seconds>',
    type: 'int',
    min: 0,
    max: 600,
    default: 10,
    unit: 's',
    description:
      'how long to wait for --platform-url to listen (a simulator started in the same line); 0: not at all',
  },
  {
    key: 'platformPort',
    flag: '--platform-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    default: 0,
    description: 'port of the simulator started here (0 = any)',
  },
  { ...AGENTS_OPTION, description: 'agents online or offline at start (chatMode())' },
  { ...HOOK_URL_OPTION, description: 'the started simulator sends event hooks here (spec 6.2)' },
  RECORD_OPTIONS[0],
] as const satisfies readonly OptionSpec[]);
