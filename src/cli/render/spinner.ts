import type { CliContext } from '../context.js';

/**
 * Shows an ora spinner on stderr while `work` runs, only on a TTY and never with --json;
 * ora is imported only then.
 * @example const result = await withSpinner(ctx, { json }, 'sending', send());
 */
export async function withSpinner<T>(
  ctx: CliContext,
  options: { json: boolean },
  text: string,
  work: Promise<T>,
): Promise<T> {
  if (options.json || !ctx.stderr.isTTY) return work;
  const { default: ora } = await import('ora');
  const spinner = ora({ text, stream: ctx.stderr }).start();
  try {
    return await work;
  } finally {
    spinner.stop();
  }
}
