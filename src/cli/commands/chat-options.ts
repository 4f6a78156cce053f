/** The option table of chat (table.ts). */
import { ALLOWED_HOST_OPTION, SERVING_OPTIONS, TIMEOUT_OPTION } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

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
  {
    key: 'platformPort',
    flag: '--platform-port <port>',
    type: 'int',
    min: 0,
    max: 65_535,
    description:
      'port of the embedded simulator (its channel URL and control API), when no --channel-url; default any free port',
  },
  SERVING_OPTIONS[1],
  ALLOWED_HOST_OPTION,
  {
    ...TIMEOUT_OPTION,
    description: 'wait at most this long for each reply: ms, or with a unit (10s)',
  },
] as const satisfies readonly OptionSpec[]);
