/** The option table of init (table.ts). */
import { PROJECT_URL_OPTIONS } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';
import { ROLE_NAMES } from '../options/roles.js';

export const initOptions = defineOptions(
  'init',
  [
    {
      key: 'role',
      flag: '--role <role>',
      type: 'choice',
      choices: ROLE_NAMES,
      default: 'integrator',
      config: false,
      description: 'the part you play',
    },
    ...PROJECT_URL_OPTIONS,
    {
      key: 'senderId',
      flag: '--sender-id <id>',
      type: 'string',
      config: false,
      description: 'the customer id to send as',
    },
    {
      key: 'yes',
      flag: '-y, --yes',
      type: 'boolean',
      config: false,
      description: 'ask nothing: use the flags and defaults (also without a TTY)',
    },
    {
      key: 'force',
      flag: '--force',
      type: 'boolean',
      config: false,
      description: 'overwrite an existing config file',
    },
  ] as const satisfies readonly OptionSpec[],
  // init writes the file: it reads neither that file nor SVC_* values into it
  { readsConfig: false },
);
