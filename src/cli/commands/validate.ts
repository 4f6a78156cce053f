import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { SvcError } from '../../errors.js';
import { action } from '../action.js';

export function registerValidate(program: Command, ctx: CliContext): void {
  program
    .command('validate')
    .description('validate payloads against the contract')
    .argument('[inputs...]', 'files, folders, globs or - for stdin')
    .action(
      action(ctx, () => {
        throw new SvcError('SVC_E_NOT_IMPLEMENTED', 'internal', 'validate is not implemented yet');
      }),
    );
}
