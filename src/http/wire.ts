/**
 * What a serving role answers through: a socket's `ServerResponse`, or the
 * in-process transport of the embedded world (`in-process.ts`). Faults act on this, so the
 * same fault plan gives the same exchange whichever carries it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { answersWaitForBarrier, endInBatch } from './response-batch.js';

/** Reply headers: a header sent more than once (an upstream's `set-cookie`) as a list. */
export type OutgoingHeaders = Record<string, string | readonly string[]>;

export interface ReplyWire {
  /**
   * a whole reply, with Content-Length; `batched`: a socket ends it with the other replies of
   * this event-loop turn (`endInBatch`), as refusals always were
   */
  send(
    status: number,
    body: string,
    headers?: Record<string, string>,
    options?: { batched?: boolean },
  ): void;
  /**
   * a reply whose body follows in pieces: the status and headers now (chunked, or the
   * framing the headers name: a `content-length` among them)
   */
  start(status: number, headers: OutgoingHeaders): void;
  /** one piece of a started reply (bytes as they are: a forwarded answer need not be text) */
  write(piece: string | Uint8Array): void;
  /** the last piece was written */
  end(): void;
  /** no HTTP reply: the connection is reset (RST) */
  reset(): void;
  /** no HTTP reply: the request is held until the client gives up or the server closes */
  hang(): void;
  /** calls `fn` once the client went away (gave up, or the connection closed) */
  onClose(fn: () => void): () => void;
}

/**
 * The wire of a node:http exchange. Plain methods only: an object literal with a getter gets
 * a hidden class of its own in the old generation, which kept each request's whole graph
 * alive through young-generation GCs (2.5x the bytes promoted per scavenge, 3 ms -> 7 ms
 * pauses at 800 req/s). `in-process.ts` builds its wires the same way.
 * @example answerOnWire(faultEffect(fault), { wire: socketWire(req, res), clock, normal });
 */
export function socketWire(req: IncomingMessage, res: ServerResponse): ReplyWire {
  return {
    send(status, body, headers = {}, options = {}) {
      if (res.headersSent || res.destroyed) return;
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        ...headers,
      });
      if (options.batched || answersWaitForBarrier()) endInBatch(res, body);
      else res.end(body);
    },
    start(status, headers) {
      if (!res.headersSent && !res.destroyed)
        res.writeHead(status, headers as Record<string, string | string[]>);
    },
    write(piece) {
      if (!res.destroyed) res.write(piece);
    },
    end() {
      if (!res.destroyed) res.end();
    },
    reset() {
      const socket = req.socket;
      if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
      else socket.destroy();
    },
    hang() {
      // the socket stays open without a timer of its own until the client or server ends it
      req.socket.setTimeout(0);
    },
    onClose(fn) {
      res.once('close', fn);
      return () => res.off('close', fn);
    },
  };
}
