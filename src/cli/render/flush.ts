/**
 * The registry of buffered stdout writers, apart from output.ts so that main.ts can flush
 * them without loading chalk on the `--help` path (conventions.md 13).
 */
export interface Flushable {
  flush(): Promise<void>;
}

const writers = new Set<Flushable>();

export function registerWriter(writer: Flushable): void {
  writers.add(writer);
}

/** Writes whatever any Output still buffers (called once before exit). */
export async function flushOutputs(): Promise<void> {
  await Promise.all([...writers].map((w) => w.flush()));
}
