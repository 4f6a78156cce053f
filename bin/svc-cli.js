#!/usr/bin/env node
// CommonJS (bin/package.json): a start that loads no ES module does not set up Node's ES
// module loader, ~10 ms of every `svc-cli --help` (issue 18). `--version` alone answers
// without loading the program; everything else, --help included, runs the commander program
// from its start-up bundle (src/cli/boot.ts).
'use strict';
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  const pkg = JSON.parse(readFileSync(require.resolve('../package.json'), 'utf8'));
  // stdout the machine refused (`> /dev/full`): one line and exit 5, as main.ts does
  process.stdout.on('error', (error) => {
    if (error.code === 'EPIPE') return;
    process.stderr.write(
      `error [SVC_E_DISK] Could not write to stdout (${error.code}). Send it to another file, and run it again.\n`,
    );
    process.exitCode = 5;
  });
  process.stdout.write(`${pkg.version ?? '0.0.0'}\n`);
} else {
  let boot;
  try {
    boot = require('../dist/cli/boot.cjs').boot;
  } catch (error) {
    // a clone that was never built: dist/ comes from a build, not from `npm ci`
    if (error && error.code === 'MODULE_NOT_FOUND' && /boot\.cjs/.test(String(error.message))) {
      process.stderr.write(
        'svc-cli is not built in this folder: run `npm run build` once (npm start and npm test build on their own).\n',
      );
      process.exit(2);
    }
    throw error;
  }
  void boot(args);
}
