/**
 * The schema components shared by the OpenAPI and AsyncAPI documents: every payload kind's
 * JSON Schema (generated from zod, see ../json-schema.ts) under its kind name, plus the few
 * bodies that are no payload kind (error body, the assumed 5.3 token exchange), also from zod.
 */
import { z } from 'zod';
import { toJsonSchema } from '../json-schema.js';
import { KINDS } from '../registry.js';

type Json = Record<string, unknown>;

/** spec 4.1, 7.2: the error body the platform answers with (codes beyond 7.2's list occur). */
export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
    }),
  })
  .describe(
    'Error body {error:{code,message}} (spec 7.2: "recommended in the body"). Codes of spec 7.2: ' +
      'invalid_client, unauthorized_client, invalid_request; the simulator also answers ' +
      'not_found, method_not_allowed, access_denied, rate_limited and others.',
  );

/** spec 5.3 (assumed shape: OAuth2 client credentials; the spec shows none). */
export const tokenRequestSchema = z
  .object({
    grant_type: z.literal('client_credentials'),
    client_id: z.string().min(1),
    client_secret: z.string().min(1),
  })
  .describe('spec 5.3 token exchange request (assumed: OAuth2 client credentials)');

/** spec 5.3 (assumed shape): the temporary access token. */
export const tokenResponseSchema = z
  .object({
    access_token: z.string().min(1),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
  })
  .describe('spec 5.3 temporary access token (assumed: OAuth2 client credentials answer)');

/** The answer of the platform's bot endpoints on 200 (spec 7.2 "regular answer"). */
export const regularAnswerSchema = z
  .object({ result: z.literal('ok') })
  .describe(
    'spec 7.2 "regular answer"; its body is not shown in the spec, the simulator sends {result:"ok"}',
  );

/** Names of the components that are no payload kind. */
export const EXTRA_COMPONENTS = {
  'svc.error-body': errorBodySchema,
  'svc.token-request': tokenRequestSchema,
  'svc.token-response': tokenResponseSchema,
  'svc.regular-answer': regularAnswerSchema,
} as const;

function componentOf(schema: Json): Json {
  // A component lives inside the document: no $schema / $id of its own.
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}

/**
 * Every component schema by name (kind names as they are: `channel.customer.text`).
 * @example buildComponentSchemas()['bot.error']
 */
export function buildComponentSchemas(): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const name of KINDS.keys()) out[name] = componentOf(toJsonSchema(name));
  for (const [name, schema] of Object.entries(EXTRA_COMPONENTS)) {
    out[name] = componentOf(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }));
  }
  return out;
}

/** A `$ref` to a component, in either document. */
export const refTo = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
