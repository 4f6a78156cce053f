import type { ServerResponse } from 'node:http';

/**
 * Ends responses in one burst at the end of the event-loop turn (the check phase) instead of
 * one write at a time between the handlers of that turn: the way uWebSockets corks every
 * socket for a turn. Under load a turn handles many requests; written one by one, each
 * response wakes a client that went back to sleep since the last one, and on loopback that
 * wake-up runs in the writer's syscall (it tripled the cost of `writev`). Written back to back,
 * one wake-up serves the burst: the simulator's ingest rose from ~11k to ~20k req/s with the
 * same work per request (`npm run bench`, channel). A lone request waits one turn (µs).
 * Node keeps the responses of one connection in order, so pipelined requests are safe.
 */
let queue: Array<ServerResponse | string | undefined> = [];

let exitHooked = false;

/** Run before a batch goes out (`--record-sync`: the journal writes the turn's records). */
const barriers = new Set<() => void>();

/**
 * Calls `before` ahead of every batch of answers, until the returned function is called.
 * While one is set, every socket answer joins the batch (`answersWaitForBarrier`), so no
 * answer leaves before what `before` writes.
 * @example const off = holdAnswersFor(() => journal.flush());
 */
export function holdAnswersFor(before: () => void): () => void {
  barriers.add(before);
  return () => void barriers.delete(before);
}

/** True while an answer must wait for the batch's barrier (see holdAnswersFor). */
export function answersWaitForBarrier(): boolean {
  return barriers.size > 0;
}

function drain(): void {
  const batch = queue;
  queue = [];
  for (const before of barriers) {
    try {
      before();
    } catch {
      // a barrier that fails (it should not: the journal catches its own write errors)
      // must not keep the answers from going out
    }
  }
  for (let i = 0; i < batch.length; i += 2) {
    const res = batch[i] as ServerResponse;
    // the client may have gone while the response waited: nothing to write to
    if (res.destroyed || res.writableEnded) continue;
    try {
      res.end(batch[i + 1] as string | undefined);
    } catch {
      res.destroy(); // this one cannot be written; the rest of the batch still is
    }
  }
}

/**
 * `res.end(text)` at the end of this event-loop turn, with the other responses of the turn.
 * Headers are set at once (`headersSent` is true from `writeHead`); only the write waits.
 * @example res.writeHead(200, headers); endInBatch(res, text);
 */
export function endInBatch(res: ServerResponse, text?: string): void {
  if (queue.length === 0) setImmediate(drain);
  queue.push(res, text);
  if (!exitHooked) {
    // a second Ctrl-C exits at once: what is queued (and already journaled) still goes out
    exitHooked = true;
    process.once('exit', drain);
  }
}
