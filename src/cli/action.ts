import type { Command } from 'commander';
import type { CliContext } from './context.js';

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

/**
 * The flags given on the command line, globals included: commander's defaults and its own
 * env fallbacks are left out, so the option schemas' defaults, the config file and SVC_* apply
 * (precedence file < env < flag, src/cli/options.ts).
 */
export function givenFlags(cmd: Command): Record<string, unknown> {
  const all = cmd.optsWithGlobals<Record<string, unknown>>();
  return Object.fromEntries(
    Object.entries(all).filter(([key]) => {
      const source = cmd.getOptionValueSourceWithGlobals(key);
      return source === 'cli' || source === 'implied';
    }),
  );
}
