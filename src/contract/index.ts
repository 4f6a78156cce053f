/**
 * `svc-cli/schemas`: the spec as code. zod schemas of every payload, kinds by stable
 * dotted name, validation with issues as data, kind detection and JSON Schema export.
 *
 * @example
 * import { validate, formatIssue } from 'svc-cli/schemas';
 * const result = validate('channel.customer.text', body);
 * if (!result.ok) console.error(result.errors.map(formatIssue).join('\n'));
 */
import type { z } from 'zod';
import { KINDS } from './registry.js';
import { getKind } from './validate.js';
import type { KindInfo } from './types.js';

export * from './types.js';
export * from './channel.js';
export * from './bot.js';
export * from './hooks.js';
export * from './widget.js';
export { TEXT_LIMIT, MAX_BUTTONS, countCodePoints } from './rules.js';
export { formatIssue, formatPath } from './issues.js';
export { validate, validateAuto, getKind, MAX_DEPTH } from './validate.js';
export { detectKind } from './detect.js';
export { toJsonSchema } from './json-schema.js';

/**
 * Every kind with its interface, spec section, direction and description.
 * @example listKinds().filter((k) => k.interface === 'B')
 */
export function listKinds(): KindInfo[] {
  return [...KINDS.values()].map(({ name, interface: iface, spec, direction, description }) => ({
    name,
    interface: iface,
    spec,
    direction,
    description,
  }));
}

/** The zod schema of a kind, to compose in other schemas; throws SVC_E_UNKNOWN_KIND. */
export function getSchema(kind: string): z.ZodType {
  return getKind(kind).schema;
}
