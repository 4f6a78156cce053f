/**
 * JSON Schema (draft 2020-12) of each kind, generated from the zod schemas with
 * `z.toJSONSchema`, so editors and other languages check payloads the same way.
 *
 * What JSON Schema cannot say, and stays zod-only (all of them warnings or guards):
 * - `text_cut`: message.text over 1000 code points (JSON Schema counts differently and a
 *   warning is no verdict anyway);
 * - `type_drift`: an id sent as a number or a number as a numeric string is accepted by
 *   both when the platform writes the kind, and only zod warns; when the party under test
 *   writes it, both refuse it (the drift branches become `{ "not": {} }`);
 * - `unknown_field`: fields the spec does not list are accepted by both (no
 *   `additionalProperties: false`), only zod warns;
 * - `too_deep`: nesting past MAX_DEPTH.
 * A `__proto__` key is refused by both (`propertyNames` on every object).
 */
import { z } from 'zod';
import { describeField } from './field-docs.js';
import { DRIFT_BRANCHES } from './rules.js';
import { getKind } from './validate.js';

type Json = Record<string, unknown>;

const cache = new Map<string, Json>();
const driftCache = new Map<string, Json>();

/** Writes each field's line of `field-docs.ts` as its `description` (through unions and arrays). */
function describeFields(kind: string, json: Json, path: string): void {
  for (const branch of [...asList(json.anyOf), ...asList(json.oneOf)])
    describeFields(kind, branch, path);
  if (isJson(json.items)) describeFields(kind, json.items, `${path}[]`);
  if (!isJson(json.properties)) return;
  for (const [name, child] of Object.entries(json.properties)) {
    if (!isJson(child)) continue;
    const childPath = path === '' ? name : `${path}.${name}`;
    const line = describeField(kind, childPath);
    if (line !== undefined && child.description === undefined) child.description = line;
    describeFields(kind, child, childPath);
  }
}

const isJson = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const asList = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isJson) : []);

/**
 * `refuseDrift`: the drift branches become `{ "not": {} }` whoever produces the kind (the
 * party's view); docs/CONTRACT.md reads the spec's own types from it.
 */
function generate(kind: string, refuseDrift = false): Json {
  const entry = getKind(kind);
  const schema = z.toJSONSchema(entry.schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const json = ctx.jsonSchema as Record<string, unknown>;
      if ((refuseDrift || entry.producer === 'party') && DRIFT_BRANCHES.has(ctx.zodSchema)) {
        for (const key of Object.keys(json)) delete json[key];
        json.not = {};
        return;
      }
      // Unknown fields are accepted (a warning in zod), so the JSON Schema must accept them.
      if (json.additionalProperties === false) delete json.additionalProperties;
      if (json.type === 'object') json.propertyNames = { not: { const: '__proto__' } };
    },
  }) as Json;
  describeFields(kind, schema, '');
  return {
    $schema: schema.$schema,
    $id: `https://svc-cli.invalid/schemas/${kind}.schema.json`,
    title: kind,
    description: `${entry.description} (spec ${entry.spec}, interface ${entry.interface}, ${entry.direction})`,
    ...schema,
  };
}

/**
 * The JSON Schema of a kind (a fresh copy each call).
 * @example JSON.stringify(toJsonSchema('channel.customer.text'))
 */
export function toJsonSchema(kind: string): Record<string, unknown> {
  let schema = cache.get(kind);
  if (!schema) {
    schema = generate(kind);
    cache.set(kind, schema);
  }
  return structuredClone(schema);
}

/**
 * The JSON Schema of a kind with every tolerated drift branch written `{ "not": {} }`, whoever
 * produces it: the spec's own types, with the places drift is possible marked.
 * @example toDriftMarkedSchema('hook.chat_finished')
 */
export function toDriftMarkedSchema(kind: string): Record<string, unknown> {
  let schema = driftCache.get(kind);
  if (!schema) {
    schema = generate(kind, true);
    driftCache.set(kind, schema);
  }
  return structuredClone(schema);
}
