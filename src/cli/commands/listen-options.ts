/** The option table of listen (table.ts). */
import {
  RECORD_OPTIONS,
  SERVING_OPTIONS,
  TLS_OPTIONS,
  FAULT_PLAN_OPTION,
  QUIET_OPTION,
  RECORD_SYNC_OPTION,
  STRICT_OPTION,
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
