/** The recordings a command was given, as it opens them: `-` (stdin) at most once. */
import { resolve } from 'node:path';
import { inputError } from '../errors.js';
import { STDIN } from '../journal/read-input.js';

/**
 * The paths to open for the recordings named on the command line, resolved against `cwd`;
 * `-` stays `-` (stdin), and naming it twice is an input error: stdin is read once.
 * @example inputPaths('/w', ['-', 'b.ndjson']) // ['-', '/w/b.ndjson']
 */
export function inputPaths(cwd: string, files: readonly string[]): string[] {
  if (files.filter((f) => f === STDIN).length > 1)
    throw inputError(
      'SVC_E_USAGE',
      'Could not read - twice: stdin holds one recording.',
      'Give - for one recording and name the others as files.',
    );
  return files.map((f) => (f === STDIN ? STDIN : resolve(cwd, f)));
}
