#!/usr/bin/env node
// Writes the JSON Schemas of svc-cli's own on-disk formats (conversation fixtures, fault
// plans, platform profiles) into schemas/, from the zod schemas in dist/. Fixtures point at them with $schema.
// Run by `npm run build`; a test checks the committed files are current.
import { mkdirSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

const root = new URL('../', import.meta.url);
const { conversationSchema } = await import(new URL('dist/conversation/format.js', root).href);
const { faultPlanSchema } = await import(new URL('dist/faults/plan-file.js', root).href);
const { profileSchema } = await import(new URL('dist/conversation/record/profile.js', root).href);

/** The on-disk formats; the input side of each schema is what a file may contain. */
export const FORMATS = {
  conversation: conversationSchema,
  'fault-plan': faultPlanSchema,
  profile: profileSchema,
};

mkdirSync(new URL('schemas/', root), { recursive: true });
for (const [name, schema] of Object.entries(FORMATS)) {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  writeFileSync(
    new URL(`schemas/${name}.schema.json`, root),
    `${JSON.stringify({ $id: `svc-cli/${name}.schema.json`, ...json }, null, 2)}\n`,
  );
}

// The API descriptions for other ecosystems: OpenAPI 3.1 of every HTTP endpoint and
// AsyncAPI 3.0 of the event flows, from the same generator `svc-cli schema --format` uses.
const { buildOpenApi, buildAsyncApi } = await import(
  new URL('dist/contract/api-docs/index.js', root).href
);
for (const [name, document] of [
  ['openapi', buildOpenApi()],
  ['asyncapi', buildAsyncApi()],
]) {
  writeFileSync(new URL(`schemas/${name}.json`, root), `${JSON.stringify(document, null, 2)}\n`);
}
