/** The option table of `svc-cli report` (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';
import { INVARIANT_LIST } from './replay-options.js';

export const reportOptions = defineOptions('report', [
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    default: 'report.html',
    description: 'the HTML file to write',
  },
  {
    key: 'chat',
    flag: '--chat <id>',
    type: 'int',
    min: 0,
    config: false,
    description: 'only this chat (of every run in the recording)',
  },
  {
    key: 'invariant',
    flag: '--no-invariant <name>',
    type: 'list',
    config: false,
    description: `do not check this invariant (${INVARIANT_LIST})`,
  },
] as const satisfies readonly OptionSpec[]);
