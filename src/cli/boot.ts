/**
 * What bin/svc-cli.js runs (start-up is a feature): main.ts from its start-up bundle,
 * dist/cli/main.bundle.cjs (scripts/bundle-commands.mjs), compiled with a V8 code cache
 * (compiled.ts); without the bundle (a build that did not write it), main.ts itself. The build
 * writes this module as dist/cli/boot.cjs, so a start loads CommonJS only: Node 20 sets up its
 * ES module loader, ~10 ms of every start here, only for a command that imports its body.
 */
import { loadCompiled } from './compiled.js';
import type * as Main from './main.js';

/** Runs svc-cli for `argv` and exits with its code. */
export async function boot(argv: string[]): Promise<void> {
  const bundled = loadCompiled<typeof Main>(new URL('./main.bundle.cjs', import.meta.url));
  const { main } = bundled?.exports ?? (await import('./main.js'));
  await main(argv);
}
