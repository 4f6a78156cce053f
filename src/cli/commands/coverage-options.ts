/** The option table of coverage (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

export const coverageOptions = defineOptions('coverage', [
  {
    key: 'min',
    flag: '--min <percent>',
    type: 'number',
    min: 0,
    max: 100,
    config: false,
    description: 'exit 1 when the overall coverage is below this percentage',
  },
  {
    key: 'junit',
    flag: '--junit <file>',
    type: 'path',
    config: false,
    description: 'also write the figures as JUnit properties (one test case: the --min gate)',
  },
  {
    key: 'interface',
    flag: '--interface <list>',
    type: 'list',
    config: false,
    description:
      'only these interfaces, in the table, the overall figure and --min: A or channel, B or bot, C or widget, D or hooks (comma-separated or repeated)',
  },
  {
    key: 'uncovered',
    flag: '--uncovered',
    type: 'boolean',
    config: false,
    description: 'list every item the run did not exercise, under its interface',
  },
] as const satisfies readonly OptionSpec[]);
