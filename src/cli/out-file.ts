/**
 * `--out <file>` is checked before a run: a report that cannot be written is said
 * at once, not after minutes of work, and `--out` is never silently ignored.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { inputError } from '../errors.js';

/**
 * Throws an input error when `out` cannot take the `reporter`'s report.
 * @example checkOutFile({ cwd, out: flags.out, reporter, command: 'replay' });
 */
export function checkOutFile(options: {
  cwd: string;
  out: string | undefined;
  reporter: string;
  command: string;
  /** the flag that named the file (default --out) */
  flag?: string;
}): void {
  const { out, reporter, command } = options;
  const flag = options.flag ?? '--out';
  if (out === undefined) return;
  if (reporter === 'pretty') {
    throw inputError(
      'SVC_E_FLAG',
      `Could not use --out ${out}: the pretty reporter prints to the terminal.`,
      `Write a file with --reporter junit or --reporter json: svc-cli ${command} --reporter junit --out ${out}`,
    );
  }
  const path = resolve(options.cwd, out);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    throw inputError(
      'SVC_E_FLAG',
      `Could not use ${flag} ${out}: the folder ${dirname(out)} does not exist.`,
      'Create the folder first, or name a file in an existing one.',
    );
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw inputError('SVC_E_FLAG', `Could not use ${flag} ${out}: it is a folder.`, 'Name a file.');
  }
}
