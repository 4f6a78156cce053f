/**
 * The JSON Schema of `svc.config.json`, built from the option tables: one property
 * per config key at the top level, and under `commands.<name>` each command's own keys.
 * `npm run build` writes it to schemas/svc.config.schema.json; a test keeps that file current.
 */
import { DURATION_PATTERN } from '../../duration.js';
import { CONFIG_VERSION, ROLES } from '../config-file.js';
import { ALL_TABLES } from './all.js';
import { configKeySpecs } from './resolve.js';
import { GLOBAL_OPTIONS, type OptionSpec } from './table.js';

type JsonSchema = Record<string, unknown>;

/** One option as a JSON Schema property. */
export function optionJsonSchema(spec: OptionSpec): JsonSchema {
  const env = spec.env ? ` (env ${spec.env})` : '';
  const base: JsonSchema = { description: `${spec.description}${env}; flag ${spec.flag}` };
  switch (spec.type) {
    case 'string':
      if (spec.duration !== undefined) {
        // a duration with its unit ("30m"), or "off" where the option takes it
        const pattern = spec.off
          ? `(${DURATION_PATTERN})|^\\s*([oO][fF][fF]|[nN][eE][vV][eE][rR])\\s*$`
          : DURATION_PATTERN;
        return { type: 'string', pattern, ...base, ...withDefault(spec) };
      }
      return { type: 'string', ...base, ...withDefault(spec) };
    case 'path':
    case 'host':
      return { type: 'string', ...base, ...withDefault(spec) };
    case 'url':
      return { type: 'string', format: 'uri', pattern: '^[hH][tT][tT][pP][sS]?://', ...base };
    case 'int':
    case 'number': {
      const bounds: JsonSchema = {};
      if (spec.min !== undefined) {
        bounds[spec.type === 'number' && spec.exclusiveMin ? 'exclusiveMinimum' : 'minimum'] =
          spec.min;
      }
      if (spec.max !== undefined) bounds.maximum = spec.max;
      if (spec.type === 'int' && spec.duration) {
        // ms as a number, or a duration with its unit ("10s"), as the flag takes it
        const ms = { type: 'integer', ...bounds };
        return {
          anyOf: [ms, { type: 'string', pattern: DURATION_PATTERN }],
          ...base,
          ...withDefault(spec),
        };
      }
      return {
        type: spec.type === 'int' ? 'integer' : 'number',
        ...bounds,
        ...base,
        ...withDefault(spec),
      };
    }
    case 'boolean':
      return { type: 'boolean', ...base, ...withDefault(spec) };
    case 'choice':
      return { type: 'string', enum: [...spec.choices], ...base, ...withDefault(spec) };
    case 'list':
      return { type: 'array', items: { type: 'string' }, ...base };
    case 'fault':
      return { type: 'string', ...base };
    default: {
      const never: never = spec;
      throw new Error(`unknown option type ${JSON.stringify(never)}`);
    }
  }
}

const withDefault = (spec: OptionSpec): JsonSchema =>
  'default' in spec && spec.default !== undefined ? { default: spec.default } : {};

const configurable = (specs: readonly OptionSpec[]): OptionSpec[] =>
  specs.filter((s) => s.config !== false);

/**
 * The whole schema, as committed in schemas/svc.config.schema.json.
 * @example writeFileSync('schemas/svc.config.schema.json', JSON.stringify(createConfigJsonSchema()))
 */
export function createConfigJsonSchema(): JsonSchema {
  const globals: readonly OptionSpec[] = GLOBAL_OPTIONS;
  const top = Object.fromEntries(
    [...configurable(globals), ...configKeySpecs()].map((s) => [s.key, optionJsonSchema(s)]),
  );
  const commands = Object.fromEntries(
    ALL_TABLES.map((table) => [
      table.command,
      {
        type: 'object',
        description: `options for ${table.command} only; they override the top level`,
        properties: Object.fromEntries(
          configurable([...globals, ...table.options]).map((s) => [s.key, optionJsonSchema(s)]),
        ),
        additionalProperties: false,
      },
    ]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://svc-cli.invalid/schemas/svc.config.schema.json',
    title: 'svc-cli config file (svc.config.json)',
    description:
      'Read by every svc-cli command. Precedence: this file < SVC_* environment < flags.',
    type: 'object',
    properties: {
      $schema: { type: 'string', description: 'JSON Schema of this file' },
      version: { const: CONFIG_VERSION, description: 'format version; 1' },
      role: { type: 'string', enum: [...ROLES], description: 'the part you play (svc-cli init)' },
      ...top,
      commands: {
        type: 'object',
        description: 'per-command overrides: {"listen": {"port": 9000}}',
        properties: commands,
        additionalProperties: false,
      },
    },
    required: ['version'],
    additionalProperties: true,
  };
}
