/**
 * Whether a stream gets colour, without chalk: the error renderer (errors.ts) is part of the
 * start-up bundle and must not load chalk (start-up is a feature).
 */
import type { CliContext } from '../context.js';

/**
 * Colour only on a TTY whose TERM is not `dumb` (a terminal that draws no escapes: Emacs's
 * shell, some CI logs), never with NO_COLOR or --no-color (argv is checked directly);
 * FORCE_COLOR forces it on, or off as `0` / `false` (as Node and chalk read it).
 */
export function colorEnabled(ctx: Pick<CliContext, 'env'>, stream: { isTTY?: boolean }): boolean {
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  if (process.argv.includes('--no-color')) return false;
  const force = ctx.env.FORCE_COLOR;
  if (force === '0' || force === 'false') return false;
  if (force !== undefined) return true;
  return Boolean(stream.isTTY) && ctx.env.TERM !== 'dumb';
}
