/**
 * The fetch face of a serving side: `(request: Request) => Promise<Response>`, as hono's
 * `app.fetch`, over the same request pipeline a socket runs, without a socket. A Web standard
 * `Request` becomes an `InboundExchange` (exchange.ts) and what the pipeline wrote on the
 * reply wire (wire.ts) becomes the `Response`: a whole reply as it is; a reply whose body
 * follows in pieces (a slow body, a server-sent event stream) as a streamed body, read as the
 * serving side writes it; a reset as `Response.error()` (fetch rejects with a network error,
 * as msw does with it), or, once the body started, the body's stream failing with ECONNRESET;
 * a hanging request as `Response.error()` once the request's signal aborts or the face closes.
 * The serving roles and the proxy (`exchangeFetch`, exchange.ts) and the platform each hand
 * theirs out.
 */
import {
  decodeJsonBody,
  rawTooLarge,
  tooLarge,
  type BodyResult,
  type RawBody,
  type TransferMode,
} from './body.js';
import type { OutgoingHeaders, ReplyWire } from './wire.js';
import { errorBody } from '../wire-errors.js';

/** A serving side as a function of a Web standard Request. */
export type FetchHandler = (request: Request) => Promise<Response>;

/** A fetch face: `fetch`, and `close` that cuts what still waits (as a server closing). */
export interface FetchFace {
  readonly fetch: FetchHandler;
  close(): void;
}

/** A reply on its way to a `Response`: the wire the serving side writes on. */
interface FetchReply {
  readonly wire: ReplyWire;
  readonly response: Promise<Response>;
  /** whether a status went out (a failure after it cuts the reply instead of a 500) */
  answered(): boolean;
  /** the serving side closes first: as `reset` */
  cut(): void;
}

/** Statuses a `Response` carries without a body (the constructor refuses one). */
const NULL_BODY = new Set([101, 204, 205, 304]);

const encoder = new TextEncoder();
const resetError = (): Error => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

/**
 * How a Request's body came: a Request carries no framing, so a body counts as Content-Length
 * unless a `transfer-encoding: chunked` header says otherwise; none without a body.
 */
export function transferOfRequest(request: Request): TransferMode {
  if (request.body === null) return 'none';
  return /chunked/i.test(request.headers.get('transfer-encoding') ?? '')
    ? 'chunked'
    : 'content-length';
}

/** A Request's body as bytes within a limit: over it (read no further) or cut off. */
type Collected = { ok: true; chunks: Buffer[]; bytes: number } | { ok: false; over: boolean };

/**
 * Reads a Request's body within `limit`: a declared length over it is refused unread, a body
 * found over it on the way is read no further.
 */
async function collect(request: Request, limit: number): Promise<Collected> {
  if (Number(request.headers.get('content-length') ?? 0) > limit) {
    // not awaited: msw's request streams do not settle a cancel
    void request.body?.cancel().catch(() => undefined);
    return { ok: false, over: true };
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  if (!request.body) return { ok: true, chunks, bytes };
  try {
    // throws for a body already read: cut off, as far as this reader can tell
    const reader = request.body.getReader();
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      bytes += next.value.byteLength;
      if (bytes > limit) {
        void reader.cancel().catch(() => undefined);
        return { ok: false, over: true };
      }
      chunks.push(Buffer.from(next.value));
    }
  } catch {
    return { ok: false, over: false };
  }
  return { ok: true, chunks, bytes };
}

/**
 * Reads a Request's body as the socket does (`readJsonBody`): never throws; over `limit` the
 * same 413; bad UTF-8, an empty body and bad JSON get their 400.
 * @example const body = await readFetchBody(request, 1024, 'content-length'); if (body.ok) use(body.json);
 */
export async function readFetchBody(
  request: Request,
  limit: number,
  transfer: TransferMode,
): Promise<BodyResult> {
  const read = await collect(request, limit);
  if (read.ok) return decodeJsonBody(read.chunks, read.bytes, transfer);
  if (read.over) return tooLarge(limit, transfer);
  return {
    ok: false,
    status: 400,
    code: 'aborted',
    message: 'the request body was cut off',
    transfer,
  };
}

/**
 * A Request's body as bytes, as the socket's `readRawBody` reads it (the proxy forwards them).
 * @example const read = await readFetchRaw(request, 1024); if (read.ok) forward(read.body);
 */
export async function readFetchRaw(request: Request, limit: number): Promise<RawBody> {
  const read = await collect(request, limit);
  if (read.ok) return { ok: true, body: Buffer.concat(read.chunks, read.bytes) };
  if (read.over) return rawTooLarge(limit);
  return { ok: false, status: 400, message: 'the request body was cut off' };
}

/**
 * A reply wire whose writes make a `Response`; `extra` headers go on every reply (a role's
 * `x-svc-role`, as on its socket); `open` holds its cut while it is under way.
 */
function fetchReply(
  signal: AbortSignal,
  extra: Record<string, string>,
  open: Set<() => void>,
): FetchReply {
  let settle!: (response: Response) => void;
  const response = new Promise<Response>((resolve) => (settle = resolve));
  let sent = false;
  let done = false;
  let stream: ReadableStreamDefaultController<Uint8Array> | undefined;
  const closers = new Set<() => void>();
  const goneAway = (): void => {
    if (done) return;
    done = true;
    signal.removeEventListener('abort', goneAway);
    open.delete(goneAway);
    if (!sent) settle(Response.error());
    else stream?.error(resetError());
    for (const fn of [...closers]) fn();
  };
  const headersOf = (headers: OutgoingHeaders): Headers => {
    const out = new Headers(extra);
    for (const name in headers) {
      const value = headers[name] as string | readonly string[];
      if (typeof value === 'string') out.set(name, value);
      else for (const one of value) out.append(name, one);
    }
    return out;
  };
  const finish = (): void => {
    done = true;
    signal.removeEventListener('abort', goneAway);
    open.delete(goneAway);
  };
  const wire: ReplyWire = {
    send(status, body, headers = {}) {
      if (sent || done) return;
      sent = true;
      finish();
      const all = headersOf({
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        ...headers,
      });
      settle(new Response(NULL_BODY.has(status) ? null : body, { status, headers: all }));
    },
    start(status, headers) {
      if (sent || done) return;
      sent = true;
      const body = new ReadableStream<Uint8Array>({
        start: (controller) => void (stream = controller),
        // the reader gave up: the serving side hears the client go away
        cancel: () => goneAway(),
      });
      settle(
        new Response(NULL_BODY.has(status) ? null : body, { status, headers: headersOf(headers) }),
      );
    },
    write(piece) {
      if (done || !stream) return;
      stream.enqueue(typeof piece === 'string' ? encoder.encode(piece) : piece);
    },
    end() {
      if (done || !stream) return;
      finish();
      stream.close();
    },
    reset: goneAway,
    hang() {
      // nothing: the request's signal, or the face closing, ends it
    },
    onClose(fn) {
      closers.add(fn);
      return () => closers.delete(fn);
    },
  };
  open.add(goneAway);
  if (signal.aborted) goneAway();
  else signal.addEventListener('abort', goneAway, { once: true });
  return { wire, response, answered: () => sent, cut: goneAway };
}

/**
 * The fetch face of whatever answers through a reply wire: `serve` gets each request with
 * the wire its answer goes on. A serving side that throws answers 500 (or, once its reply
 * started, is cut), as a socket server and the in-process transport do.
 * @example const face = serveFetch((request, wire) => run(contextOf(request, wire))); await face.fetch(new Request(url));
 */
export function serveFetch(
  serve: (request: Request, wire: ReplyWire) => unknown,
  options: { headers?: Record<string, string>; onHandlerError?: (error: unknown) => void } = {},
): FetchFace {
  const open = new Set<() => void>();
  const extra = options.headers ?? {};
  return {
    fetch(request) {
      const reply = fetchReply(request.signal, extra, open);
      const failed = (error: unknown): void => {
        options.onHandlerError?.(error);
        if (reply.answered()) return reply.cut();
        const body = JSON.stringify(errorBody('internal', 'svc-cli failed to handle this request'));
        reply.wire.send(500, body, { 'content-type': 'application/json' });
      };
      try {
        const result = serve(request, reply.wire);
        if (result instanceof Promise) result.catch(failed);
      } catch (error) {
        failed(error);
      }
      return reply.response;
    },
    close() {
      for (const cut of [...open]) cut();
      open.clear();
    },
  };
}
