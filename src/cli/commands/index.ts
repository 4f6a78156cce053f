import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerSchema } from './schema.js';
import { registerValidate } from './validate.js';

/**
 * Every command, registered in the order `--help` lists them. Command modules are thin and
 * import their core lazily inside the action.
 */
export function registerCommands(program: Command, ctx: CliContext): void {
  registerValidate(program, ctx);
  registerSchema(program, ctx);
}
