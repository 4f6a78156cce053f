/**
 * The single binary's entry (scripts/build-binary.mjs bundles it with every command into one
 * CommonJS script for Node's single executable applications). What bin/svc-cli.js and
 * boot.ts do on disk, in one file: `--version` answers before the program is evaluated (in
 * the bundle, a module imported with import() runs on first use), everything else runs main.
 */
import { readPackageVersion } from '../package-files.js';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${readPackageVersion()}\n`);
} else {
  void import('./main.js').then(({ main }) => main(args));
}
