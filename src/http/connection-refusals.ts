/**
 * Connections a serving command could not take: beyond its budget of open connections (set
 * from the file limit, `ulimit -n`, so that the journal, the deliveries and the answers of open
 * connections keep descriptors) or refused by the system (EMFILE / ENFILE on accept). One count
 * per process, like the descriptors it stands for; the CLI warns once and sums them up.
 */

export interface ConnectionRefusal {
  /** `file-limit`: the budget from `ulimit -n`, or EMFILE/ENFILE; `max-connections`: the cap */
  reason: 'file-limit' | 'max-connections';
  /** the system's code when accept failed */
  code?: string;
  /** the open connections allowed at once */
  budget: number;
  /** refused in this process so far, this one included */
  total: number;
}

let total = 0;
const listeners = new Set<(refusal: ConnectionRefusal) => void>();

/** Counts one refused connection and tells the listeners. */
export function noteRefusal(refusal: Omit<ConnectionRefusal, 'total'>): void {
  total++;
  for (const listener of listeners) listener({ ...refusal, total });
}

/**
 * Hears every refused connection until the returned function is called.
 * @example const off = onConnectionRefused((r) => r.total === 1 && warn(r));
 */
export function onConnectionRefused(listener: (refusal: ConnectionRefusal) => void): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

/** Connections refused in this process so far. */
export function refusedConnections(): number {
  return total;
}

/** Descriptors kept free of connections: the journal, deliveries, stdio, the module loader. */
export const FILE_HEADROOM = 64;

/**
 * Open connections allowed at once under a file limit: the cap, or the limit less the headroom
 * when that is lower (at least 8).
 * @example connectionBudget(1024, 128) // 64
 */
export function connectionBudget(
  cap: number,
  fileLimit: number | undefined,
): { budget: number; byFiles: boolean } {
  if (fileLimit === undefined || fileLimit - FILE_HEADROOM >= cap)
    return { budget: cap, byFiles: false };
  return { budget: Math.max(8, fileLimit - FILE_HEADROOM), byFiles: true };
}
