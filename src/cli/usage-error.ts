/** What every usage error (an unknown command or flag, a missing argument) ends with. */
export const USAGE_HINT =
  'svc-cli --help lists the commands; svc-cli <command> --help their options.';

/**
 * Commander's usage error as svc-cli prints its own errors: the code after `error`, the hint
 * and where to read more, as `--json` says them (code SVC_E_USAGE, exit 2).
 * @example formatUsageError("error: unknown command 'replya'\n(Did you mean replay?)\n")
 * // "error [SVC_E_USAGE] unknown command 'replya'\n(Did you mean replay?)\n  svc-cli --help ...\n  more: ..."
 */
export function formatUsageError(text: string): string {
  if (!text.startsWith('error: ')) return text;
  const message = text.slice('error: '.length).trimEnd();
  return `error [SVC_E_USAGE] ${message}\n  ${USAGE_HINT}\n  more: svc-cli explain SVC_E_USAGE\n`;
}
