/** The option table of `svc-cli trace` (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';
import { CHAT_OPTION, NO_INVARIANT_OPTION } from '../options/shared.js';

export const traceOptions = defineOptions('trace', [
  CHAT_OPTION,
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
  NO_INVARIANT_OPTION,
  {
    key: 'out',
    flag: '-o, --out <file>',
    type: 'path',
    config: false,
    description: 'write the output to a file instead of stdout',
  },
] as const satisfies readonly OptionSpec[]);
