import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { SvcError } from '../errors.js';

/**
 * Wraps a command body: it receives commander's arguments and returns an exit code, which is
 * stored on the context for main.ts (the only place that exits). Errors propagate to main.ts.
 */
export function action<A extends unknown[]>(
  ctx: CliContext,
  body: (...args: A) => Promise<number | void>,
): (...args: A) => Promise<void> {
  return async (...args: A) => {
    let code: number | void;
    try {
      code = await body(...args);
    } catch (error) {
      throw withPortSource(ctx, args.at(-1), error);
    }
    if (typeof code === 'number') ctx.exitCode = code;
  };
}

/**
 * A taken port that came from SVC_PORT, not --port: say so. Every serving command reads it,
 * so one set for `platform` makes `widget --platform-url` bind the simulator's own port.
 */
function withPortSource(ctx: CliContext, cmd: unknown, error: unknown): unknown {
  const fromEnv = ctx.env.SVC_PORT;
  if (!(error instanceof SvcError) || error.code !== 'SVC_E_PORT_IN_USE' || !fromEnv) return error;
  const given = (cmd as Partial<Command> | undefined)?.getOptionValueSource?.('port');
  // only the bind --port named (a --platform-port or --platform-listen-port has its own hint)
  const ofPort = error.hint?.startsWith('Pick another --port,') === true;
  if (given === 'cli' || !ofPort || !error.message.includes(`:${fromEnv}:`)) return error;
  return new SvcError(
    'SVC_E_PORT_IN_USE',
    error.message,
    `That port came from SVC_PORT=${fromEnv}, which every serving command reads: pass --port 0 here, or unset it.`,
    { cause: error },
  );
}

/**
 * The flags given on the command line, globals included: commander's defaults and its own
 * env fallbacks are left out, so the option schemas' defaults, the config file and SVC_* apply
 * (precedence file < env < flag, src/cli/options/resolve.ts).
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
