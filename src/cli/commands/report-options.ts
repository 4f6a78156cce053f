/** The option table of `svc-cli report` (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';
import { CHAT_OPTION, NO_INVARIANT_OPTION } from '../options/shared.js';

export const reportOptions = defineOptions('report', [
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    default: 'report.html',
    description: 'the HTML file to write',
  },
  CHAT_OPTION,
  NO_INVARIANT_OPTION,
] as const satisfies readonly OptionSpec[]);
