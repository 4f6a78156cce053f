/** The option table of mutate (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

export const mutateOptions = defineOptions('mutate', [
  {
    key: 'list',
    flag: '-l, --list',
    type: 'boolean',
    config: false,
    description:
      'list the mutants: name, family, spec section, what changes, what a survivor means',
  },
  {
    key: 'jobs',
    flag: '--jobs <n>',
    type: 'int',
    min: 1,
    max: 64,
    default: 1,
    description:
      'mutants run at once: raise it when your suite binds no fixed port and starts its own simulator',
  },
  {
    key: 'only',
    flag: '--only <names>',
    type: 'list',
    config: false,
    description: 'only these mutants: names, families or spec sections, comma-separated',
  },
  {
    key: 'skip',
    flag: '--skip <names>',
    type: 'list',
    config: false,
    description: 'leave these mutants out: names, families or spec sections, comma-separated',
  },
  {
    key: 'timeout',
    flag: '--timeout <time>',
    type: 'int',
    min: 1,
    unit: 'ms',
    duration: true,
    config: false,
    description:
      "stop a mutant's run after this long (ms, or with a unit: 90s, 2m), counted as timed out (default 3x the clean run + 5 s)",
  },
  {
    key: 'coverage',
    flag: '--coverage <recording>',
    type: 'list',
    config: false,
    description:
      "your suite's recording (as svc-cli coverage reads it): mutants it never exercises are reported as such, not run",
  },
  {
    key: 'minScore',
    flag: '--min-score <percent>',
    type: 'number',
    min: 0,
    max: 100,
    config: false,
    description: 'exit 1 when the mutation score is below this percentage',
  },
  {
    key: 'junit',
    flag: '--junit <file>',
    type: 'path',
    config: false,
    description:
      'also write JUnit XML: a test case per mutant (a survivor fails, one never exercised is skipped), the score as properties',
  },
  {
    key: 'report',
    flag: '--report <file>',
    type: 'path',
    config: false,
    description:
      "also write an HTML report: a card per mutant, survivors in red, then the --coverage recording's conversations (svc-cli report)",
  },
] as const satisfies readonly OptionSpec[]);
