/** What every usage error (an unknown command or flag, a missing argument) ends with. */
export const USAGE_HINT =
  'svc-cli --help lists the commands; svc-cli <command> --help their options.';

/**
 * Commander's usage error as svc-cli prints its own errors: the code after `error`, the hint
 * and where to read more, as `--json` says them (code SVC_E_USAGE, exit 2).
 * @example formatUsageError("error: unknown command 'replya'\n(Did you mean replay?)\n")
 * // "error [SVC_E_USAGE] unknown command 'replya'\n(Did you mean replay?)\n  svc-cli --help ...\n  more: ..."
 */
export function formatUsageError(text: string, hint = USAGE_HINT): string {
  if (!text.startsWith('error: ')) return text;
  const message = text.slice('error: '.length).trimEnd();
  return `error [SVC_E_USAGE] ${message}\n  ${hint}\n  more: svc-cli explain SVC_E_USAGE\n`;
}

/**
 * The hint of a usage error: the help of the command typed (`trace`, `record diff`), which
 * says its arguments and options, or the program's when no command was named.
 * @example usageHint('trace') // 'svc-cli trace --help lists its arguments and options.'
 */
export function usageHint(command: string, group = false): string {
  if (command === '') return USAGE_HINT;
  return `svc-cli ${command} --help lists its ${group ? 'commands' : 'arguments and options'}.`;
}
