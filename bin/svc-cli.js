#!/usr/bin/env node
// `svc-cli --version` alone answers without loading the program (start-up, issue 18);
// everything else, --help included, goes through the commander program.
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = await import('node:fs');
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
  process.stdout.write(`${pkg.version ?? '0.0.0'}\n`);
} else {
  await import('../dist/cli/main.js');
}
