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
import { DRIFT_BRANCHES } from './rules.js';
import { getKind } from './validate.js';

const cache = new Map<string, Record<string, unknown>>();

function generate(kind: string): Record<string, unknown> {
  const entry = getKind(kind);
  const schema = z.toJSONSchema(entry.schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: (ctx) => {
      const json = ctx.jsonSchema as Record<string, unknown>;
      if (entry.producer === 'party' && DRIFT_BRANCHES.has(ctx.zodSchema)) {
        for (const key of Object.keys(json)) delete json[key];
        json.not = {};
        return;
      }
      // Unknown fields are accepted (a warning in zod), so the JSON Schema must accept them.
      if (json.additionalProperties === false) delete json.additionalProperties;
      if (json.type === 'object') json.propertyNames = { not: { const: '__proto__' } };
    },
  }) as Record<string, unknown>;
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
