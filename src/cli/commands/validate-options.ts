/** The option table of validate (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

export const validateOptions = defineOptions('validate', [
  {
    key: 'kind',
    flag: '-k, --kind <kind>',
    type: 'string',
    config: false,
    description: 'validate as this kind instead of detecting it (see: schema --list)',
  },
  {
    key: 'strict',
    flag: '--strict',
    type: 'boolean',
    description:
      "warnings (unknown fields, the platform's type drift, null optional fields, text cut) count as errors",
  },
  {
    key: 'checkExpectations',
    flag: '--check-expectations',
    type: 'boolean',
    config: false,
    description:
      'compare each sample with its file name (.valid/.warning/.invalid) and <name>.expect.json; exit 0 when all match',
  },
] as const satisfies readonly OptionSpec[]);
