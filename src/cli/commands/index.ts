import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { registerValidate } from './validate.js';
import { registerPlatform } from './platform.js';

/**
 * Every command, registered in the order `--help` lists them. Command modules are thin and
 * import their core lazily inside the action.
 */
export function registerCommands(program: Command, ctx: CliContext): void {
  registerPlatform(program, ctx);
  registerValidate(program, ctx);
}
