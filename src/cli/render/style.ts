import { Chalk, type ChalkInstance } from 'chalk';
import type { CliContext } from '../context.js';
import { colorEnabled } from './color.js';

export { colorEnabled } from './color.js';

export function makeChalk(
  ctx: Pick<CliContext, 'env'>,
  stream: { isTTY?: boolean },
): ChalkInstance {
  return new Chalk({ level: colorEnabled(ctx, stream) ? 1 : 0 });
}
