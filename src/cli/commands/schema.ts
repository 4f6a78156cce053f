import { schemaOptions } from './schema-options.js';
import { defineCommand } from './spec.js';

/** `svc-cli schema`: JSON Schema (draft 2020-12) of the payload kinds, generated from zod. */
export const schemaCommand = defineCommand({
  name: 'schema',
  description: 'print or write the JSON Schema (draft 2020-12) of payload kinds; list the kinds',
  options: schemaOptions,
  helpAfter: `
Without flags, prints every kind's schema as one JSON object keyed by kind.
The schemas accept fields the spec does not list (svc-cli warns about them); rules JSON
Schema cannot express (text over 1000 code points, type drift) are warnings in
svc-cli only.

Examples:
  $ svc-cli schema --list
  $ svc-cli schema --kind channel.customer.text
  $ svc-cli schema --out schemas/
  $ svc-cli schema --format openapi > openapi.json
  $ svc-cli schema --format openapi --role integrator --out .   # writes openapi.integrator.json
  $ svc-cli schema --format asyncapi
  $ svc-cli schema --format markdown > CONTRACT.md   # the contract reference`,
  // its own ES modules, not the run paths' bundle: zod loads as the installed package
  run: {
    path: 'schema-run',
    load: () => import('./schema-run.js'),
    call: (m, ctx, { flags }) => m.runSchema(ctx, flags),
  },
});
