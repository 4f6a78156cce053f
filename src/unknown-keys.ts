import { z } from 'zod';
import { closestNames } from './suggest.js';

/**
 * Unknown keys of a strict zod schema said the way a person fixes them: the JSON path of the
 * key and the known key closest to it, read from the schema itself (no second list to keep
 * in step).
 */

type Schema = z.core.$ZodType;

/** The schema under optional, default and nullable wrappers. */
function unwrap(schema: Schema): Schema {
  let s = schema;
  while (s instanceof z.ZodOptional || s instanceof z.ZodDefault || s instanceof z.ZodNullable)
    s = s.unwrap();
  return s;
}

const fieldOf = (value: unknown, key: PropertyKey): unknown =>
  value !== null && typeof value === 'object'
    ? (value as Record<PropertyKey, unknown>)[key]
    : undefined;

/** The object branches of a union the value can be (its literal fields agree), else all. */
function branchesFor(options: readonly Schema[], value: unknown): z.ZodObject[] {
  const objects = options.map(unwrap).filter((o): o is z.ZodObject => o instanceof z.ZodObject);
  const fitting = objects.filter((o) =>
    Object.entries(o.shape).every(([key, field]) => {
      const inner = unwrap(field as Schema);
      return !(inner instanceof z.ZodLiteral) || inner.values.has(fieldOf(value, key) as never);
    }),
  );
  return fitting.length > 0 ? fitting : objects;
}

/** The object schemas found at `path` of `value` (one, or a union's possible branches). */
function objectsAt(schema: Schema, path: readonly PropertyKey[], value: unknown): z.ZodObject[] {
  const s = unwrap(schema);
  if (s instanceof z.ZodUnion)
    return branchesFor(s.options as readonly Schema[], value).flatMap((o) =>
      objectsAt(o, path, value),
    );
  const [head, ...rest] = path;
  if (head === undefined) return s instanceof z.ZodObject ? [s] : [];
  if (s instanceof z.ZodArray) return objectsAt(s.element, rest, fieldOf(value, head));
  if (s instanceof z.ZodObject && typeof head === 'string') {
    const field = (s.shape as Record<string, Schema | undefined>)[head];
    return field ? objectsAt(field, rest, fieldOf(value, head)) : [];
  }
  return [];
}

/**
 * The keys the schema takes at `path` of `value`.
 * @example knownKeysAt(z.object({ rules: z.array(z.object({ match: z.string() })) }), ['rules', 0], json) // ['match']
 */
export function knownKeysAt(
  schema: Schema,
  path: readonly PropertyKey[],
  value: unknown,
): string[] {
  const keys = new Set(objectsAt(schema, path, value).flatMap((o) => Object.keys(o.shape)));
  return [...keys];
}

/**
 * One line per unknown key in `issues`, the shallowest first: its JSON path, and the known
 * key closest to it (or the keys known there when none is close).
 * @example unknownKeyLines(schema, issues, json) // ['rules.0.mach: unknown key (did you mean "match"?)']
 */
export function unknownKeyLines(
  schema: Schema,
  issues: readonly z.core.$ZodIssue[],
  value: unknown,
): string[] {
  const unknown = issues.filter((i) => i.code === 'unrecognized_keys');
  return unknown
    .sort((a, b) => a.path.length - b.path.length)
    .flatMap((issue) => {
      const known = knownKeysAt(schema, issue.path, value);
      return issue.keys.map((key) => {
        const where = [...issue.path, key].map(String).join('.');
        const [near] = closestNames(key, known, { maxDistance: 3 });
        const hint = near
          ? `did you mean "${near}"?`
          : `known keys: ${known.map((k) => `"${k}"`).join(', ')}`;
        return `${where}: unknown key (${hint})`;
      });
    });
}
