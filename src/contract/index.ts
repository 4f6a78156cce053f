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
import { botSchemas } from './bot.js';
import { MEDIA_TYPES, channelSchemas, type MediaType } from './channel.js';
import { hookSchemas } from './hooks.js';
import { KINDS } from './registry.js';
import { widgetSchemas } from './widget.js';
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

// The named zod schemas of `svc-cli/schemas`, to compose in other schemas. The CLI and the
// simulator build each schema on first use and do not import this entry; a library
// user importing it gets them all, built here, as before.
const channel = channelSchemas();
const mediaOf = <T>(build: (type: MediaType) => T) =>
  Object.fromEntries(MEDIA_TYPES.map((type) => [type, build(type)])) as Record<MediaType, T>;
export const customerTextSchema = channel.customerTextSchema();
export const customerTypingSchema = channel.customerTypingSchema();
export const agentTextSchema = channel.agentTextSchema();
export const agentTypingSchema = channel.agentTypingSchema();
export const customerMediaSchemas = mediaOf(channel.customerMedia);
export const agentMediaSchemas = mediaOf(channel.agentMedia);
export const integratorReplySchema = channel.integratorReplySchema();
export const channelStatusSchema = channel.channelStatusSchema();
export const { botMessageSchema, botEventSchemas, botErrorSchema } = botSchemas();
export const { hookEventSchemas, hookReplySchemas } = hookSchemas();
export const {
  customDataFieldSchema,
  widgetArgsSchemas,
  widgetResultSchemas,
  widgetCallbackSchemas,
} = widgetSchemas();

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
