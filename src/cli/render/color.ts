/**
 * Whether a stream gets colour, without chalk: the error renderer (errors.ts) is part of the
 * start-up bundle and must not load chalk (start-up is a feature).
 */
import type { CliContext } from '../context.js';

/** Colour only on a TTY, never with NO_COLOR or --no-color (argv is checked directly). */
export function colorEnabled(ctx: Pick<CliContext, 'env'>, stream: { isTTY?: boolean }): boolean {
  if (ctx.env.NO_COLOR !== undefined && ctx.env.NO_COLOR !== '') return false;
  if (process.argv.includes('--no-color')) return false;
  if (ctx.env.FORCE_COLOR !== undefined && ctx.env.FORCE_COLOR !== '0') return true;
  return Boolean(stream.isTTY);
}
