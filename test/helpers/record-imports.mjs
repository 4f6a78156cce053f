// Used as `node --import ./test/helpers/record-imports.mjs ...`: records every resolved
// module URL to the file named by SVC_RECORD_IMPORTS, so a test can prove what loaded.
import { register } from 'node:module';
import process from 'node:process';

const file = process.env.SVC_RECORD_IMPORTS;
if (file) register('./record-imports-hooks.mjs', import.meta.url, { data: { file } });
