/** The option table of hook-target (table.ts). */
import {
  RECORD_OPTIONS,
  SERVING_OPTIONS,
  TLS_OPTIONS,
  FAULT_PLAN_OPTION,
  QUIET_OPTION,
  RECORD_SYNC_OPTION,
  faultOptions,
} from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

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
