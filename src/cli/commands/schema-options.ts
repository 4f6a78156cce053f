/** The option table of schema (table.ts). */
import { defineOptions, type OptionSpec } from '../options/table.js';

export const schemaOptions = defineOptions('schema', [
  {
    key: 'kind',
    flag: '-k, --kind <kind>',
    type: 'string',
    config: false,
    description: 'only this kind',
  },
  {
    key: 'out',
    flag: '-o, --out <dir>',
    type: 'path',
    config: false,
    description:
      'write one <kind>.schema.json per kind into this folder (with --kind, a path ending in .json is the file)',
  },
  {
    key: 'list',
    flag: '-l, --list',
    type: 'boolean',
    config: false,
    description: 'list the kinds: name, interface, spec section, description',
  },
  {
    key: 'format',
    flag: '-f, --format <format>',
    type: 'choice',
    choices: ['json-schema', 'openapi', 'asyncapi', 'markdown'],
    default: 'json-schema',
    config: false,
    description:
      'json-schema (one per kind), openapi (OpenAPI 3.1 of every HTTP endpoint), asyncapi (AsyncAPI 3.0 of the event flows) or markdown (the contract reference, docs/CONTRACT.md)',
  },
  {
    key: 'role',
    flag: '--role <role>',
    type: 'choice',
    choices: ['platform', 'integrator', 'bot-provider', 'hook-receiver'],
    config: false,
    description:
      "with --format openapi: only this party's side, as paths for a mock or a test tool",
  },
] as const satisfies readonly OptionSpec[]);
