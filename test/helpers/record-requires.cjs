// Used as `node -r ./test/helpers/record-requires.cjs ...` (a CommonJS preload: an `--import`
// preload would itself start the ES module loader). At exit, writes to the file named by
// SVC_RECORD_REQUIRES the files `require` resolved, the parts of Node's ES module loader the
// process loaded, and whether it loaded Node's own fetch (its bundled undici), so a test can
// prove that a start ran without them.
'use strict';
const { writeFileSync } = require('node:fs');
const Module = require('node:module');

const file = process.env.SVC_RECORD_REQUIRES;
if (file) {
  const required = [];
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const resolved = resolveFilename.call(this, request, ...rest);
    if (!Module.isBuiltin(resolved)) required.push(resolved);
    return resolved;
  };
  process.on('exit', () => {
    const esmLoader = process.moduleLoadList.filter((m) => m.includes('internal/modules/esm/'));
    const nodeFetch = process.moduleLoadList.some((m) => m.includes('internal/deps/undici/'));
    writeFileSync(file, JSON.stringify({ required, esmLoader, nodeFetch }));
  });
}
