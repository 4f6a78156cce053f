/**
 * The registry of buffered stdout writers, apart from output.ts so that main.ts can flush
 * them without loading chalk on the `--help` path (start-up is a feature).
 */
export interface Flushable {
  flush(): Promise<void>;
}

// one registry in the process: the start-up bundle (scripts/bundle-commands.mjs) that flushes
// holds its own copy of this module beside the one the command bodies register with
const REGISTRY = Symbol.for('svc-cli.writers');
const writers = ((globalThis as { [REGISTRY]?: Set<Flushable> })[REGISTRY] ??=
  new Set<Flushable>());

export function registerWriter(writer: Flushable): void {
  writers.add(writer);
}

/** Writes whatever any Output still buffers (called once before exit). */
export async function flushOutputs(): Promise<void> {
  await Promise.all([...writers].map((w) => w.flush()));
}
