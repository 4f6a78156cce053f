/**
 * `--out <file>` (and the other files a run writes: `--record`, `--report`) is checked before
 * a run: a file that cannot be written is said at once, not after minutes of work, and
 * `--out` is never silently ignored.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { inputError } from '../errors.js';

/**
 * The reporter of a run. `--json` (NDJSON on stdout) wins over a reporter from the config file
 * or the default; a `--reporter` typed beside it writes its report to `--out`, and without
 * `--out` the two would share stdout: refused, rather than one silently dropped (a CI step
 * reading `report.xml` got NDJSON in it).
 * @example const reporter = reporterOf({ json: flags.json, reporter: flags.reporter, given, out: flags.out, command: 'replay' });
 */
export function reporterOf<R extends string>(options: {
  json: boolean;
  reporter: R;
  given: Readonly<Record<string, unknown>>;
  out: string | undefined;
  command: string;
}): R | 'json' {
  const { json, reporter, given, out, command } = options;
  const typed = given.reporter;
  if (!json) return reporter;
  if (typed === undefined || typed === 'json') return 'json';
  if (out !== undefined) return reporter;
  throw inputError(
    'SVC_E_OPTIONS',
    `Could not use --json with --reporter ${reporter}: both would print to stdout.`,
    reporter === 'junit'
      ? `Write the JUnit report to a file: svc-cli --json ${command} --reporter junit --out report.xml (NDJSON stays on stdout), or drop --json.`
      : `Drop one: --json prints NDJSON, --reporter ${reporter} prints for a terminal.`,
  );
}

/**
 * Whether NDJSON goes to stdout as the run goes on: `--json` alone, or `--json` beside a
 * typed report written to `--out` (`--json conform hooks --reporter junit --out report.xml`:
 * the JUnit file for the CI's test tab, the NDJSON for the log). `--json --out run.ndjson`
 * writes it to the file instead.
 * @example ndjsonOnStdout({ json: true, reporter: 'junit', out: 'report.xml' }) // true
 */
export function ndjsonOnStdout(options: {
  json: boolean;
  reporter: string;
  out: string | undefined;
}): boolean {
  const { json, reporter, out } = options;
  if (reporter === 'json') return out === undefined;
  return json && out !== undefined;
}

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
      `Write a file with --reporter junit or --reporter json: svc-cli ${command} --reporter ${/\.(json|ndjson|jsonl)$/i.test(out) ? 'json' : 'junit'} --out ${out}`,
    );
  }
  checkWritableFile({ cwd: options.cwd, file: out, flag });
}

/**
 * Throws an input error when the file a flag names (`--out`, `--record`, `--report`, `--junit`)
 * cannot be written: its folder is missing or not a folder, or the name is a folder. Every
 * command checks its output files here, before it reads or runs anything, and none creates a
 * missing folder: a typo in a path is said at once instead of growing a tree of folders.
 * @example checkWritableFile({ cwd, file: flags.record, flag: '--record' });
 */
export function checkWritableFile(options: {
  cwd: string;
  file: string | undefined;
  flag: string;
}): void {
  const { file, flag } = options;
  if (file === undefined) return;
  const path = resolve(options.cwd, file);
  const folder = dirname(path);
  if (!existsSync(folder) || !statSync(folder).isDirectory()) {
    // a file where a folder should be (--out /etc/passwd/r.xml) is not a folder to create
    const blocking = nearestExisting(folder);
    if (blocking !== undefined && !statSync(blocking).isDirectory())
      throw inputError(
        'SVC_E_FLAG',
        `Could not use ${flag} ${file}: ${blocking} is a file, not a folder.`,
        'Name a file in a folder.',
      );
    throw inputError(
      'SVC_E_FLAG',
      `Could not use ${flag} ${file}: the folder ${dirname(file)} does not exist.`,
      `Create the folder first (mkdir -p ${dirname(file)}), or name a file in an existing one.`,
    );
  }
  if (existsSync(path) && statSync(path).isDirectory()) {
    throw inputError(
      'SVC_E_FLAG',
      `Could not use ${flag} ${file}: it is a folder.`,
      'Name a file.',
    );
  }
  try {
    accessSync(existsSync(path) ? path : folder, constants.W_OK);
  } catch {
    throw inputError(
      'SVC_E_FLAG',
      `Could not use ${flag} ${file}: ${existsSync(path) ? 'the file' : `the folder ${dirname(file)}`} is not writable.`,
      'Name a file in a folder you may write.',
    );
  }
}

/** `path` or the nearest of its parents that exists; undefined when none does. */
function nearestExisting(path: string): string | undefined {
  for (let at = path; ; at = dirname(at)) {
    if (existsSync(at)) return at;
    if (dirname(at) === at) return undefined;
  }
}
