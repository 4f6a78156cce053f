/**
 * How an HTML report was made, for its header: the command line as run (pasteable, its
 * secrets hidden), the svc-cli version and when the page was written.
 */
import { readPackageVersion } from '../../package-files.js';
import type { ReportMade } from '../../trace/html.js';
import type { CliContext } from '../context.js';
import { redactChannelUrl } from '../commands/config-run.js';

/** Flags whose value is a secret (spec 1.3, 5.2): tokens, the channel's random string. */
const SECRET_FLAG = /^--(?:[a-z-]*-)?(?:token|secret|random-string|password)$/;

/** One argument as a POSIX shell reads it back: bare when safe, else in single quotes. */
const quote = (arg: string): string =>
  /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;

/**
 * The arguments after the binary, quoted so the line can be pasted into a shell; the value of
 * a secret flag and a channel URL's random string shown as *** unless --show-secrets was given.
 * @example commandLine(['replay', 'my file.yaml', '--mutant', 'skip-third-attempt']) // "replay 'my file.yaml' --mutant skip-third-attempt"
 */
export function commandLine(argv: readonly string[]): string {
  const hide = !argv.includes('--show-secrets');
  const shown = argv.map((arg, i) => {
    if (!hide) return arg;
    const prev = argv[i - 1];
    if (prev !== undefined && SECRET_FLAG.test(prev)) return '***';
    const eq = arg.indexOf('=');
    if (arg.startsWith('--') && eq > 0 && SECRET_FLAG.test(arg.slice(0, eq)))
      return `${arg.slice(0, eq)}=***`;
    return redactChannelUrl(arg);
  });
  return shown.map(quote).join(' ');
}

/**
 * The header line of a report written now by this run.
 * @example writeHtmlReport({ ...options, made: reportMade(ctx) });
 */
export function reportMade(ctx: CliContext, now: Date = new Date()): ReportMade {
  return {
    command: `svc-cli ${commandLine(ctx.argv ?? [])}`.trimEnd(),
    version: readPackageVersion(),
    writtenAt: now.toISOString(),
  };
}
