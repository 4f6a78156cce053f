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
  process.stdout.write(`${pkg.version ?? '0.0.0'}\n`);
} else {
  void require('../dist/cli/boot.cjs').boot(args);
}
