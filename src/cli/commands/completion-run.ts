import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { generateCompletion, type Shell } from '../completion.js';

/** `completion <shell>`: the script for the program the command belongs to. */
export function runCompletion(ctx: CliContext, program: Command, shell: Shell): number {
  ctx.stdout.write(generateCompletion(program, shell));
  return 0;
}
