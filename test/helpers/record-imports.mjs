// Used as `node --import ./test/helpers/record-imports.mjs ...`: records every resolved
// module URL to the file named by SVC_RECORD_IMPORTS, so a test can prove what loaded: the ES
// modules (a resolve hook) and the CommonJS files `require` loads (the start-up bundles).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

const file = process.env.SVC_RECORD_IMPORTS;
if (file) {
  register('./record-imports-hooks.mjs', import.meta.url, { data: { file } });
  const Module = createRequire(import.meta.url)('node:module');
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const resolved = resolveFilename.call(this, request, ...rest);
    if (!Module.isBuiltin(resolved)) appendFileSync(file, `${pathToFileURL(resolved).href}\n`);
    return resolved;
  };
}
