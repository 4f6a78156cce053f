import { closestNames } from '../../suggest.js';

/**
 * What both consoles say of a line's unknown `/command`: a typo is likelier than a new command,
 * so the one meant is named, as the CLI does for its own commands.
 * @example unknownCommand('unknown command', 'tpying', ['typing', 'help']) // 'unknown command /tpying (did you mean /typing?); /help lists them (// sends a line starting with /)'
 */
export function unknownCommand(
  what: string,
  command: string,
  known: readonly string[],
): { kind: 'error'; message: string } {
  const [meant] = closestNames(command, known, { maxDistance: 2 });
  const hint = meant === undefined ? '' : ` (did you mean /${meant}?)`;
  return {
    kind: 'error',
    message: `${what} /${command}${hint}; /help lists them (// sends a line starting with /)`,
  };
}
