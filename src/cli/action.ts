import type { Command } from 'commander';
import type { CliContext, GlobalFlags } from './context.js';

/** The global flags as seen from a subcommand. */
export function globalFlags(cmd: Command): GlobalFlags {
  return cmd.optsWithGlobals<GlobalFlags>();
}

/**
 * Wraps a command body: it receives commander's arguments and returns an exit code, which is
 * stored on the context for main.ts (the only place that exits). Errors propagate to main.ts.
 */
export function action<A extends unknown[]>(
  ctx: CliContext,
  body: (...args: A) => Promise<number | void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const code = await body(...args);
    if (typeof code === 'number') ctx.exitCode = code;
  };
}
