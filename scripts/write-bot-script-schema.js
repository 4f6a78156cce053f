// Writes schemas/bot-script.schema.json from the zod schema (run after `npm run build`).
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { botScriptJsonSchema } from '../dist/roles/bot/index.js';

const file = fileURLToPath(
  new globalThis.URL('../schemas/bot-script.schema.json', import.meta.url),
);
writeFileSync(file, `${JSON.stringify(botScriptJsonSchema(), null, 2)}\n`);
process.stdout.write(`wrote ${file}\n`);
