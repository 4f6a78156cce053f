// Writes schemas/svc.config.schema.json from the option tables (src/cli/options) (after tsc).
// `svc-cli init` points "$schema" at the copy shipped in the package; a unit test checks
// that the committed file matches the schema.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const { createConfigJsonSchema } = await import(resolve(root, 'dist/cli/options/json-schema.js'));
mkdirSync(resolve(root, 'schemas'), { recursive: true });
writeFileSync(
  resolve(root, 'schemas/svc.config.schema.json'),
  `${JSON.stringify(createConfigJsonSchema(), null, 2)}\n`,
);
