/** The option table of `svc-cli trace` (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';
import { INVARIANT_LIST } from './replay-options.js';

export const traceOptions = defineOptions('trace', [
  {
    key: 'chat',
    flag: '--chat <id>',
    type: 'int',
    min: 0,
    config: false,
    description: 'only this chat (of every run in the recording)',
  },
  {
    key: 'format',
    flag: '--format <format>',
    type: 'choice',
    choices: ['text', 'json', 'otlp-json'],
    default: 'text',
    config: false,
    description:
      'text (a timeline per conversation), json (NDJSON: one span per line; also --json) or otlp-json (an OpenTelemetry OTLP/JSON document)',
  },
  {
    key: 'invariant',
    flag: '--no-invariant <name>',
    type: 'list',
    config: false,
    description: `do not check this invariant (${INVARIANT_LIST})`,
  },
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the output to a file instead of stdout',
  },
] as const satisfies readonly OptionSpec[]);
