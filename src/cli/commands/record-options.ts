/** The option tables of record to-fixture, record diff and record profile (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

export const toFixtureOptions = defineOptions('record to-fixture', [
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the conversation here (default: stdout)',
  },
  {
    key: 'name',
    flag: '--name <name>',
    type: 'string',
    config: false,
    description: 'the conversation name (default: from the file name)',
  },
  {
    key: 'run',
    flag: '--run <id>',
    type: 'string',
    config: false,
    description:
      'convert only this run of the recording (its id or a prefix of it; default: every run, in the order they ran)',
  },
  {
    key: 'peerFailures',
    flag: '--peer-failures <keep|drop>',
    type: 'choice',
    choices: ['keep', 'drop'],
    default: 'keep',
    config: false,
    description:
      "the integrator's refused attempts and the hook receiver's failed replies: keep expects them again, drop writes the conversation for a peer that accepts at once",
  },
] as const satisfies readonly OptionSpec[]);

export const recordDiffOptions = defineOptions('record diff', [
  {
    key: 'timingTolerance',
    flag: '--timing-tolerance <duration>',
    type: 'string',
    duration: 'ms',
    default: '250ms',
    description: 'timing figures closer than this are the same (ms, s)',
  },
] as const satisfies readonly OptionSpec[]);

export const recordProfileOptions = defineOptions('record profile', [
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the profile here (default: stdout)',
  },
  {
    key: 'name',
    flag: '--name <name>',
    type: 'string',
    config: false,
    description: 'the profile name (default: from the first recording)',
  },
] as const satisfies readonly OptionSpec[]);
