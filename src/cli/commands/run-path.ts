/**
 * Loads a command's run path (`<command>-run.js`) from dist/cli/commands/run-paths.bundle.cjs,
 * one CommonJS bundle of every run path compiled with a V8 code cache
 * (scripts/bundle-commands.mjs, src/cli/compiled.ts): a start then reads one file instead of
 * loading ~300 ES modules one by one. Without the bundle (tests on the sources, the single
 * binary) it imports the modules.
 */
import { compiledExports } from '../compiled.js';

type RunPaths = Record<string, (() => Promise<unknown>) | undefined>;

/**
 * @example const { runListen } = await loadRunPath('listen-run', () => import('./listen-run.js'));
 */
export async function loadRunPath<T>(name: string, sources: () => Promise<T>): Promise<T> {
  const bundled = compiledExports<{ runPaths: RunPaths }>(
    new URL('./run-paths.bundle.cjs', import.meta.url),
  );
  const load = bundled?.runPaths[name];
  return load ? ((await load()) as T) : sources();
}
