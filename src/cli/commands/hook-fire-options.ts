/** The option table of hook-fire (table.ts). */
import { HOOK_URL_OPTION, PROFILE_OPTION, TIMEOUT_OPTION, WAIT_OPTION } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

export const hookFireOptions = defineOptions('hook-fire', [
  {
    key: 'url',
    flag: '--url <url>',
    type: 'url',
    asGiven: true,
    config: false,
    configInstead: 'set hookUrl',
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
    key: 'chatId',
    flag: '--chat-id <n>',
    type: 'int',
    min: 1,
    config: false,
    description:
      'the chat the events are about (their chat_id): the one an earlier run printed, to build one chat event by event; default a fresh chat each run (--all: one fresh chat for the lifecycle)',
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
  {
    ...PROFILE_OPTION,
    description:
      "the platform to play: spec, docs (the public Webhooks page's client_updated and client_attribute_updated can be fired too) or a profile file from record profile (events in its payload forms)",
  },
  {
    ...WAIT_OPTION,
    config: false,
    description:
      'wait up to this long for the receiver to accept connections: one started in the background just before (10s, 500ms); default: unreachable at once',
  },
  {
    ...TIMEOUT_OPTION,
    description: 'protocol time to wait for the reply: ms, or with a unit (10s) (an assumption)',
  },
] as const satisfies readonly OptionSpec[]);
