/** The option table of doctor (table.ts). */
import { PROFILE_OPTION, PROJECT_URL_OPTIONS } from '../options/shared.js';
import { defineOptions, type OptionSpec } from '../options/table.js';

export const doctorOptions = defineOptions('doctor', [
  ...PROJECT_URL_OPTIONS,
  {
    ...PROFILE_OPTION,
    description: 'the platform profile to check and show (spec, docs or a profile file)',
  },
  {
    key: 'timeout',
    flag: '--timeout <time>',
    type: 'int',
    min: 1,
    default: 2000,
    unit: 'ms',
    duration: true,
    config: false,
    description: 'wait at most this long per URL: ms, or with a unit (2s)',
  },
] as const satisfies readonly OptionSpec[]);
